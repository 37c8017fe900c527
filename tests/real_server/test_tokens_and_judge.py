"""Token records and the LLM judge against the real llama-server: `--record-tokens` keeps the logprobs and ids the
server sent (its prompt ids from its own template and tokenizer, as many as it counted), the drift check passes on
untouched rows and flags an edited message, and a judged bootcamp is graded by the real server as judge (a
JSON-schema verdict) with the second run answered from the cache."""
from __future__ import annotations

import orjson

from .conftest import bc, read_jsonl
from .test_llama_server import MODEL, NO_CACHE, gen, run_eval


def test_record_tokens_keeps_what_the_server_sent_and_the_drift_check_sees_an_edit(tmp_path, recorded):
    tasks = gen(tmp_path, "tictactoe", 2)
    rows, summary, exchanges = run_eval(recorded, tmp_path, tasks, "aiohttp", "--record-tokens", *NO_CACHE)
    turns = [t for row in rows for t in row["turns"] if t["type"] == "model"]
    assert len(turns) == len(exchanges) >= 2
    for turn, exchange in zip(turns, exchanges, strict=True):
        content = exchange["response"]["choices"][0]["logprobs"]["content"]
        tokens = turn["tokens"]
        # byte-identical to the server's own arrays
        assert orjson.dumps(tokens["completion_logprobs"]) == orjson.dumps([e["logprob"] for e in content])
        assert orjson.dumps(tokens["completion_ids"]) == orjson.dumps([e["id"] for e in content])
        assert len(tokens["prompt_ids"]) == exchange["response"]["usage"]["prompt_tokens"]
    assert summary["tokens"] == {"model_turns": len(turns), "with_prompt_ids": len(turns),
                                 "with_completion_ids": len(turns), "with_completion_logprobs": len(turns)}

    run = tmp_path / "aiohttp.jsonl"
    proc = bc("bc-filter", "--check-token-drift", "--tokenizer", recorded.url, str(run))
    assert proc.returncode == 0, proc.stderr.decode()
    checked = [orjson.loads(line) for line in proc.stdout.splitlines()]
    assert [r["token_drift"] for r in checked] == [[] for _ in rows], proc.stderr.decode()

    edited = [dict(r) for r in rows]
    first_user = next(i for i, m in enumerate(edited[0]["messages"]) if m["role"] == "user")
    edited[0]["messages"] = [dict(m) for m in edited[0]["messages"]]
    edited[0]["messages"][first_user]["content"] = edited[0]["messages"][first_user]["content"].replace(
        "You", "Thou", 1) if "You" in edited[0]["messages"][first_user]["content"] else \
        "Edited. " + edited[0]["messages"][first_user]["content"]
    path = tmp_path / "edited.jsonl"
    path.write_bytes(b"".join(orjson.dumps(r) + b"\n" for r in edited))
    proc = bc("bc-filter", "--check-token-drift", "--tokenizer", recorded.url, str(path))
    assert proc.returncode == 0, proc.stderr.decode()
    checked = [orjson.loads(line) for line in proc.stdout.splitlines()]
    findings = checked[0]["token_drift"]
    assert findings and findings[0]["turn"] == 0 and findings[0]["check"] == "render"
    assert all(r["token_drift"] == [] for r in checked[1:])
    assert "token drift: " in proc.stderr.decode() and " in 1 of 2 rows" in proc.stderr.decode()


def test_the_real_server_as_judge_grades_a_judged_bootcamp_and_a_rerun_asks_nothing(tmp_path, recorded):
    tasks = gen(tmp_path, "fact_summary", 2)
    cache = tmp_path / "judge-cache"

    def judged(name: str) -> tuple[list[dict], dict]:
        recorded.clear()
        out = tmp_path / f"{name}.jsonl"
        proc = bc("bc-eval", str(tasks), "-o", str(out), "--model", "builtin:reference", "--judge-base-url",
                  recorded.url, "--judge-model", MODEL, "--judge-cache", str(cache), "--summary", f"{out}.s.json",
                  # Gemma 4's template opens a thinking channel first unless told not to (a 270M model loops there)
                  "--judge-param", 'chat_template_kwargs={"enable_thinking": false}',
                  "-c", "1", "--timeout", "300")
        assert proc.returncode == 0, proc.stderr.decode()[-3000:]
        return read_jsonl(out), orjson.loads((tmp_path / f"{name}.jsonl.s.json").read_bytes())["judge"]

    rows, report = judged("first")
    exchanges = recorded.chat_exchanges()
    assert len(exchanges) == 2 and all(e["request"]["response_format"]["type"] == "json_schema" for e in exchanges)
    assert all(e["request"]["chat_template_kwargs"] == {"enable_thinking": False} for e in exchanges)
    for row in rows:
        judge = row["reward"]["judge"]
        assert row["status"] == "completed" and judge["status"] == "ok" and judge["cached"] is False, row["reward"]
        assert set(judge["criteria"]) == {"coverage", "faithfulness"}
        assert all(0 <= v <= 1 for v in judge["criteria"].values())
        assert row["reward"]["components"]["facts"] == 1.0
    assert report["calls"] == 2 and report["failed"] == 0 and report["prompt_tokens"] > 0

    again, report = judged("second")
    assert recorded.chat_exchanges() == []  # every verdict from the cache: no judge call
    assert report["calls"] == 0 and report["cached"] == 2
    assert [r["score"] for r in again] == [r["score"] for r in rows]
