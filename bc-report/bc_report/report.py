"""Build a report from runs of trajectories, and write it as one HTML page or as Markdown tables.

    report = build_report(RunSpec("noisy", ["traj.jsonl"]), [RunSpec("ref", ["ref.jsonl"])], ReportOptions())
    write_report(report, "report.html")

Baseline runs (`baselines=[RunSpec(...)]`, e.g. `bc-eval --model builtin:baseline/NAME`) are reference lines: rows
of their own in the tables and marks on the score-by-group plot, never compared, embedded or counted in the cards.
"""
from __future__ import annotations

import sys
from dataclasses import dataclass, field
from html import escape
from pathlib import Path
from typing import Any

from bc_common.errors import ConfigError, InputError
from bc_common.jsonl import atomic_write_bytes
from bc_common.locks import OutputLock
from bc_common.ratings import MatchTally, Ratings, rate

from .analysis import Columns, Level, ToolRow, levels, tool_rows
from .answers import Extractor
from .compare import Comparison, compare
from .runs import Run, RunSpec
from .stats import ks_for
from .tables import (
    Table,
    comparison_table,
    level_table,
    md_text,
    ratings_tables,
    to_html,
    to_markdown,
    tool_table,
)
from .view import Images


@dataclass
class ReportOptions:
    """What the report embeds and how it computes intervals."""

    title: str = "bc-report"
    max_failures: int = 500  # failing trajectories embedded per run (a seeded sample beyond)
    max_passes: int = 100  # seeded sample of passing trajectories embedded per run
    seed: int = 0  # of the browser's samples and of every bootstrap
    n_boot: int = 1000  # bootstrap resamples per interval and test
    extract: bool = True  # run each bootcamp's extract_output on the embedded trajectories
    skip_invalid: bool = False
    partial: bool = True  # decode only the fields counted (False: every row in full, the reference of the tests)


@dataclass
class Report:
    options: ReportOptions
    runs: list[Columns]
    ks: list[int]
    levels: dict[str, list[Level]] = field(default_factory=dict)  # overall | bootcamp | group -> rows of all runs
    tools: list[ToolRow] = field(default_factory=list)
    comparisons: list[Comparison] = field(default_factory=list)
    images: Images = field(default_factory=Images)
    baselines: list[Columns] = field(default_factory=list)
    baseline_levels: dict[str, list[Level]] = field(default_factory=dict)  # level -> rows of the baseline runs
    ratings: Ratings | None = None  # from the matches of every run (bc-eval --opponent-model); None without any

    def table_rows(self, level: str) -> list[Level]:
        """The runs' rows at `level`, each bootcamp / group followed by the baselines' rows for it."""
        rows = self.levels[level] + self.baseline_levels.get(level, [])
        return sorted(rows, key=lambda lv: (lv.bootcamp, lv.group, lv.run.startswith(BASELINE_PREFIX)))

    def tables(self) -> list[Table]:
        many = len(self.runs) > 1 or bool(self.baselines)
        note = (f"Intervals: 95% percentile bootstrap over tasks ({self.options.n_boot:,} resamples, seed "
                f"{self.options.seed}). pass@k: unbiased estimator (Chen et al. 2021) averaged over tasks; a pass is "
                "status completed with score 1. Latency percentiles are per model call.")
        if self.baselines:
            note += f" Rows named '{BASELINE_PREFIX}...' are baseline runs (--baseline), shown for reference."
        out = [level_table("table-overall", "Overall", self.table_rows("overall"), self.ks, many, "", note),
               level_table("table-bootcamp", "By bootcamp", self.table_rows("bootcamp"), self.ks, many, "bootcamp"),
               level_table("table-group", "By bootcamp and difficulty group", self.table_rows("group"), self.ks,
                           many, "bootcamp/group")]
        if self.ratings is not None:
            out[1:1] = ratings_tables(self.ratings)
        if self.tools:
            out.append(tool_table(self.tools, many))
        return out


