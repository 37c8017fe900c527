from bc_filter import (
    assistant_turns,
    filter_by_bootcamp,
    filter_by_data_source,
    filter_by_generator,
    filter_by_score,
    filter_by_split,
    filter_by_status,
    filter_by_success,
    filter_by_turns,
    filter_has_tool_error,
    is_success,
)

from .rows import task, trajectory


def keep(predicate, rows):
    return [r["id"] for r in rows if predicate(r)]


def test_score_bounds_are_inclusive_and_optional():
    rows = [trajectory(task(i), score=s) for i, s in enumerate([0.0, 0.5, 0.9, 1.0])]
    assert len(keep(filter_by_score(min_score=0.9), rows)) == 2
    assert len(keep(filter_by_score(max_score=0.5), rows)) == 2
    assert len(keep(filter_by_score(0.5, 0.9), rows)) == 2
    assert len(keep(filter_by_score(), rows)) == 4  # no silent default threshold


def test_success_uses_the_flag_else_its_definition():
    done = trajectory(task(0), score=1.0)
    partial = trajectory(task(1), score=0.9)
    cut = trajectory(task(2), score=1.0, status="max_turns")
    assert keep(filter_by_success, [done, partial, cut]) == [done["id"]]
    no_flag = {k: v for k, v in done.items() if k != "success"}
    assert is_success(no_flag)
    assert not is_success({**no_flag, "status": "length"})


def test_status_accepts_comma_lists():
    rows = [trajectory(task(i), status=s) for i, s in enumerate(["completed", "max_turns", "length", "error"])]
    assert len(keep(filter_by_status("max_turns,length"), rows)) == 2
    assert len(keep(filter_by_status(["error"]), rows)) == 1


def test_data_source_glob_and_bootcamp():
    rows = [trajectory(task(0)), trajectory(task(1, bootcamp="sudoku")), trajectory(task(2, bootcamp="arith2"))]
    assert len(keep(filter_by_data_source("bootcamp/arith*"), rows)) == 2
    assert len(keep(filter_by_data_source("bootcamp/sudoku"), rows)) == 1
    assert len(keep(filter_by_bootcamp("sudoku,arith2"), rows)) == 2
    # without extra_info.bootcamp the data_source names the bootcamp
    bare = trajectory(task(3, bootcamp="sudoku"))
    del bare["input"]["extra_info"]["bootcamp"]
    assert filter_by_bootcamp(["sudoku"])(bare)


def test_split_and_generator():
    rows = [trajectory(task(0)), trajectory(task(1, split="test", generator="hard"))]
    assert len(keep(filter_by_split("test"), rows)) == 1
    assert len(keep(filter_by_generator(["hard", "medium"]), rows)) == 1
    assert len(keep(filter_by_generator("easy"), rows)) == 1


def test_turn_bounds_count_assistant_turns():
    rows = [trajectory(task(i), assistant_turns=n) for i, n in enumerate([1, 2, 3, 5])]
    assert [assistant_turns(r) for r in rows] == [1, 2, 3, 5]
    assert len(keep(filter_by_turns(min_turns=3), rows)) == 2
    assert len(keep(filter_by_turns(max_turns=2), rows)) == 2
    no_counts = {k: v for k, v in rows[2].items() if k != "num_turns"}
    assert assistant_turns(no_counts) == 3  # counted from the messages


def test_has_tool_error():
    rows = [trajectory(task(0)), trajectory(task(1), tool_error=True)]
    assert keep(filter_has_tool_error, rows) == [rows[1]["id"]]
