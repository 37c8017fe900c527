"""The report's plots as Vega-Lite specs (plain dicts of the Vega-Lite JSON schema, checked against it in the tests),
from data aggregated here (bins, means, intervals), so a spec stays a few kilobytes whatever the number of
trajectories. Each chart is rendered in the page by vega-embed; record text (bootcamp, group, tool names) only ever
enters a spec as data values."""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from .analysis import Columns, Level, ToolRow
from .compare import Comparison

VEGA_LITE = "6.4.1"  # the Vega-Lite the specs are written for; page.vega_bundle embeds its minor (v6_4)
SCHEMA_URL = f"https://vega.github.io/schema/vega-lite/v{VEGA_LITE}.json"
WIDE, NARROW, HEIGHT = 760, 230, 200
SCORE_BINS = ["0", "0–0.1", "0.1–0.2", "0.2–0.3", "0.3–0.4", "0.4–0.5", "0.5–0.6", "0.6–0.7", "0.7–0.8",
              "0.8–0.9", "0.9–1", "1"]
_TYPES = {"N": "nominal", "O": "ordinal", "Q": "quantitative"}
_TOP_LEGEND = {"orient": "top"}
_PERCENT = {"format": "%"}


@dataclass
class Chart:
    """One plot of the page: an anchor id, a heading, a caption and its Vega-Lite spec."""

    id: str
    title: str
    caption: str
    spec: dict[str, Any]


def _spec(chart: dict[str, Any]) -> dict[str, Any]:
    """A top-level spec: the schema, the page's view and axis settings (no frame, long labels) and `chart`."""
    return {"$schema": SCHEMA_URL, "config": {"axis": {"labelLimit": 180}, "view": {
        "continuousHeight": 300, "continuousWidth": 300, "stroke": None}}, **chart}


def _ch(shorthand: str, **props: Any) -> dict[str, Any]:
    """An encoding channel from Vega-Lite's shorthand "field:T" (T: N, O or Q; none for x2/y2) and its properties."""
    field, _, kind = shorthand.partition(":")
    return {"field": field, "type": _TYPES[kind], **props} if kind else {"field": field, **props}


def _tips(*fields: str | dict[str, Any]) -> list[dict[str, Any]]:
    """Tooltip channels from shorthand text ("run:N") or channel dicts."""
    return [_ch(f) if isinstance(f, str) else f for f in fields]


def _chart(rows: list[dict[str, Any]], mark: dict[str, Any], encoding: dict[str, Any], **props: Any) -> dict[str, Any]:
    return {"data": {"values": rows}, "mark": mark, "encoding": encoding, **props}


def _facet_by_bootcamp(rows: list[dict[str, Any]], spec: dict[str, Any]) -> dict[str, Any]:
    """`spec` (without data) once per bootcamp, three to a row, over the shared `rows`."""
    return {"data": {"values": rows}, "facet": {"field": "bootcamp", "title": None, "type": "nominal"},
            "columns": 3, "spec": spec}


def _series(cols: Columns, bootcamp: str, many_runs: bool) -> str:
    return f"{cols.run.label} · {bootcamp}" if many_runs else bootcamp


def _score_bin(scores: np.ndarray) -> np.ndarray:
    """Bin of each score: 0 exactly, ten open deciles, 1 exactly (a pass is its own bar)."""
    inner = np.clip(np.ceil(scores * 10).astype(np.int64), 1, 10)
    return np.where(scores <= 0, 0, np.where(scores >= 1, 11, inner))