BASELINE_PREFIX = "baseline: "


def _label(spec: RunSpec, taken: set[str]) -> str:
    label, n = spec.label, 2
    while label in taken:
        label, n = f"{spec.label}#{n}", n + 1
    taken.add(label)
    return label


def default_label(paths: list[str]) -> str:
    """A run's name from its files: `runs/ref.jsonl` -> `ref`; shards joined with `+`."""
    names = []
    for p in paths:
        name = "stdin" if p == "-" else Path(p).name
        for suffix in (".gz", ".jsonl", ".json", ".parquet"):
            name = name.removesuffix(suffix)
        names.append(name)
    return "+".join(names) if len(names) <= 3 else f"{names[0]}+{len(names) - 1} more"


def _name_by_model(columns: list[Columns]) -> None:
    """Runs of one model each, all different (a model against a baseline), are named by their models."""
    models = [next(iter(c.run.models)) if len(c.run.models) == 1 else None for c in columns]
    if len(columns) < 2 or None in models or len(set(models)) < len(models):
        return
    for cols, model in zip(columns, models, strict=True):
        cols.run.label = model
        for view in cols.run.embedded():
            view["run"] = model


def build_report(base: RunSpec, others: list[RunSpec] | None = None, options: ReportOptions | None = None,
                 baselines: list[RunSpec] | None = None) -> Report:
    """Read every run (streaming), then compute the tables, the tool errors and the paired comparisons; baseline
    runs only get table rows and reference marks."""
    options = options or ReportOptions()
    if options.n_boot < 100:
        raise ConfigError(f"--bootstrap must be at least 100 resamples, got {options.n_boot}")
    extractor = Extractor(options.extract)
    images = Images()
    taken: set[str] = set()
    columns = []
    for spec in [base, *(others or [])]:
        run = Run(_label(spec, taken), options.max_failures, options.max_passes, options.seed, extractor, images)
        run.read_files(spec.paths, skip_invalid=options.skip_invalid, partial=options.partial)
        if not run.count:  # a report over nothing would be all dashes: say so instead
            raise InputError(f"no trajectories to report on ({run.read.skipped:,} invalid rows skipped)"
                             if run.read.skipped else "no trajectories to report on", source=", ".join(spec.paths))
        columns.append(Columns(run))
    _name_by_model(columns)
    ks = ks_for(min(c.min_samples for c in columns))
    report = Report(options, columns, ks, images=images)
    for cols in columns:
        for level, rows in levels(cols, ks, options.n_boot, options.seed).items():
            report.levels.setdefault(level, []).extend(rows)
        report.tools += tool_rows(cols.run)
    for key in report.levels:  # one block per bootcamp / group, runs side by side
        report.levels[key].sort(key=lambda lv: (lv.bootcamp, lv.group))
    for other in columns[1:]:
        report.comparisons += compare(columns[0], other, options.n_boot, options.seed)
    for spec in baselines or []:
        run = Run(_label(spec, taken), 0, 0, options.seed, extractor, images)
        run.read_files(spec.paths, skip_invalid=options.skip_invalid, partial=options.partial)
        if not run.count:
            raise InputError("no trajectories in the baseline run", source=", ".join(spec.paths))
        if len(run.models) == 1:  # a baseline is best named by what played it: builtin:baseline/NAME
            run.label = next(iter(run.models))
        run.label = BASELINE_PREFIX + run.label
        cols = Columns(run)
        report.baselines.append(cols)
        for level, rows in levels(cols, ks, options.n_boot, options.seed).items():
            report.baseline_levels.setdefault(level, []).extend(rows)
    matches = MatchTally()  # every run's matches rate the models together (A vs B in one file, A vs C in another)
    for cols in report.runs + report.baselines:
        matches.merge(cols.run.matches)
    if matches.matches:
        report.ratings = rate(matches, options.n_boot, options.seed)
    return report


