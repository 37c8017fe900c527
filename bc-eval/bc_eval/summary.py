"""Run summary per data_source and per generator: scores, pass@1 / pass@k, statuses, turns, tools, tokens, latency.

pass@k is the unbiased estimator of Chen et al. (2021), averaged over tasks: 1 - C(n-c, k) / C(n, k) with n
samples of which c succeeded (`success`: completed with score 1.0).

Memory does not grow with the run: a task's counts are folded into the pass@ sums once its `--samples` rows are
in (bc-eval runs a task's samples together), and model-turn latencies are kept exactly up to `EXACT_LATENCIES`
per group, then in log-spaced buckets 0.5% wide (p50 / p95 then within 0.5%).
"""
from __future__ import annotations

import csv
import io
import math
from array import array
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from bc_common.images import count_images
from bc_common.records import STATUSES

from .seed_report import SeedReport
from .tokens import FIELDS as TOKEN_FIELDS


def pass_at_k(n: int, c: int, k: int) -> float:
    """Probability that at least one of k samples drawn from n (c correct) is correct."""
    if n <= 0:
        return 0.0
    k = min(k, n)
    if n - c < k:
        return 1.0
    prob = 1.0
    for i in range(n - c + 1, n + 1):
        prob *= 1.0 - k / i
    return 1.0 - prob


