"""Rubric rewards with an LLM judge: fact_summary graded through a scripted judge server on loopback, the verdicts
cached on disk (a re-run makes no judge call), judge failures typed, never a 0."""
from __future__ import annotations

import socket
import subprocess

import orjson
import pytest

from bc_common.rubric import Component, JudgeError, JudgePrompt, Rubric, grade_rubric
from bc_eval.testing import ScriptedServer

from .conftest import BIN, bc_eval_env, read_jsonl

VERDICT = '{"coverage": 0.8, "faithfulness": 1.0}'


def test_parse_takes_the_last_verdict_and_refuses_the_rest():
    prompt = JudgePrompt("{answer}", ("coverage", "faithfulness"))
    assert prompt.parse('first {"coverage": 0.1} then ' + VERDICT) == {"coverage": 0.8, "faithfulness": 1.0}
    for text in ("looks good", '{"coverage": 1.5, "faithfulness": 1}', '{"coverage": 1}', '{"coverage": true, '
                 '"faithfulness": 1}', ""):
        with pytest.raises(JudgeError) as info:
            prompt.parse(text)
        assert info.value.type == "judge_unparsable"
    # braces in the answer are data, never template fields
    assert JudgePrompt("<{answer}>").render("task", "{sheet} {0}", None) == "<{sheet} {0}>"


@pytest.mark.asyncio
async def test_components_are_weighted_and_a_skipped_judge_leaves_the_rest():
    rubric = Rubric((Component("facts", 3), Component("short", 1, score=lambda text, _: len(text) < 5),
                     Component("judge", 4, judge=JudgePrompt("{answer}"))))
    messages = [{"role": "user", "content": "q"}, {"role": "assistant", "content": "abc"}]
    graded = await grade_rubric(rubric, 0.5, messages, {}, None)
    assert graded.components == {"facts": 0.5, "short": 1.0, "judge": None}
    assert graded.score == pytest.approx((3 * 0.5 + 1) / 4) and graded.judge["status"] == "skipped"


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture
def tasks(tmp_path):
    path = tmp_path / "tasks.jsonl"
    proc = subprocess.run([str(BIN / "bc-gen"), "fact_summary", "-n", "4", "--seed", "3", "-o", str(path)],
                          capture_output=True)
    assert proc.returncode == 0, proc.stderr
    return path


def judged(tasks, out, url, cache, *extra, key="judge-key-123456789"):
    return subprocess.run([str(BIN / "bc-eval"), str(tasks), "-o", str(out), "--model", "builtin:reference",
                           "--judge-base-url", url, "--judge-model", "judge-m", "--judge-cache", str(cache),
                           "--summary", f"{out}.summary.json", *extra],
                          capture_output=True, text=True, env=bc_eval_env(BC_JUDGE_API_KEY=key))


def test_judged_bootcamp_end_to_end_and_a_rerun_makes_no_judge_call(tmp_path, tasks, scripted):
    server, url = scripted(default=[{"content": f"Both good.\n{VERDICT}",
                                     "usage": {"prompt_tokens": 500, "completion_tokens": 20, "total_tokens": 520}}])
    cache = tmp_path / "cache"
    first = judged(tasks, tmp_path / "a.jsonl", url, cache)
    assert first.returncode == 0, first.stderr
    rows = read_jsonl(tmp_path / "a.jsonl")
    assert len(server.requests) == 4
    body = server.requests[0]["body"]
    assert body["model"] == "judge-m" and body["temperature"] == 0 and "tools" not in body
    assert server.requests[0]["headers"]["authorization"] == "Bearer judge-key-123456789"
    summary_text = rows[0]["messages"][-1]["content"].removeprefix("<summary>").removesuffix("</summary>")
    assert f"----------\n{summary_text}\n----------" in body["messages"][0]["content"]
    for row in rows:  # the reference states every fact: facts 1.0; the judge 0.9
        assert row["status"] == "completed" and row["reward"]["components"] == {"facts": 1.0, "judge": 0.9}
        assert row["score"] == pytest.approx(0.95) and row["success"] is False
        assert row["reward"]["judge"] == {"status": "ok", "model": "judge-m", "cached": False,
                                          "criteria": {"coverage": 0.8, "faithfulness": 1.0},
                                          "usage": {"prompt_tokens": 500, "completion_tokens": 20}}
    report = orjson.loads((tmp_path / "a.jsonl.summary.json").read_bytes())["judge"]
    assert report == {"model": "judge-m", "calls": 4, "cached": 0, "failed": 0, "prompt_tokens": 2000,
                      "completion_tokens": 80, "rows": {"ok": 4, "no_answer": 0, "error": 0, "skipped": 0}}
    assert "judge: judge-m: 4 calls, 0 cached" in first.stderr
    assert b"judge-key-123456789" not in (tmp_path / "a.jsonl").read_bytes()
    assert b"judge-key" not in (tmp_path / "a.jsonl.meta.json").read_bytes()

    again = judged(tasks, tmp_path / "b.jsonl", url, cache)
    assert again.returncode == 0, again.stderr
    assert len(server.requests) == 4  # every verdict came from the cache
    second = read_jsonl(tmp_path / "b.jsonl")
    assert [r["score"] for r in second] == [r["score"] for r in rows]
    assert all(r["reward"]["judge"]["cached"] for r in second)
    report = orjson.loads((tmp_path / "b.jsonl.summary.json").read_bytes())["judge"]
    assert report["calls"] == 0 and report["cached"] == 4