def to_markdown_report(report: Report) -> str:
    """The tables (no plots, no trajectories) as Markdown for a terminal or a PR comment."""
    parts = [f"## {md_text(report.options.title)}", "", md_text(_inputs_line(report)), ""]
    tables = report.tables()
    if report.comparisons:
        tables.insert(1, comparison_table(report.comparisons))
    parts += [to_markdown(t) for t in tables]
    return "\n".join(parts)


def _inputs_line(report: Report) -> str:
    lines = []
    for cols in report.runs:
        run = cols.run
        models = ", ".join(f"{m} ({n:,})" for m, n in run.models.most_common(3))
        skipped = f", {run.read.skipped:,} invalid rows skipped" if run.read.skipped else ""
        mixed = "; ".join(run.stamps.lines())
        mixed = f"; MIXED CODE VERSIONS (graded by different code of a bootcamp): {mixed}" if mixed else ""
        lines.append(f"{run.label}: {run.count:,} trajectories of {len(run.task_ids):,} tasks from "
                     f"{', '.join(run.sources)} (model {models or '–'}){skipped}{mixed}")
    return "; ".join(lines) + "."


def _cards(report: Report) -> str:
    """Headline figures, one row of cards per run."""
    rows = []
    for lv in report.levels["overall"]:
        score, pass1 = lv.estimates.get("mean_score"), lv.estimates.get("pass@1")
        cards = [(f"{lv.n:,}", "trajectories"), (f"{lv.tasks:,}", "tasks"),
                 (f"{score.value:.3f}" if score else "–", "mean score"),
                 (f"{pass1.value:.1%}" if pass1 else "–", "pass@1")]
        k = report.ks[-1]
        if k > 1 and f"pass@{k}" in lv.estimates:
            cards.append((f"{lv.estimates[f'pass@{k}'].value:.1%}", f"pass@{k}"))
        cards.append((f"{lv.status.get('error', 0):,}", "status error"))
        label = f"<div class='card run'><b>{escape(lv.run)}</b><span>run</span></div>" if len(report.runs) > 1 else ""
        rows.append("<div class='cards'>" + label + "".join(
            f"<div class='card'><b>{escape(v)}</b><span>{escape(t)}</span></div>" for v, t in cards) + "</div>")
    return "".join(rows)


def _browser_note(report: Report) -> str:
    parts = []
    for cols in report.runs:
        run = cols.run
        f_kept, f_seen = len(run.failures.items()), run.failures.seen
        p_kept, p_seen = len(run.passes.items()), run.passes.seen
        fails = (f"all {f_seen:,} failing trajectories" if f_kept == f_seen
                 else f"a seeded sample of {f_kept:,} of {f_seen:,} failing trajectories (cap {run.max_failures:,})")
        passes = (f"all {p_seen:,} passing ones" if p_kept == p_seen
                  else f"a seeded sample of {p_kept:,} of {p_seen:,} passing ones")
        parts.append(f"{run.label}: {fails} and {passes}")
    return ("Embedded here: " + "; ".join(parts) + f" (samples seeded with {report.options.seed}, chosen by a hash "
            "of the trajectory id; the tables and plots above count every trajectory).")


