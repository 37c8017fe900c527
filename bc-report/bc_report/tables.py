"""The report's tables as plain data (headers and text cells), written as HTML (escaped) or as Markdown."""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from html import escape

from bc_common.ratings import Ratings
from bc_common.records import STATUSES

from .analysis import Level, ToolRow
from .compare import Comparison


@dataclass
class Table:
    """A titled table of text cells; `numeric` marks right-aligned columns."""

    id: str
    title: str
    headers: list[str]
    rows: list[list[str]]
    numeric: list[bool]
    note: str = ""


def _f(value: float | None, digits: int = 3) -> str:
    return "–" if value is None else f"{value:.{digits}f}"


def _tokens(value: float) -> str:
    return f"{value:,.0f}"


def level_table(table_id: str, title: str, rows: Sequence[Level], ks: Sequence[int], many_runs: bool,
                name_header: str = "", note: str = "") -> Table:
    headers = (["run"] if many_runs else []) + [name_header, "n", "tasks", "mean score [95% CI]"]
    headers += [f"pass@{k} [95% CI]" for k in ks] + [s for s in STATUSES]
    headers += ["turns", "tool calls", "tool err", "prompt tok", "compl. tok", "p50 s", "p95 s"]
    costed = any(lv.cost_usd is not None for lv in rows)  # the column only where some run was priced
    if costed:
        headers.append("cost $")
    out = []
    for lv in rows:
        cells = ([lv.run] if many_runs else []) + [lv.name, f"{lv.n:,}", f"{lv.tasks:,}"]
        cells += [lv.estimates["mean_score"].format() if lv.estimates else "–"]
        cells += [lv.estimates[f"pass@{k}"].format() if f"pass@{k}" in lv.estimates else "–" for k in ks]
        cells += [f"{lv.status[s]:,}" for s in STATUSES]
        cells += [_f(lv.mean_turns, 2), _f(lv.mean_tool_calls, 2),
                  "–" if lv.tool_error_rate is None else f"{lv.tool_error_rate:.1%}",
                  _tokens(lv.mean_prompt_tokens), _tokens(lv.mean_completion_tokens),
                  _f(lv.latency_p50, 3), _f(lv.latency_p95, 3)]
        if costed:
            cells.append(_f(lv.cost_usd, 4))
        out.append(cells)
    numeric = [False] * (2 if many_runs else 1) + [True] * (len(headers) - (2 if many_runs else 1))
    return Table(table_id, title, headers, out, numeric, note)


def comparison_table(comparisons: Sequence[Comparison]) -> Table:
    headers = ["base", "other", "scope", "pairs", "tasks", "mean base", "mean other", "difference [95% CI]",
               "score p", "pass base", "pass other", "base only", "other only", "McNemar p", "verdict"]
    rows = []
    for c in comparisons:
        p_boot, p_mc = c.p_texts()
        rows.append([c.base, c.other, c.scope, f"{c.pairs:,}", f"{c.tasks:,}", _f(c.mean_base), _f(c.mean_other),
                     c.test.diff.format(sign=True) if c.pairs else "–", p_boot, f"{c.pass_base:.1%}",
                     f"{c.pass_other:.1%}", f"{c.b:,}", f"{c.c:,}", p_mc, c.verdict])
    unmatched = [c for c in comparisons if c.scope == "all" and (c.only_base or c.only_other)]
    note = ("Pairs are trajectories of the same task and sample in both runs; differences are other minus base. "
            "Difference: mean over pairs with a 95% paired-bootstrap interval (tasks resampled). Score p: paired "
            "sign-flip randomization test on the per-task differences. McNemar p: exact test on the pairs that "
            "passed in one run only (base only / other only). Significant means p < 0.05.")
    for c in unmatched:
        note += f" {c.other}: {c.only_base:,} trajectories only in {c.base}, {c.only_other:,} only in {c.other}."
    numeric = [False, False, False] + [True] * 11 + [False]
    return Table("table-compare", "Paired comparison", headers, rows, numeric, note)


