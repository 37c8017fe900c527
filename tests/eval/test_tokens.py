"""`bc-eval --record-tokens`: every model turn keeps the token ids and logprobs the server sent, as it sent them,
asked for in each server's dialect (vLLM, SGLang, llama.cpp) by both clients; the summary counts the turns."""
from __future__ import annotations

import subprocess

import orjson
import pytest

from .conftest import BIN, answer, arithmetic_task, bc_eval_env, read_jsonl, write_jsonl

CLIENTS = ("aiohttp", "openai")
# awkward floats: shortest round-trip forms, a tiny one, the lowest float (llama.cpp's log of 0), a whole number
LOGPROBS = [[-0.1, -1.2345678901234567e-07, -3.4028234663852886e38, -2.0],
            [-0.0, -12.345678901234567, -0.5],
            [-7.62939453125e-06, -1.0]]
COMPLETION_IDS = [[151657, 515, 1, 151658], [40, 1079, 151645], [20, 151645]]
PROMPT_IDS = [[151644, 872, 198, 46254],
              [151644, 872, 198, 46254, 151657, 515, 1, 151658, 151645, 198, 27],
              [151644, 872, 198, 46254, 151657, 515, 1, 151658, 151645, 198, 27, 40, 1079, 151645, 198, 99]]
ANSWERS = [{"tool_calls": [{"name": "calculate", "arguments": {"expression": "2 + 3"}}]},
           {"content": answer(4)},  # wrong: the interaction asks again
           {"content": answer(5)}]


def _logprob_content(turn: int, with_ids: bool) -> list[dict]:
    out = []
    for tid, lp in zip(COMPLETION_IDS[turn], LOGPROBS[turn], strict=True):
        entry = {"token": f"t{tid}", "logprob": lp, "bytes": [116], "top_logprobs": []}
        if with_ids:
            entry["id"] = tid
        out.append(entry)
    return out


def vllm_step(turn: int) -> dict:
    """vLLM >= 0.10.2 answering return_token_ids and logprobs: prompt ids at the top, completion ids in the choice."""
    return {**ANSWERS[turn], "extra": {"prompt_token_ids": PROMPT_IDS[turn]},
            "choice": {"token_ids": COMPLETION_IDS[turn], "stop_reason": None,
                       "logprobs": {"content": _logprob_content(turn, False)}}}


def sglang_step(turn: int) -> dict:
    """SGLang answering return_prompt_token_ids / return_token_ids: both in the choice."""
    return {**ANSWERS[turn], "choice": {"prompt_token_ids": PROMPT_IDS[turn], "token_ids": COMPLETION_IDS[turn],
                                        "matched_stop": 151645,
                                        "logprobs": {"content": _logprob_content(turn, False)}}}


def llamacpp_step(turn: int) -> dict:
    """llama-server answering logprobs: each token's id beside its logprob, no prompt ids."""
    return {**ANSWERS[turn], "choice": {"logprobs": {"content": _logprob_content(turn, True)}},
            "extra": {"timings": {"prompt_n": 4, "predicted_n": 3}}}


DIALECTS = {"vllm": vllm_step, "sglang": sglang_step, "llamacpp": llamacpp_step}
ASKED = {"vllm": {"logprobs": True, "return_token_ids": True},
         "sglang": {"logprobs": True, "return_token_ids": True, "return_prompt_token_ids": True},
         "llamacpp": {"logprobs": True}}


def run_cli(tmp_path, url, *flags: str) -> tuple[subprocess.CompletedProcess, list[dict]]:
    tasks = write_jsonl(tmp_path / "tasks.jsonl", [arithmetic_task("2 + 3", prompt="Compute 2 + 3.")])
    out = tmp_path / "out.jsonl"
    out.unlink(missing_ok=True)
    proc = subprocess.run([str(BIN / "bc-eval"), str(tasks), "-o", str(out), "--model", "m", "--base-url", url,
                           "--summary", str(tmp_path / "s.json"), *flags],
                          capture_output=True, env=bc_eval_env())
    assert proc.returncode == 0, proc.stderr.decode()
    return proc, read_jsonl(out)