def test_judge_failures_are_typed_errors_and_never_cached(tmp_path, tasks, scripted):
    server, url = scripted(default=[{"content": "A fine summary, I would say."}])
    cache = tmp_path / "cache"
    proc = judged(tasks, tmp_path / "a.jsonl", url, cache)
    assert proc.returncode == 1  # every trajectory of the run ended in status error
    for row in read_jsonl(tmp_path / "a.jsonl"):
        assert row["status"] == "error" and row["error"]["type"] == "judge_unparsable"
        assert row["error"]["rollout_status"] == "completed" and row["reward"]["components"]["judge"] is None
        assert "A fine summary" in row["error"]["message"]
    judged(tasks, tmp_path / "b.jsonl", url, cache)
    assert len(server.requests) == 8  # nothing unparsable was cached: asked again
    down = f"http://127.0.0.1:{_free_port()}/v1"
    proc = judged(tasks, tmp_path / "c.jsonl", down, cache, "--retries", "0")
    rows = read_jsonl(tmp_path / "c.jsonl")
    assert {r["error"]["type"] for r in rows} == {"judge_unreachable"}
    assert orjson.loads((tmp_path / "c.jsonl.summary.json").read_bytes())["judge"]["failed"] == 4


def test_a_judged_bootcamp_needs_a_judge_or_no_judge(tmp_path, tasks):
    out = tmp_path / "out.jsonl"
    proc = subprocess.run([str(BIN / "bc-eval"), str(tasks), "-o", str(out), "--model", "builtin:reference"],
                          capture_output=True, text=True, env=bc_eval_env())
    assert proc.returncode == 2 and "tasks.jsonl:1" in proc.stderr and "--judge-base-url" in proc.stderr
    proc = subprocess.run([str(BIN / "bc-eval"), str(tasks), "-o", str(out), "--model", "builtin:reference",
                           "--no-judge"], capture_output=True, text=True, env=bc_eval_env())
    assert proc.returncode == 0, proc.stderr
    row = read_jsonl(out)[0]
    assert row["reward"]["judge"] == {"status": "skipped", "reason": "no judge configured"}
    assert row["score"] == 1.0 and row["reward"]["components"] == {"facts": 1.0, "judge": None}
    proc = subprocess.run([str(BIN / "bc-eval"), str(tasks), "--model", "builtin:reference", "--judge-model", "j"],
                          capture_output=True, text=True, env=bc_eval_env())
    assert proc.returncode == 2 and "--judge-base-url URL and --judge-model NAME go together" in proc.stderr


def test_rescore_keeps_the_recorded_judge_and_grades_the_facts_again(tmp_path, tasks, scripted):
    _, url = scripted(default=[{"content": VERDICT}])
    run = tmp_path / "run.jsonl"
    assert judged(tasks, run, url, tmp_path / "cache").returncode == 0
    rows = read_jsonl(run)
    edited = rows[0]["messages"][-1]["content"].replace("<summary>", "<summary>Nothing to see. ")
    rows[0]["messages"][-1]["content"] = edited.replace("</summary>", " " + "word " * 60 + "</summary>")
    (tmp_path / "edited.jsonl").write_bytes(b"".join(orjson.dumps(r) + b"\n" for r in rows))
    out = tmp_path / "rescored.jsonl"
    proc = subprocess.run([str(BIN / "bc-eval"), "--rescore", str(tmp_path / "edited.jsonl"), "-o", str(out)],
                          capture_output=True, text=True, env=bc_eval_env())
    assert proc.returncode == 0, proc.stderr
    new = read_jsonl(out)
    # over the word limit now: facts 0, the judge's 0.9 kept, score 0.45; the untouched rows unchanged
    assert new[0]["reward"]["components"] == {"facts": 0.0, "judge": 0.9} and new[0]["score"] == pytest.approx(0.45)
    assert [r["score"] for r in new[1:]] == [r["score"] for r in rows[1:]]
    assert "1 changed (0 up, 1 down)" in proc.stderr


def test_the_judge_is_asked_for_a_json_schema_verdict_and_does_without_where_refused(tmp_path, tasks, scripted):
    server, url = scripted(default=[{"content": VERDICT}])
    assert judged(tasks, tmp_path / "a.jsonl", url, tmp_path / "c1").returncode == 0
    schema = server.requests[0]["body"]["response_format"]["json_schema"]["schema"]
    assert server.requests[0]["body"]["response_format"]["type"] == "json_schema"
    assert schema["required"] == ["coverage", "faithfulness"] and schema["additionalProperties"] is False
    assert schema["properties"]["coverage"] == {"type": "number", "enum": [0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7,
                                                                          0.8, 0.9, 1]}
    # a server that refuses response_format (400) is asked again without it, and not asked with it again
    class Refusing(ScriptedServer):  # a server without structured outputs: 400 to any response_format
        async def answer(self, raw, headers):
            if b'"response_format"' in raw:
                self.requests.append({"body": orjson.loads(raw)})
                return 400, {}, b'{"error": {"message": "response_format is not supported"}}'
            return await super().answer(raw, headers)

    server = Refusing(default=[{"content": VERDICT}])
    with server.running() as url:
        proc = judged(tasks, tmp_path / "b.jsonl", url, tmp_path / "c2", "-c", "1")
    assert proc.returncode == 0, proc.stderr
    assert all(r["reward"]["judge"]["status"] == "ok" for r in read_jsonl(tmp_path / "b.jsonl"))
    sent = ["response_format" in r["body"] for r in server.requests]
    assert sent[0] is True and not any(sent[1:]) and len(sent) == 5
