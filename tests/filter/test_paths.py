import pytest

from bc_filter.paths import MISSING, get_path, parse_path, where

from .rows import task, trajectory

ROW = trajectory(task(3), 1, score=0.5)


def test_parse_path_keys_and_indices():
    assert parse_path("input.extra_info.split") == ("input", "extra_info", "split")
    assert parse_path("messages[-1].role") == ("messages", -1, "role")
    assert parse_path("a[0][2]") == ("a", 0, 2)
    for bad in ("", "a..b", "a[x]", " a"):
        with pytest.raises(ValueError):
            parse_path(bad)


def test_get_path_reaches_nested_fields_and_reports_missing():
    assert get_path(ROW, "input.extra_info.split") == "train"
    assert get_path(ROW, "messages[-1].role") == "assistant"
    assert get_path(ROW, "messages[1].tool_calls[0].function.name") == "calculate"
    assert get_path(ROW, "messages[99].role") is MISSING
    assert get_path(ROW, "input.nope", default=None) is None
    assert get_path(ROW, "score.x") is MISSING  # a number has no keys


@pytest.mark.parametrize("condition, expected", [
    ("input.extra_info.split=train", True),
    ("input.extra_info.split=test", False),
    ("input.extra_info.split!=test", True),
    ("score=0.5", True),
    ("score>=0.5", True),
    ("score>0.5", False),
    ("score<1", True),
    ("score<=0.4", False),
    ("sample=1", True),
    ("success=false", True),
    ("success=0", False),          # a bool is not a number
    ("error=null", True),
    ("missing.field=null", True),   # missing reads as null, like jq
    ("missing.field>=0", False),    # ... and fails numeric comparisons
    ("messages[-1].role=assistant", True),
    ("input.extra_info.index=3", True),
    ('model="builtin:noisy"', True),
    ("model=builtin:noisy", True),
    ("input.id=arithmetic-0000000000000003", True),
])
def test_where_conditions(condition, expected):
    assert where(condition)(ROW) is expected


def test_where_matches_string_fields_by_their_text():
    row = {"id": "123"}
    assert where("id=123")(row)
    assert not where("id!=123")(row)


@pytest.mark.parametrize("bad", ["score", "score>=high", ">=1", "a..b=1"])
def test_where_rejects_malformed_conditions(bad):
    with pytest.raises(ValueError):
        where(bad)