@pytest.mark.parametrize("client", CLIENTS)
@pytest.mark.parametrize("dialect", DIALECTS)
def test_every_model_turn_carries_what_the_server_sent_byte_identical(tmp_path, scripted, dialect, client):
    steps = [DIALECTS[dialect](i) for i in range(3)]
    server, url = scripted({"Compute 2 + 3.": steps}, models_extra={"owned_by": dialect})
    proc, [row] = run_cli(tmp_path, url, "--record-tokens", "--client", client)
    assert row["score"] == 1.0 and row["status"] == "completed"
    model_turns = [t for t in row["turns"] if t["type"] == "model"]
    assert len(model_turns) == 3
    for i, turn in enumerate(model_turns):
        tokens = turn["tokens"]
        # byte-identical: the stored arrays serialise to the bytes the server's arrays did
        assert orjson.dumps(tokens["completion_logprobs"]) == orjson.dumps(LOGPROBS[i])
        assert orjson.dumps(tokens["completion_ids"]) == orjson.dumps(COMPLETION_IDS[i])
        if dialect == "llamacpp":
            assert "prompt_ids" not in tokens  # llama-server does not send them
        else:
            assert orjson.dumps(tokens["prompt_ids"]) == orjson.dumps(PROMPT_IDS[i])
        assert set(tokens) <= {"prompt_ids", "completion_ids", "completion_logprobs"}  # compact: arrays only
    bodies = [r["body"] for r in server.requests]
    for body in bodies:
        for key, value in ASKED[dialect].items():
            assert body[key] == value, (key, body)
        assert "return_prompt_token_ids" not in body or dialect == "sglang"
    prompt_turns = 0 if dialect == "llamacpp" else 3
    summary = orjson.loads((tmp_path / "s.json").read_bytes())
    assert summary["tokens"] == {"model_turns": 3, "with_prompt_ids": prompt_turns, "with_completion_ids": 3,
                                 "with_completion_logprobs": 3}
    assert f"tokens: of 3 model turns, 3 carry completion ids, 3 logprobs, {prompt_turns} prompt ids" in \
        proc.stderr.decode()


def test_without_the_flag_nothing_is_asked_and_nothing_kept(tmp_path, scripted):
    server, url = scripted({"Compute 2 + 3.": [vllm_step(i) for i in range(3)]}, models_extra={"owned_by": "vllm"})
    proc, [row] = run_cli(tmp_path, url)
    assert all("tokens" not in t for t in row["turns"])
    assert all("logprobs" not in r["body"] and "return_token_ids" not in r["body"] for r in server.requests)
    assert "tokens" not in orjson.loads((tmp_path / "s.json").read_bytes())
    assert "tokens:" not in proc.stderr.decode()


def test_a_param_of_the_users_wins_over_the_dialect(tmp_path, scripted):
    server, url = scripted({"Compute 2 + 3.": [vllm_step(i) for i in range(3)]}, models_extra={"owned_by": "vllm"})
    run_cli(tmp_path, url, "--record-tokens", "--param", "top_logprobs=2", "--param", "return_token_ids=false")
    body = server.requests[-1]["body"]
    assert body["top_logprobs"] == 2 and body["return_token_ids"] is False and body["logprobs"] is True


def test_a_server_that_sends_nothing_is_counted_not_invented(tmp_path, scripted):
    _, url = scripted({"Compute 2 + 3.": ANSWERS}, models_extra={"owned_by": "vllm"})
    proc, [row] = run_cli(tmp_path, url, "--record-tokens")
    assert all("tokens" not in t for t in row["turns"])
    assert orjson.loads((tmp_path / "s.json").read_bytes())["tokens"] == {
        "model_turns": 3, "with_prompt_ids": 0, "with_completion_ids": 0, "with_completion_logprobs": 0}
    assert "tokens: of 3 model turns, 0 carry completion ids" in proc.stderr.decode()


@pytest.mark.parametrize("bad", [{"token_ids": [1, "2"]}, {"token_ids": [1, True]}, {"token_ids": [-1]},
                                 {"logprobs": {"content": [{"token": "a", "logprob": "x"}]}},
                                 {"logprobs": {"content": [{"token": "a", "logprob": 0.5}]}},
                                 {"prompt_token_ids": {"a": 1}}])