BROWSER_SHELL = """
<div class='filters'>
 <label>run<select id='f-run'><option value=''>all</option></select></label>
 <label>bootcamp<select id='f-bootcamp'><option value=''>all</option></select></label>
 <label>group<select id='f-group'><option value=''>all</option></select></label>
 <label>status<select id='f-status'><option value=''>all</option></select></label>
 <label>outcome<select id='f-outcome'><option value=''>all</option><option value='failed'>failed</option>
   <option value='passed'>passed</option></select></label>
 <label>score ≥<input id='f-score-min' type='number' min='0' max='1' step='0.05'></label>
 <label>score ≤<input id='f-score-max' type='number' min='0' max='1' step='0.05'></label>
 <label>tool errors<select id='f-tool-error'><option value=''>any</option><option value='with'>with a tool error</option>
   <option value='without'>without</option></select></label>
 <label>id contains<input id='f-text' type='search'></label>
</div>
<p id='traj-count'></p>
<div class='table-wrap'><table id='traj-list'><thead><tr><th>id</th><th>run</th><th>bootcamp</th><th>group</th>
<th>status</th><th>score</th><th>turns</th><th>tool calls</th><th>tool errors</th></tr></thead><tbody></tbody></table></div>
<button id='traj-more' type='button'>show more</button>
<div id='traj-detail'><p class='note'>Click a trajectory to see every turn.</p></div>
"""


def _body(report: Report, charts: list[Any]) -> str:
    o = report.options
    nav = ["<a href='#tables'>Tables</a>", "<a href='#plots'>Plots</a>", "<a href='#trajectories'>Trajectories</a>"]
    if report.comparisons:
        nav.insert(1, "<a href='#comparison'>Comparison</a>")
    out = [f"<header><h1>{escape(o.title)}</h1><p class='meta'>{escape(_inputs_line(report))}</p>",
           f"<nav>{''.join(nav)}</nav>{_cards(report)}</header><main>"]
    out.append("<h2 id='tables'>Tables</h2>")
    for table in report.tables():
        out.append(f"<h3>{escape(table.title)}</h3>{to_html(table)}")
    if report.comparisons:
        out.append(f"<h2 id='comparison'>Comparison</h2>{to_html(comparison_table(report.comparisons))}")
        out += [_chart_html(c) for c in charts if c.id == "plot-compare"]
    out.append("<h2 id='plots'>Plots</h2>")
    out += [_chart_html(c) for c in charts if c.id != "plot-compare"]
    out.append(f"<h2 id='trajectories'>Trajectories</h2><p class='note'>{escape(_browser_note(report))}</p>")
    out.append(BROWSER_SHELL)
    from importlib.metadata import version

    from .charts import VEGA_LITE

    out.append(f"</main><footer>bc-report · plots: Vega-Lite {escape(VEGA_LITE)} rendered by "
               f"vega-embed from vl-convert-python {escape(version('vl-convert-python'))}, inlined · "
               "works offline</footer>")
    return "".join(out)


def _chart_html(chart: Any) -> str:
    return (f"<section class='chart' id='{escape(chart.id)}'><h3>{escape(chart.title)}</h3>"
            f"<p class='caption'>{escape(chart.caption)}</p><div id='{escape(chart.id)}-view'></div></section>")


def _used_images(views: list[dict[str, Any]], images: Images) -> dict[str, str]:
    keys = {part["image"] for v in views for step in v["steps"] for part in step.get("parts", ()) if "image" in part}
    return {k: images.by_key[k] for k in sorted(keys)}


def to_html_report(report: Report) -> str:
    """The self-contained page."""
    from .charts import all_charts
    from .page import document

    charts = all_charts(report.runs, report.levels["group"], report.tools, report.comparisons,
                        report.baseline_levels.get("group", []))
    views = [v for cols in report.runs for v in cols.run.embedded()]
    browser = {"trajectories": views, "images": _used_images(views, report.images)}
    return document(report.options.title, _body(report, charts), [{"id": c.id, "spec": c.spec} for c in charts],
                    browser)


def write_report(report: Report, output: str, fmt: str = "html") -> int:
    """Write the report to `output` ('-' = stdout), whole or not at all; returns the bytes written."""
    text = to_html_report(report) if fmt == "html" else to_markdown_report(report)
    data = text.encode()
    if output == "-":
        sys.stdout.buffer.write(data)
        sys.stdout.buffer.flush()
    else:
        with OutputLock(output, prog="bc-report"):  # one writer; clears temp files a killed run left
            atomic_write_bytes(output, data)
    return len(data)