def ratings_tables(ratings: Ratings) -> list[Table]:
    """The ratings (best first), the win/draw/loss matrix and the side-bias check of the runs' matches."""
    players = [p.model for p in ratings.players]
    rows = [[p.model, f"{p.rating.value:.0f} [{p.rating.low:.0f}, {p.rating.high:.0f}]", f"{p.games:,}",
             _f(p.score)] for p in ratings.players]
    note = (f"{ratings.matches:,} matches ({ratings.unfinished:,} unfinished, left out). Bradley-Terry ratings on "
            "the Elo scale (400 points = 10x the odds of winning), each model given one virtual draw against a "
            f"model rated 1000; a draw is half a win. 95% intervals: percentile bootstrap over tasks "
            f"({ratings.n_boot:,} resamples).")
    table = Table("table-ratings", "Ratings", ["model", "rating [95% CI]", "games", "score"], rows,
                  [False, True, True, True], note)
    cells = {(r.model, r.opponent): f"{r.wins}-{r.draws}-{r.losses} ({r.score:.2f})" for r in ratings.matrix}
    matrix = Table("table-matrix", "Wins, draws and losses", ["model vs opponent", *players],
                   [[me, *(cells.get((me, them), "–") for them in players)] for me in players],
                   [False] + [True] * len(players),
                   "Row model's wins-draws-losses against the column model, whichever seat it sat in (its score); a model "
                   "against itself is counted once, from the first seat.")
    s = ratings.side
    side = Table("table-side", "Side bias (first seat against second)",
                 ["first seat wins", "draws", "second seat wins", "first-seat score [95% CI]", "p", "balanced"],
                 [[f"{s.wins:,}", f"{s.draws:,}", f"{s.losses:,}",
                   f"{s.score.value:.3f} [{s.score.low:.3f}, {s.score.high:.3f}]", f"{s.p:.3g}",
                   "yes" if s.balanced else "no"]],
                 [True] * 5 + [False],
                 "p: exact two-sided binomial test of first-seat wins among decisive games against 1/2. Balanced: "
                 "every pair of models sat both ways equally often (else model strength is mixed into the check).")
    return [table, matrix, side]


def tool_table(tools: Sequence[ToolRow], many_runs: bool) -> Table:
    headers = (["run"] if many_runs else []) + ["bootcamp", "tool", "calls", "errors", "error rate", "error types"]
    rows = []
    for t in tools:
        errors = sum(t.errors.values())
        rows.append(([t.run] if many_runs else []) + [
            t.bootcamp, t.tool, f"{t.calls:,}", f"{errors:,}", f"{t.error_rate:.1%}",
            ", ".join(f"{k} {v:,}" for k, v in t.errors.items()) or "–"])
    lead = 3 if many_runs else 2
    return Table("table-tools", "Tool calls and errors", headers, rows, [False] * lead + [True] * 3 + [False])


def to_html(table: Table) -> str:
    """The table as escaped HTML."""
    head = "".join(f"<th>{escape(h)}</th>" for h in table.headers)
    body = []
    for row in table.rows:
        cells = "".join(f"<td class='num'>{escape(c)}</td>" if num else f"<td>{escape(c)}</td>"
                        for c, num in zip(row, table.numeric, strict=True))
        body.append(f"<tr>{cells}</tr>")
    note = f"<p class='note'>{escape(table.note)}</p>" if table.note else ""
    return (f"<div class='table-wrap'><table id='{escape(table.id)}'><thead><tr>{head}</tr></thead>"
            f"<tbody>{''.join(body)}</tbody></table></div>{note}")


def md_text(text: str) -> str:
    # a pipe ends a cell and a newline the row; < > would open HTML, ` * emphasis or code, [..]( a link or an image
    text = " ".join(text.split())
    for ch in "\\`*<>|":
        text = text.replace(ch, "\\" + ch)
    if "](" in text or "![" in text:
        text = text.replace("[", "\\[").replace("]", "\\]")
    return text or " "


def to_markdown(table: Table) -> str:
    """The table as GitHub-flavoured Markdown (cells escaped)."""
    lines = [f"### {md_text(table.title)}", "",
             "| " + " | ".join(md_text(h) for h in table.headers) + " |",
             "|" + "|".join("---:" if num else "---" for num in table.numeric) + "|"]
    lines += ["| " + " | ".join(md_text(c) for c in row) + " |" for row in table.rows]
    if table.note:
        lines += ["", md_text(table.note)]
    return "\n".join(lines) + "\n"
