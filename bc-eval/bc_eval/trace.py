"""`bc-eval --trace` / `--debug TASK_ID`: every turn of a trajectory on stderr as it happens.

    trace = TracePrinter(sys.stderr)                  # colour only when the stream is a terminal
    row = await run_trajectory(..., trace=trace.for_trajectory("arith-3", 0))

Each line starts with the trajectory id, so concurrent trajectories stay readable; long texts are cut to
`width` characters per message (the records keep them whole).
"""
from __future__ import annotations

import sys
from typing import IO, Any

import orjson

_COLOURS = {"id": "2", "request": "36", "assistant": "1;32", "call": "33", "tool": "35", "error": "1;31",
            "user": "34", "verdict": "1"}


class TracePrinter:
    """Writes trace events as readable lines; `colour` defaults to whether the stream is a terminal."""

    def __init__(self, stream: IO[str] | None = None, *, colour: bool | None = None, width: int = 2000):
        self.stream = stream or sys.stderr
        self.colour = colour if colour is not None else bool(getattr(self.stream, "isatty", lambda: False)())
        self.width = width

    def for_trajectory(self, task_id: str, sample: int):
        """The trace callback of one trajectory (see bc_common.rollout.Trace)."""
        label = f"{task_id}#{sample}"
        return lambda event, fields: self.event(label, event, fields)

    def note(self, text: str) -> None:
        self._write([f"{self._paint('id', 'bc-eval')} {text}"])

    def event(self, label: str, event: str, f: dict[str, Any]) -> None:
        head = self._paint("id", f"[{label}]")
        lines: list[str] = []
        if event == "request":
            lines.append(f"{head} {self._paint('request', '-> model call ' + str(f['turn']))} "
                         f"({f['total']} messages, {len(f['messages'])} not shown yet)")
            for msg in f["messages"]:
                lines.append(f"{head}    {self._paint(_role_colour(msg), msg.get('role', '?'))}: "
                             f"{self._cut(_text(msg.get('content')))}")
        elif event == "reply":
            if f.get("error"):
                err = f["error"]
                lines.append(f"{head} {self._paint('error', '<- model error ' + err['type'])}: {err['message']} "
                             f"({f['latency_s']:.2f} s)")
            else:
                usage = f.get("usage") or {}
                tokens = f"{usage.get('prompt_tokens', '?')}+{usage.get('completion_tokens', '?')} tokens"
                retried = f", {f['attempts']} attempts" if f.get("attempts", 1) > 1 else ""
                lines.append(f"{head} {self._paint('assistant', '<- assistant')} ({f['latency_s']:.2f} s, {tokens}, "
                             f"finish {f.get('finish_reason')}{retried}): {self._cut(f['message'].get('content') or '')}")
                for call in f["message"].get("tool_calls") or []:
                    fn = call["function"]
                    lines.append(f"{head}    {self._paint('call', 'tool call')} {fn['name']}({self._cut(fn['arguments'])}) "
                                 f"id={call['id']}")
        elif event == "tool":
            err = f.get("error")
            kind = self._paint("error", f"tool error {err['type']}") if err else self._paint("tool", "tool result")
            lines.append(f"{head} {kind} {f['name']} ({f['latency_s'] * 1000:.1f} ms, reward {f['reward']:g}): "
                         f"{self._cut(f['text'])}")
        elif event == "interaction":
            end = ", terminates" if f["terminate"] else ""
            lines.append(f"{head} {self._paint('user', 'interaction')} {f['name']} (score {f['score']:g}{end}): "
                         f"{self._cut(f['text'] or '')}")
        elif event == "verdict":
            extracted = orjson.dumps(f["extracted"], default=str).decode()
            err = f" error {f['error']['type']}: {f['error']['message']}" if f.get("error") else ""
            lines.append(f"{head} {self._paint('verdict', '== verdict')} status {f['status']}, extracted "
                         f"{self._cut(extracted)}, score {f['score']:g}{err}")
        self._write(lines)

    def _write(self, lines: list[str]) -> None:
        if lines:
            self.stream.write("\n".join(lines) + "\n")
            self.stream.flush()

    def _paint(self, kind: str, text: str) -> str:
        return f"\x1b[{_COLOURS[kind]}m{text}\x1b[0m" if self.colour else text

    def _cut(self, text: str) -> str:
        text = text.replace("\n", "\\n")
        return text if len(text) <= self.width else text[: self.width] + f"... ({len(text)} chars)"


def _role_colour(msg: dict[str, Any]) -> str:
    return {"assistant": "assistant", "tool": "tool"}.get(msg.get("role", ""), "user")


def _text(content: Any) -> str:
    if isinstance(content, list):  # content parts: text shown, images named
        return "".join(p.get("text", "") if p.get("type") == "text" else f"[{p.get('type')}]"
                       for p in content if isinstance(p, dict))
    return content if isinstance(content, str) else ""