def test_malformed_token_fields_are_a_typed_error(tmp_path, scripted, bad):
    _, url = scripted({"Compute 2 + 3.": [{"content": answer(5), "choice": bad}]}, models_extra={"owned_by": "sglang"})
    tasks = write_jsonl(tmp_path / "tasks.jsonl", [arithmetic_task("2 + 3", prompt="Compute 2 + 3.")])
    proc = subprocess.run([str(BIN / "bc-eval"), str(tasks), "--model", "m", "--base-url", url, "--record-tokens",
                           "--retries", "0"], capture_output=True, env=bc_eval_env())
    [row] = [orjson.loads(line) for line in proc.stdout.splitlines()]
    assert row["status"] == "error" and row["error"]["type"] == "invalid_response", row["error"]


def test_builtin_models_say_they_record_nothing(tmp_path):
    tasks = write_jsonl(tmp_path / "tasks.jsonl", [arithmetic_task("2 + 3")])
    proc = subprocess.run([str(BIN / "bc-eval"), str(tasks), "--model", "builtin:reference", "--record-tokens"],
                          capture_output=True, env=bc_eval_env())
    assert proc.returncode == 0
    assert "builtin:reference has no tokenizer: --record-tokens records nothing" in proc.stderr.decode()


def test_bc_filter_keeps_them_in_trajectories_and_training_rows(tmp_path, scripted):
    _, url = scripted({"Compute 2 + 3.": [vllm_step(i) for i in range(3)]}, models_extra={"owned_by": "vllm"})
    _, [row] = run_cli(tmp_path, url, "--record-tokens")
    traj = tmp_path / "out.jsonl"
    expected = [t["tokens"] for t in row["turns"] if t["type"] == "model"]
    for args, get in ((["--min-score", "0.5"], lambda r: [t["tokens"] for t in r["turns"] if t["type"] == "model"]),
                      (["--to", "training"], lambda r: r["tokens"]), (["--to", "sft"], lambda r: r["tokens"])):
        proc = subprocess.run([str(BIN / "bc-filter"), str(traj), *args], capture_output=True)
        assert proc.returncode == 0, proc.stderr.decode()
        [out] = [orjson.loads(line) for line in proc.stdout.splitlines()]
        assert get(out) == expected, args
    # rows without tokens keep the seed's shapes exactly
    proc = subprocess.run([str(BIN / "bc-filter"), "--to", "training"], input=orjson.dumps(
        {**row, "turns": [{k: v for k, v in t.items() if k != "tokens"} for t in row["turns"]]}),
        capture_output=True)
    assert set(orjson.loads(proc.stdout)) == {"id", "data_source", "prompt", "messages", "tools"}


@pytest.mark.parametrize("client", CLIENTS)
def test_llamacpp_prompt_ids_are_its_own_template_and_tokenizer_checked_against_its_count(tmp_path, scripted, client):
    from bc_eval.testing import toy_template, toy_tokens

    server, url = scripted({"Compute 2 + 3.": [llamacpp_step(i) for i in range(3)]},
                           models_extra={"owned_by": "llamacpp"}, llamacpp_routes=True)
    proc, [row] = run_cli(tmp_path, url, "--record-tokens", "--client", client)
    model_turns = [t for t in row["turns"] if t["type"] == "model"]
    bodies = [r["body"] for r in server.requests]
    assert len(model_turns) == len(bodies) == 3
    for turn, body in zip(model_turns, bodies, strict=True):
        expected = toy_tokens(toy_template(body["messages"], body.get("tools") or []), True)
        assert turn["tokens"]["prompt_ids"] == expected
        assert turn["usage"]["prompt_tokens"] == len(expected) if "usage" in turn else True
    assert orjson.loads((tmp_path / "s.json").read_bytes())["tokens"]["with_prompt_ids"] == 3


def test_llamacpp_prompt_ids_that_do_not_match_its_count_are_not_kept(tmp_path, scripted):
    steps = [{**llamacpp_step(i), "usage": {"prompt_tokens": 7, "completion_tokens": 3, "total_tokens": 10}}
             for i in range(3)]
    _, url = scripted({"Compute 2 + 3.": steps}, models_extra={"owned_by": "llamacpp"}, llamacpp_routes=True)
    _, [row] = run_cli(tmp_path, url, "--record-tokens")
    model_turns = [t for t in row["turns"] if t["type"] == "model"]
    assert all("prompt_ids" not in t["tokens"] and t["tokens"]["completion_ids"] for t in model_turns)
