"""The report in headless Chromium: no console errors, a page that is drawn, every plot present, nothing fetched,
filters that change the visible trajectories, a trajectory's turns, image and answer, and hostile text inert."""
from __future__ import annotations

import asyncio
import base64
import copy
import json

import pytest

from .browser import Browser, have_chromium, png_ink
from .conftest import bc_report, png, read_jsonl, write_jsonl
from .test_cli import HOSTILE, hostile_run

pytestmark = pytest.mark.skipif(not have_chromium(), reason="needs Debian chromium (apt-get install -y chromium)")

READY = "document.body.dataset.charts === 'rendered'"
CHART_IDS = ["plot-score-dist", "plot-score-group", "plot-turns", "plot-tool_calls", "plot-latency", "plot-tokens",
             "plot-tool-errors", "plot-time", "plot-compare"]


def with_tool_errors_and_an_image(rows: list[dict]) -> list[dict]:
    """Real trajectories plus copies (new task ids) whose tool calls failed, and one of a visual task."""
    out = list(rows)
    arithmetic = [r for r in rows if r["input"]["data_source"] == "bootcamp/arithmetic"][:6]
    for i, row in enumerate(arithmetic):
        row = copy.deepcopy(row)
        row["task_id"] = row["input"]["id"] = f"broken-tool-{i}"
        row["id"] = f"broken-tool-{i}#0"
        for turn in row["turns"]:
            if turn["type"] == "tool":
                turn["error"] = {"type": "invalid_arguments" if i % 2 else "timeout", "message": "simulated"}
        out.append(row)
    visual = copy.deepcopy(arithmetic[0])
    visual["task_id"] = visual["input"]["id"] = "visual-0"
    visual["id"] = "visual-0#0"
    url = "data:image/png;base64," + base64.b64encode(png()).decode()
    visual["messages"][0]["content"] = [{"type": "text", "text": "Which colour is on the left?"},
                                        {"type": "image_url", "image_url": {"url": url}}]
    out.append(visual)
    return out


def visible(b: Browser):
    return b.eval("Array.from(document.querySelectorAll('#traj-list tbody tr')).map(r => "
                  "Array.from(r.cells).map(c => c.textContent))")


async def set_control(b: Browser, control: str, value: str) -> None:
    await b.eval(f"(() => {{ const c = document.getElementById({json.dumps(control)}); c.value = {json.dumps(value)};"
                 " c.dispatchEvent(new Event('change')); return true; })()")


def test_report_in_headless_chromium(runs, tmp_path):
    rows = with_tool_errors_and_an_image(read_jsonl(runs["noisy1"]))
    source = write_jsonl(tmp_path / "noisy.jsonl", rows)
    page = tmp_path / "report.html"
    proc = bc_report(source, "--compare", runs["reference"], "-o", page, "--max-passes", "1000")
    assert proc.returncode == 0, proc.stderr.decode()
    shot = tmp_path / "report.png"

    async def drive():
        async with Browser(tmp_path / "profile") as b:
            await b.open(page.as_uri(), READY)
            marks = await b.eval("Object.fromEntries(Array.from(document.querySelectorAll('section.chart')).map("
                                 "s => [s.id, s.querySelectorAll('svg .role-mark path, svg .role-mark line, "
                                 "svg .role-mark rect').length]))")
            image = await b.screenshot(shot)
            start = await visible(b)
            await set_control(b, "f-outcome", "passed")
            passed = await visible(b)
            await set_control(b, "f-outcome", "")
            await set_control(b, "f-bootcamp", "tictactoe")
            tictactoe = await visible(b)
            await set_control(b, "f-score-max", "0")
            zero = await visible(b)
            await set_control(b, "f-bootcamp", "")
            await set_control(b, "f-score-max", "")
            await set_control(b, "f-tool-error", "with")
            broken = await visible(b)
            await set_control(b, "f-tool-error", "type:timeout")
            timeouts = await visible(b)
            await set_control(b, "f-tool-error", "")
            await set_control(b, "f-text", "visual-0")
            await b.eval("document.querySelector('#traj-list tbody tr').click(), true")
            detail = await b.eval("(() => { const d = document.getElementById('traj-detail'); const img = "
                                  "d.querySelector('img'); return {text: d.innerText, image: img ? "
                                  "img.naturalWidth : 0, steps: d.querySelectorAll('.step').length}; })()")
            count = await b.eval("document.getElementById('traj-count').textContent")
            return b.errors, b.requests, marks, image, start, passed, tictactoe, zero, broken, timeouts, detail, count

    errors, requests, marks, image, start, passed, tictactoe, zero, broken, timeouts, detail, count = \
        asyncio.run(asyncio.wait_for(drive(), 240))
    assert errors == []
    assert all(u.startswith(("file:", "data:")) for u in requests), requests  # nothing fetched from a network
    assert set(marks) == set(CHART_IDS)
    assert all(n > 0 for n in marks.values()), marks  # every plot drew marks
    assert len(image) > 50_000 and png_ink(image) > 0.01
    assert len(start) == 100  # first page of the list
    assert passed and all("✓" in r[4] for r in passed) and passed != start
    assert tictactoe and all(r[2] == "tictactoe" for r in tictactoe)
    assert zero and all(float(r[5]) == 0 for r in zero) and len(zero) < len(tictactoe)
    assert {r[0] for r in broken} == {f"broken-tool-{i}#0" for i in range(6)}
    assert {r[0] for r in timeouts} == {f"broken-tool-{i}#0" for i in range(0, 6, 2)}
    assert count.startswith("1 of ")
    assert detail["image"] == 24  # the task's image decoded and shown
    assert "VERIFIER'S EXTRACTED ANSWER" in detail["text"].upper() and "GROUND TRUTH" in detail["text"].upper()
    assert "calculate" in detail["text"] and "expected_result" in detail["text"]
    assert detail["steps"] >= 4  # prompt, model call, tool call, model call...


def test_hostile_trajectories_stay_text_in_the_browser(runs, tmp_path):
    page = tmp_path / "hostile.html"
    proc = bc_report(hostile_run(runs["noisy1"], tmp_path / "hostile.jsonl"), "-o", page, "--title", HOSTILE)
    assert proc.returncode == 0, proc.stderr.decode()

    async def drive():
        async with Browser(tmp_path / "profile") as b:
            await b.open(page.as_uri(), READY)
            await b.eval("document.querySelector('#traj-list tbody tr').click(), true")
            await asyncio.sleep(0.5)
            state = await b.eval("({pwned: window.__pwned === undefined ? null : window.__pwned, title: document.title,"
                                 " images: document.querySelectorAll('img').length,"
                                 " text: document.getElementById('traj-detail').innerText})")
            return b.errors, b.dialogs, b.requests, state

    errors, dialogs, requests, state = asyncio.run(asyncio.wait_for(drive(), 240))
    assert state["pwned"] is None and dialogs == []
    assert state["title"].startswith("</script><script>window.__pwned=1</script>")  # the title is the text
    assert state["images"] == 0  # the injected <img> was never created
    assert "<script>window.__pwned=1</script>" in state["text"]  # shown as text
    assert errors == [] and all(u.startswith(("file:", "data:")) for u in requests)
