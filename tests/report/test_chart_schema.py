"""bc-report writes its plots as plain Vega-Lite dicts: every one must be a valid spec of the Vega-Lite version the
page embeds, checked against the JSON schema Altair ships (the `report-schema` extra; bc-report never imports it)."""
from __future__ import annotations

import copy
import json
from importlib import resources

import jsonschema
import pytest

from bc_report.charts import SCHEMA_URL, VEGA_LITE, all_charts
from bc_report.report import ReportOptions, build_report
from bc_report.runs import RunSpec

altair = pytest.importorskip("altair", reason="the Vega-Lite schema comes with Altair: pip install -e '.[report-schema]'")


@pytest.fixture(scope="module")
def validator():
    schema = json.loads(resources.files("altair.vegalite.v6.schema").joinpath("vega-lite-schema.json").read_text())
    return jsonschema.validators.validator_for(schema)(schema)


def charts_of(base, others=(), baselines=()):
    report = build_report(RunSpec("base", [str(base)]), [RunSpec(f"other{i}", [str(p)]) for i, p in enumerate(others)],
                          ReportOptions(n_boot=200), [RunSpec(f"baseline{i}", [str(p)]) for i, p in enumerate(baselines)])
    return all_charts(report.runs, report.levels["group"], report.tools, report.comparisons,
                      report.baseline_levels.get("group", []))


def test_the_specs_name_the_schema_version_altair_ships():
    assert altair.SCHEMA_VERSION == f"v{VEGA_LITE}" and SCHEMA_URL.endswith(f"/v{VEGA_LITE}.json")


def test_every_plot_is_a_valid_vega_lite_spec(runs, validator):
    seen = set()
    for charts in (charts_of(runs["noisy1"]),  # one run: no comparison, no legend on the score bars
                   charts_of(runs["reference"], [runs["noisy1"]], [runs["noisy2"]]),  # paired, with a baseline
                   charts_of(runs["reference"], [runs["noisy1"], runs["noisy2"]])):
        for chart in charts:
            assert chart.spec["$schema"] == SCHEMA_URL
            errors = [f"{'/'.join(map(str, e.absolute_path))}: {e.message[:200]}" for e in validator.iter_errors(chart.spec)]
            assert not errors, (chart.id, errors[:5])
            seen.add(chart.id)
    assert {"plot-score-dist", "plot-score-group", "plot-turns", "plot-tool_calls", "plot-latency", "plot-tokens",
            "plot-time", "plot-compare"} <= seen


def test_the_schema_check_refuses_a_broken_spec(runs, validator):
    """The check is live: a mark Vega-Lite does not have, a channel of an unknown type, a misspelt key fail."""
    chart = charts_of(runs["noisy1"])[0]
    for path, value in ((("spec", "mark", "type"), "barz"), (("spec", "encoding", "y", "type"), "quantity"),
                        (("spec", "encoding", "colour"), {"field": "run", "type": "nominal"})):
        spec = copy.deepcopy(chart.spec)
        node = spec
        for key in path[:-1]:
            node = node[key]
        node[path[-1]] = value
        assert any(True for _ in validator.iter_errors(spec)), path