def score_distribution(runs: Sequence[Columns]) -> Chart:
    rows = []
    for cols in runs:
        bins = _score_bin(cols.score)
        for bootcamp in sorted(set(cols.bootcamp_of[cols.group]) if cols.run.count else ()):
            mask = cols.bootcamp_of[cols.group] == bootcamp
            counts = np.bincount(bins[mask], minlength=12)
            total = int(counts.sum())
            rows += [{"run": cols.run.label, "bootcamp": bootcamp, "bin": SCORE_BINS[i], "count": int(n),
                      "share": float(n / total)} for i, n in enumerate(counts)]
    bars = {"mark": {"type": "bar"}, "encoding": {
        "x": _ch("bin:O", sort=SCORE_BINS, title="score"), "xOffset": _ch("run:N"),
        "y": _ch("share:Q", title="share of trajectories", axis=_PERCENT),
        "color": _ch("run:N", legend=_TOP_LEGEND if len(runs) > 1 else None),
        "tooltip": _tips("run:N", "bootcamp:N", "bin:O", "count:Q", _ch("share:Q", format=".1%"))},
        "width": NARROW, "height": 150}
    return Chart("plot-score-dist", "Score distribution by bootcamp",
                 "Share of each bootcamp's trajectories per score bin; 0 and 1 are bars of their own.",
                 _spec(_facet_by_bootcamp(rows, bars)))


def score_by_group(group_levels: Sequence[Level], baseline_levels: Sequence[Level] = ()) -> Chart:
    rows = [{"run": lv.run, "bootcamp": lv.bootcamp, "group": lv.group, "n": lv.n, "tasks": lv.tasks,
             "mean": lv.estimates["mean_score"].value, "lo": lv.estimates["mean_score"].lo,
             "hi": lv.estimates["mean_score"].hi, "baseline": None} for lv in group_levels if lv.estimates]
    # baselines ride in the same data (a facet needs one data set), told apart by their `baseline` field
    marks = [{"run": None, "baseline": lv.run, "bootcamp": lv.bootcamp, "group": lv.group, "n": lv.n,
              "mean": lv.estimates["mean_score"].value} for lv in baseline_levels if lv.estimates]
    runs_only = [{"filter": "datum.baseline === null"}]
    tip = _tips("run:N", "bootcamp:N", "group:N", "n:Q", "tasks:Q", _ch("mean:Q", format=".3f"),
                _ch("lo:Q", format=".3f", title="95% CI low"), _ch("hi:Q", format=".3f", title="95% CI high"))

    def encoding(**channels: Any) -> dict[str, Any]:
        return {"x": _ch("group:N", title="group"), "xOffset": _ch("run:N"), "color": _ch("run:N"), **channels,
                "tooltip": tip}

    layers = [
        {"mark": {"type": "rule", "strokeWidth": 2}, "encoding": encoding(y=_ch("lo:Q"), y2=_ch("hi")),
         "transform": runs_only},
        {"mark": {"type": "point", "filled": True, "size": 70},
         "encoding": encoding(y=_ch("mean:Q", title="mean score", scale={"domain": [0, 1]})), "transform": runs_only}]
    caption = "Points are mean scores; bars their 95% bootstrap intervals (tasks resampled)."
    if marks:  # baselines as grey reference ticks across each group's column
        layers.append({"mark": {"type": "tick", "color": "#777", "thickness": 2, "size": 28}, "encoding": {
            "x": _ch("group:N", title="group"), "y": _ch("mean:Q"), "detail": _ch("baseline:N"),
            "tooltip": _tips("baseline:N", "bootcamp:N", "group:N", "n:Q", _ch("mean:Q", format=".3f"))},
            "transform": [{"filter": "datum.baseline !== null"}]})
        caption += " Grey ticks: the baseline runs' mean scores (--baseline)."
    return Chart("plot-score-group", "Mean score by difficulty group", caption,
                 _spec(_facet_by_bootcamp(rows + marks, {"layer": layers, "width": NARROW, "height": HEIGHT})))


def _count_rows(runs: Sequence[Columns], column: str) -> list[dict[str, Any]]:
    rows = []
    many = len(runs) > 1
    for cols in runs:
        values = getattr(cols, column)
        for bootcamp in sorted(set(cols.bootcamp_of[cols.group]) if cols.run.count else ()):
            picked = values[cols.bootcamp_of[cols.group] == bootcamp]
            counts = np.bincount(np.clip(picked, 0, 50).astype(np.int64))
            rows += [{"series": _series(cols, bootcamp, many), "value": i, "count": int(n),
                      "share": float(n / len(picked))} for i, n in enumerate(counts) if n]
    return rows