def _percentile(values: Sequence[float], q: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    pos = q * (len(ordered) - 1)
    lo = int(pos)
    hi = min(lo + 1, len(ordered) - 1)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (pos - lo)


EXACT_LATENCIES = 50_000  # latencies a group keeps as they are; beyond, log-spaced buckets
_BUCKET = math.log1p(0.005)  # bucket width in log space: 0.5% of the value


class _Latencies:
    """Model-turn latencies: exact percentiles up to EXACT_LATENCIES values, then buckets (bounded memory)."""

    def __init__(self) -> None:
        self.values: array[float] | None = array("d")  # 8 bytes a value (a list of floats: 32)
        self.buckets: Counter = Counter()
        self.count = 0

    def extend(self, values: list[float]) -> None:
        self.count += len(values)
        if self.values is not None:
            self.values.extend(values)
            if len(self.values) <= EXACT_LATENCIES:
                return
            values, self.values = self.values, None
        for v in values:
            self.buckets[math.floor(math.log(v) / _BUCKET) if v > 0 else None] += 1

    def percentile(self, q: float) -> float | None:
        if self.values is not None:
            return _percentile(self.values, q)
        rank = q * (self.count - 1)
        seen = 0
        for key in sorted(self.buckets, key=lambda b: -math.inf if b is None else b):
            seen += self.buckets[key]
            if seen > rank:
                return 0.0 if key is None else math.exp((key + 0.5) * _BUCKET)
        return None


@dataclass
class _Group:
    k: int = 1  # samples per task: a task's counts are folded into the sums once it has k rows
    count: int = 0
    score_sum: float = 0.0
    statuses: Counter = field(default_factory=Counter)
    assistant_turns: int = 0
    tool_calls: int = 0
    tool_errors: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    latencies: _Latencies = field(default_factory=_Latencies)
    tasks: dict[str, list[int]] = field(default_factory=lambda: defaultdict(lambda: [0, 0]))  # open: [n, c]
    folded: int = 0  # tasks whose k rows are in, folded into the sums below
    pass1_sum: float = 0.0
    passk_sum: float = 0.0
    cost_usd: float = 0.0
    costed: int = 0  # rows that carry a cost (a price was known for their model)

    def add(self, facts: tuple) -> None:
        """Add one trajectory's `_facts` (computed once per row, added to several groups)."""
        score, status, assistant, tools, errors, latencies, prompt, completion, task_id, success, cost = facts
        if cost is not None:
            self.cost_usd += cost
            self.costed += 1
        self.count += 1
        self.score_sum += score
        self.statuses[status] += 1
        self.assistant_turns += assistant
        self.tool_calls += tools
        self.tool_errors += errors
        self.latencies.extend(latencies)
        self.prompt_tokens += prompt
        self.completion_tokens += completion
        task = self.tasks[task_id]
        task[0] += 1
        task[1] += success
        if task[0] >= self.k:  # the task's samples are all in: fold it
            self.folded += 1
            self.pass1_sum += pass_at_k(task[0], task[1], 1)
            self.passk_sum += pass_at_k(task[0], task[1], self.k)
            del self.tasks[task_id]

    def report(self) -> dict[str, Any]:
        k = self.k
        n = max(self.count, 1)
        open_tasks = list(self.tasks.values())
        tasks = max(self.folded + len(open_tasks), 1)
        p50, p95 = self.latencies.percentile(0.5), self.latencies.percentile(0.95)
        out = {
            "count": self.count,
            "tasks": self.folded + len(open_tasks),
            "mean_score": self.score_sum / n,
            "pass@1": (self.pass1_sum + sum(pass_at_k(t[0], t[1], 1) for t in open_tasks)) / tasks,
            "status": {s: self.statuses.get(s, 0) for s in STATUSES},
            "mean_assistant_turns": self.assistant_turns / n,
            "mean_tool_calls": self.tool_calls / n,
            "tool_error_rate": self.tool_errors / self.tool_calls if self.tool_calls else 0.0,
            "prompt_tokens": self.prompt_tokens,
            "completion_tokens": self.completion_tokens,
            "latency_p50_s": p50,
            "latency_p95_s": p95,
        }
        if k > 1:
            out[f"pass@{k}"] = (self.passk_sum + sum(pass_at_k(t[0], t[1], k) for t in open_tasks)) / tasks
        if self.costed:  # USD of the rows that carry a cost; a row without one (no price known) adds nothing
            out["cost_usd"] = round(self.cost_usd, 9)
            out["costed_rows"] = self.costed
        return out


def _facts(row: dict[str, Any], token_turns: Counter | None = None) -> tuple:
    """The row's counts for `_Group.add`; with `token_turns`, its answered model turns and those carrying each
    token array are added there (tokens.turn_counts, in the same pass over the turns)."""
    tools = errors = 0
    latencies = []
    for turn in row.get("turns") or []:
        kind = turn.get("type")
        if kind == "tool":
            tools += 1
            errors += turn.get("error") is not None
        elif kind == "model" and turn.get("error") is None:
            latencies.append(float(turn.get("latency_s", 0.0)))
            if token_turns is not None:
                token_turns["model_turns"] += 1
                tokens = turn.get("tokens")
                if tokens:
                    for name in TOKEN_FIELDS:
                        token_turns[name] += isinstance(tokens.get(name), list)
    usage = row.get("usage") or {}
    cost = (row.get("cost") or {}).get("usd")
    return (float(row.get("score") or 0.0), row.get("status"), int((row.get("num_turns") or {}).get("assistant", 0)),
            tools, errors, latencies, int(usage.get("prompt_tokens", 0)), int(usage.get("completion_tokens", 0)),
            row.get("task_id", ""), bool(row.get("success")), float(cost) if cost is not None else None)


class Summary:
    """Accumulates trajectory rows; `report()` is the JSON summary, `table()` the stderr view."""

    def __init__(self, k: int = 1, store_images: bool = True, record_tokens: bool = False, seed_compat: bool = False):
        self.k = k
        self.seed = SeedReport() if seed_compat else None  # the seed's CSV layout, for runs in its mode
        self.store_images = store_images
        self.record_tokens = record_tokens
        self.images = 0  # images in the trajectories' messages
        self.token_turns: Counter = Counter()  # answered model turns, and those carrying each token array
        self.total = _Group(k)
        self.by_source: dict[str, _Group] = defaultdict(lambda: _Group(k))
        self.by_generator: dict[str, _Group] = defaultdict(lambda: _Group(k))
        self.ran = self.ran_errors = 0  # trajectories run by this invocation (kept rows of a resume excluded)
        self.first_error: dict[str, Any] | None = None
        self.models: Counter = Counter()  # trajectories by the model that produced them
        self.prices: Counter = Counter()  # rows by the price their cost was computed at
        self.judge: Any = None  # this run's LlmJudge (its call counts), when it has one
        self.judged: Counter = Counter()  # rows of rubric bootcamps by their judge status (ok, error, skipped)

    def add_ran(self, row: dict[str, Any]) -> None:
        """Count a trajectory this invocation ran (and `add` it)."""
        self.ran += 1
        if row.get("status") == "error":
            self.ran_errors += 1
            self.first_error = self.first_error or row.get("error")
        self.add(row)

    @property
    def all_failed(self) -> bool:
        """True when this invocation ran trajectories and every one ended with status "error"."""
        return self.ran > 0 and self.ran_errors == self.ran

    def add(self, row: dict[str, Any]) -> None:
        task = row.get("input") or {}
        extra = task.get("extra_info") or {}
        source = str(task.get("data_source", "?"))
        self.models[str(row.get("model", "?"))] += 1
        judged = (row.get("reward") or {}).get("judge")
        if isinstance(judged, dict):
            self.judged[str(judged.get("status"))] += 1
        cost = row.get("cost")
        if isinstance(cost, dict):
            self.prices[(cost.get("input_per_mtok"), cost.get("output_per_mtok"), cost.get("price_source"))] += 1
        facts = _facts(row, self.token_turns)
        self.images += count_images(row.get("messages"))
        self.total.add(facts)
        self.by_source[source].add(facts)
        self.by_generator[f"{source}:{extra.get('generator_name', '-')}"].add(facts)
        if self.seed is not None:
            self.seed.add(row)

    def report(self) -> dict[str, Any]:
        images = {"images": {"count": self.images, "stored": "inline" if self.store_images else "sha256"}} \
            if self.images else {}
        tokens = {"tokens": self.tokens()} if self.shows_tokens else {}
        prices = {"prices": [{"input_per_mtok": i, "output_per_mtok": o, "source": s, "rows": n}
                             for (i, o, s), n in sorted(self.prices.items(), key=str)]} if self.prices else {}
        judge = {"judge": self.judge_report()} if self.judge is not None or self.judged else {}
        return {"k": self.k, "models": dict(sorted(self.models.items())), **images, **tokens, **prices, **judge,
                "total": self.total.report(),
                "by_data_source": {s: g.report() for s, g in sorted(self.by_source.items())},
                "by_generator": {s: g.report() for s, g in sorted(self.by_generator.items())}}

    @property
    def shows_tokens(self) -> bool:
        """The token counts are reported when asked for (--record-tokens) or when some turn has tokens."""
        return self.record_tokens or any(self.token_turns[name] for name in TOKEN_FIELDS)

    def tokens(self) -> dict[str, int]:
        """Answered model turns, and how many of them carry prompt ids, completion ids and logprobs."""
        return {"model_turns": self.token_turns["model_turns"],
                **{f"with_{name}": self.token_turns[name] for name in TOKEN_FIELDS}}

    def rows(self) -> list[dict[str, Any]]:
        """Flat rows (one per group) for the table and the CSV."""
        out = []
        groups = [("total", "all", self.total)]
        groups += [("data_source", s, g) for s, g in sorted(self.by_source.items())]
        groups += [("generator", s, g) for s, g in sorted(self.by_generator.items())]
        for level, name, group in groups:
            r = group.report()
            flat = {"level": level, "group": name}
            for key, value in r.items():
                if key == "status":
                    flat.update({f"status_{s}": v for s, v in value.items()})
                else:
                    flat[key] = value
            out.append(flat)
        return out

    def table(self) -> str:
        cols = ["group", "count", "mean_score", "pass@1"] + ([f"pass@{self.k}"] if self.k > 1 else []) + [
            "status_completed", "status_max_turns", "status_length", "status_error", "mean_assistant_turns",
            "mean_tool_calls", "tool_error_rate", "completion_tokens", "latency_p50_s", "latency_p95_s"]
        heads = ["group", "n", "score", "pass@1"] + ([f"pass@{self.k}"] if self.k > 1 else []) + [
            "done", "max_t", "len", "err", "turns", "tools", "tool_err", "out_tok", "p50_s", "p95_s"]
        if self.total.costed:
            cols.append("cost_usd")
            heads.append("cost_$")
        lines = [list(heads)]
        for row in self.rows():
            if row["level"] == "generator" and len(self.by_generator) <= 1:
                continue
            lines.append([_cell(row.get(c), 4 if c == "cost_usd" else 3) for c in cols])
        widths = [max(len(line[i]) for line in lines) for i in range(len(heads))]
        models = ", ".join(f"{m} ({n})" if len(self.models) > 1 else m for m, n in sorted(self.models.items()))
        images = "" if not self.images else (f"images: {self.images} sent, stored "
                                             + ("inline\n" if self.store_images else "as sha256 hashes only "
                                                "(--no-store-images)\n"))
        tokens = ""
        if self.shows_tokens:
            t = self.tokens()
            tokens = (f"tokens: of {t['model_turns']} model turns, {t['with_completion_ids']} carry completion ids, "
                      f"{t['with_completion_logprobs']} logprobs, {t['with_prompt_ids']} prompt ids\n")
        return f"model: {models or '-'}\n" + images + tokens + self._cost_line() + self._judge_line() + "\n".join("  ".join(v.ljust(w) if i == 0 else v.rjust(w)
                                   for i, (v, w) in enumerate(zip(line, widths, strict=True)))
                         for line in lines)

    def judge_report(self) -> dict[str, Any]:
        """The judge's calls of this invocation (cache hits, failures, tokens) and the rows' judge statuses."""
        out: dict[str, Any] = {"rows": {s: self.judged.get(s, 0) for s in ("ok", "no_answer", "error", "skipped")}}
        if self.judge is not None:
            out = {"model": self.judge.model, **vars(self.judge.stats), **out}
        return out

    def _judge_line(self) -> str:
        if self.judge is None and not self.judged:
            return ""
        r = self.judge_report()
        rows = ", ".join(f"{s} {n}" for s, n in r["rows"].items())
        if self.judge is None:
            return f"judge: none (rows: {rows})\n"
        return (f"judge: {r['model']}: {r['calls']} calls, {r['cached']} cached, {r['failed']} failed, "
                f"{r['prompt_tokens']}+{r['completion_tokens']} tokens (rows: {rows})\n")

    def _cost_line(self) -> str:
        """`cost: $0.0123 for 180 of 200 trajectories at $2.5 in, $10 out per million tokens (--price)`."""
        if not self.total.costed:
            return ""
        shown = "; ".join(f"${i:g} in, ${o:g} out per million tokens ({s})" for (i, o, s) in sorted(self.prices,
                                                                                                       key=str))
        return (f"cost: ${self.total.cost_usd:.4f} for {self.total.costed} of {self.total.count} trajectories at "
                f"{shown}\n")

    def csv(self) -> str:
        rows = self.rows()
        buf = io.StringIO()
        names = list(dict.fromkeys(key for row in rows for key in row))  # cost columns only where rows carry cost
        writer = csv.DictWriter(buf, fieldnames=names)
        writer.writeheader()
        writer.writerows(rows)
        return buf.getvalue()


def _cell(value: Any, digits: int = 3) -> str:
    if value is None:
        return "-"
    if isinstance(value, float):
        return f"{value:.{digits}f}"
    return str(value)