def count_distribution(runs: Sequence[Columns], column: str, title: str, axis: str) -> Chart:
    chart = _chart(_count_rows(runs, column), {"type": "bar"}, {
        "x": _ch("value:O", title=f"{axis} (50: 50 or more)", sort="ascending"), "xOffset": _ch("series:N"),
        "y": _ch("share:Q", title="share of trajectories", axis=_PERCENT),
        "color": _ch("series:N", title=None, legend=_TOP_LEGEND),
        "tooltip": _tips("series:N", "value:O", "count:Q", _ch("share:Q", format=".1%"))},
        width=WIDE // 2 - 40, height=HEIGHT)
    return Chart(f"plot-{column}", title, f"{axis} per trajectory, as a share of each bootcamp's trajectories.",
                 _spec(chart))


def _log_bins(values: np.ndarray) -> np.ndarray:
    """Edges of 4 bins per decade spanning the positive values (latencies and tokens span decades)."""
    positive = values[values > 0]
    if not len(positive):
        return np.array([0.0, 1.0])
    lo, hi = np.floor(np.log10(positive.min()) * 4), np.ceil(np.log10(positive.max()) * 4)
    return 10 ** (np.arange(lo, max(hi, lo + 1) + 1) / 4)


def _hist_rows(series: str, values: np.ndarray, edges: np.ndarray, **extra: Any) -> list[dict[str, Any]]:
    counts, _ = np.histogram(values[values > 0], bins=edges)
    total = max(1, len(values))
    return [{"series": series, "lo": float(a), "hi": float(b), "mid": float(np.sqrt(a * b)), "count": int(n),
             "share": float(n / total), **extra} for a, b, n in zip(edges[:-1], edges[1:], counts, strict=True)]


def _step_chart(rows: list[dict[str, Any]], x_title: str, **props: Any) -> dict[str, Any]:
    return _chart(rows, {"type": "line", "interpolate": "step-after", "point": True}, {
        "x": _ch("lo:Q", title=x_title, scale={"type": "log"},
                 axis={"format": "~g", "labelOverlap": "greedy", "tickCount": 6}),
        "y": _ch("share:Q", title="share", axis=_PERCENT),
        "color": _ch("series:N", title=None, legend=_TOP_LEGEND),
        "tooltip": _tips("series:N", _ch("lo:Q", format=".3~g", title="from"), _ch("hi:Q", format=".3~g", title="to"),
                         "count:Q", _ch("share:Q", format=".1%"))}, **props)


def latency_distribution(runs: Sequence[Columns]) -> Chart:
    many = len(runs) > 1
    latency_all = np.concatenate([c.latency for c in runs]) if runs else np.zeros(0)
    wall_all = np.concatenate([c.wall_s[np.isfinite(c.wall_s)] for c in runs]) if runs else np.zeros(0)
    calls, walls = [], []
    for cols in runs:
        lat_boot = cols.bootcamp_of[cols.latency_group] if len(cols.latency) else np.zeros(0, dtype=object)
        traj_boot = cols.bootcamp_of[cols.group] if cols.run.count else np.zeros(0, dtype=object)
        for bootcamp in sorted(set(traj_boot)):
            name = _series(cols, bootcamp, many)
            calls += _hist_rows(name, cols.latency[lat_boot == bootcamp], _log_bins(latency_all))
            wall = cols.wall_s[traj_boot == bootcamp]
            walls += _hist_rows(name, wall[np.isfinite(wall)], _log_bins(wall_all))
    chart = {"hconcat": [_step_chart(calls, "seconds per model call", width=WIDE // 2 - 40, height=HEIGHT),
                         _step_chart(walls, "seconds per trajectory (wall)", width=WIDE // 2 - 40, height=HEIGHT)]}
    return Chart("plot-latency", "Latency", "Model-call latency and trajectory wall time (log scale, 4 bins a decade).",
                 _spec(chart))


def token_distribution(runs: Sequence[Columns]) -> Chart:
    many = len(runs) > 1
    panels = []
    for column, label in (("prompt_tokens", "prompt tokens per trajectory"),
                          ("completion_tokens", "completion tokens per trajectory")):
        edges = _log_bins(np.concatenate([getattr(c, column) for c in runs]).astype(float))
        rows = []
        for cols in runs:
            boot = cols.bootcamp_of[cols.group] if cols.run.count else np.zeros(0, dtype=object)
            for bootcamp in sorted(set(boot)):
                rows += _hist_rows(_series(cols, bootcamp, many), getattr(cols, column)[boot == bootcamp].astype(float),
                                   edges)
        panels.append(_step_chart(rows, label, width=WIDE // 2 - 40, height=HEIGHT))
    return Chart("plot-tokens", "Tokens", "Prompt and completion tokens per trajectory (log scale).",
                 _spec({"hconcat": panels}))


def tool_errors(tools: Sequence[ToolRow], many_runs: bool) -> Chart | None:
    """Error rate by tool and error type; None when no tool was called."""
    if not tools:
        return None
    rows = []
    for t in tools:
        name = f"{t.run} · {t.bootcamp}/{t.tool}" if many_runs else f"{t.bootcamp}/{t.tool}"
        for etype, count in (t.errors or {"(no errors)": 0}).items():
            rows.append({"tool": name, "type": etype, "errors": count, "calls": t.calls, "rate": count / t.calls})
    chart = _chart(rows, {"type": "bar"}, {
        "y": _ch("tool:N", title=None, sort=None), "x": _ch("rate:Q", title="error rate", axis=_PERCENT),
        "color": _ch("type:N", title="error type", legend=_TOP_LEGEND),
        "tooltip": _tips("tool:N", "type:N", "errors:Q", "calls:Q", _ch("rate:Q", format=".2%"))}, width=WIDE - 200)
    total = sum(sum(t.errors.values()) for t in tools)
    calls = sum(t.calls for t in tools)
    return Chart("plot-tool-errors", "Tool errors", f"{total:,} failed of {calls:,} tool calls; bars stack the "
                 "error types of each tool.", _spec(chart))


def score_over_time(runs: Sequence[Columns], buckets: int = 40) -> Chart:
    """Mean score per bucket of time since the run's first trajectory started (runs made at different times line
    up), or per bucket of input order when the records carry no start times."""
    many = len(runs) > 1
    rows = []
    timed = all(c.run.count and np.isfinite(c.started).all() for c in runs)
    span = max((float(np.ptp(c.started)) for c in runs if c.run.count), default=0.0) if timed else 0.0
    unit, scale = ("hours", 3600.0) if span > 3 * 3600 else ("minutes", 60.0) if span > 180 else ("seconds", 1.0)
    for cols in runs:
        if not cols.run.count:
            continue
        x = (cols.started - cols.started.min()) / scale if timed else np.arange(cols.run.count, dtype=float)
        edges = np.linspace(0.0, max(float(x.max()), 1e-9), buckets + 1)
        which = np.clip(np.searchsorted(edges, x, side="right") - 1, 0, buckets - 1)
        boot = cols.bootcamp_of[cols.group]
        for bootcamp in sorted(set(boot)):
            mask = boot == bootcamp
            n = np.bincount(which[mask], minlength=buckets)
            s = np.bincount(which[mask], weights=cols.score[mask], minlength=buckets)
            rows += [{"series": _series(cols, bootcamp, many), "at": float(edges[i]), "n": int(n[i]),
                      "mean": float(s[i] / n[i])} for i in np.nonzero(n)[0]]
    title = f"{unit} since the run's first trajectory started" if timed else "trajectory number (input order)"
    chart = _chart(rows, {"type": "line", "point": True}, {
        "x": _ch("at:Q", title=title), "y": _ch("mean:Q", title="mean score", scale={"domain": [0, 1]}),
        "color": _ch("series:N", title=None, legend=_TOP_LEGEND),
        "tooltip": _tips("series:N", _ch("at:Q", format=".3~g", title=unit if timed else "trajectory"), "n:Q",
                         _ch("mean:Q", format=".3f"))}, width=WIDE, height=HEIGHT)
    what = "time since each run started" if timed else "input order (the records carry no start times)"
    return Chart("plot-time", "Score over time", f"Mean score in {buckets} buckets of {what}.", _spec(chart))


def comparison_charts(comparisons: Sequence[Comparison]) -> list[Chart]:
    """Per-task paired differences (histogram) and each bootcamp's mean difference with its interval."""
    hist, forest = [], []
    edges = np.linspace(-1, 1, 21)
    for cmp in comparisons:
        label = f"{cmp.other} − {cmp.base}"
        if cmp.scope == "all":
            counts, _ = np.histogram(np.clip(cmp.task_diffs, -1, 1), bins=edges)
            hist += [{"pair": label, "lo": float(a), "hi": float(b), "tasks": int(n),
                      "share": float(n / max(1, cmp.tasks))} for a, b, n in zip(edges[:-1], edges[1:], counts, strict=True)]
        if cmp.pairs:
            d = cmp.test.diff
            forest.append({"pair": label, "scope": cmp.scope, "diff": d.value, "lo": d.lo, "hi": d.hi,
                           "pairs": cmp.pairs, "verdict": cmp.verdict, "p_score": cmp.p_texts()[0],
                           "p_pass": cmp.p_texts()[1]})
    h = _chart(hist, {"type": "bar", "opacity": 0.8}, {
        "x": _ch("lo:Q", bin="binned", title="per-task mean score difference"), "x2": _ch("hi"),
        "y": _ch("share:Q", title="share of tasks", axis=_PERCENT, stack=None),
        "color": _ch("pair:N", title=None, legend=_TOP_LEGEND),
        "tooltip": _tips("pair:N", _ch("lo:Q", title="from"), _ch("hi:Q", title="to"), "tasks:Q")},
        width=WIDE // 2 - 40, height=HEIGHT)
    tip = _tips("pair:N", "scope:N", "pairs:Q", _ch("diff:Q", format="+.3f"), _ch("lo:Q", format="+.3f"),
                _ch("hi:Q", format="+.3f"), "p_score:N", "p_pass:N", "verdict:N")
    enc = {"y": _ch("scope:N", title=None, sort=None), "yOffset": _ch("pair:N"), "color": _ch("pair:N", title=None),
           "tooltip": tip}
    f = {"layer": [
        _chart(forest, {"type": "rule", "strokeWidth": 2},
               {"x": _ch("lo:Q", title="mean score difference, 95% CI"), "x2": _ch("hi"), **enc}),
        _chart(forest, {"type": "point", "filled": True, "size": 60}, {"x": _ch("diff:Q"), **enc}),
        _chart([{"zero": 0}], {"type": "rule", "strokeDash": [4, 4], "color": "#888"}, {"x": _ch("zero:Q")}),
    ], "width": WIDE // 2 - 40, "height": HEIGHT}
    return [Chart("plot-compare", "Paired differences",
                  "Left: per-task mean score difference over matched samples. Right: mean difference with its "
                  "95% task-bootstrap interval, overall and per bootcamp; an interval across the dashed zero line "
                  "is no evidence of a difference.", _spec({"hconcat": [h, f]}))]


def all_charts(runs: Sequence[Columns], group_levels: Sequence[Level], tools: Sequence[ToolRow],
               comparisons: Sequence[Comparison], baseline_levels: Sequence[Level] = ()) -> list[Chart]:
    """Every plot of the report, in page order (a plot without data is left out)."""
    charts = [score_distribution(runs), score_by_group(group_levels, baseline_levels),
              count_distribution(runs, "turns", "Assistant turns", "assistant turns"),
              count_distribution(runs, "tool_calls", "Tool calls", "tool calls"),
              latency_distribution(runs), token_distribution(runs)]
    tool_chart = tool_errors(tools, len(runs) > 1)
    if tool_chart:
        charts.append(tool_chart)
    charts.append(score_over_time(runs))
    if comparisons:
        charts += comparison_charts(comparisons)
    return charts
