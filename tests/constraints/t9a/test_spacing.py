"""Unit Spacing at the end of a move and after a Pivot (docs/rules.md §3, A8).

Their rule-example tables live with the clauses (`Clause.examples`) and run in the
conformance suite (tests/conformance); these are the cases that need more than a table.
"""

import pytest

from constraints.t9a.checker import check_move
from constraints.t9a.moves import Move, forward
from tests.support import scenario, unit, wall


def _ahead(gap_after_8: float, kind: str = "unit"):
    """A unit (front edge y = 11) that marches 8" towards a blocker `gap_after_8` beyond."""
    front_after = 11.0 + 8.0
    mover = unit("u", centre=(36.0, 10.0))
    if kind == "unit":
        other = unit("foe", centre=(36.0, front_after + gap_after_8 + 1.0), facing=270.0,
                     player="blue")
        return scenario(mover, other)
    rocks = wall("rocks", 30.0, front_after + gap_after_8, 42.0, front_after + gap_after_8 + 2)
    return scenario(mover, terrain=(rocks,))


def test_exactly_one_inch_is_measured_exactly():
    verdict = check_move(_ahead(1.0), Move("u", "march", steps=(forward(8.0),)))
    assert verdict.measurements["clearance"] == 1.0
    assert verdict.clauses() == ("t9a.unit_spacing",)


def test_pivot_ends_partway_so_half_an_inch_is_the_limit():
    # A 5 x 2 unit pivoting 90 deg becomes 2 wide and 5 deep: its rear reaches y = 7.5.
    mover = unit("u", centre=(36.0, 10.0), mobility=4.0)
    for gap, legal in ((0.5, False), (0.501, True)):
        rocks = wall("rocks", 30.0, 7.5 - gap - 1.0, 42.0, 7.5 - gap)
        s = scenario(mover, terrain=(rocks,))
        verdict = check_move(s, Move("u", "advance", pivot_deg=90.0, steps=(forward(4.0),)))
        assert verdict.measurements["pivot_clearance"] == pytest.approx(gap)
        assert ("t9a.pivot.unit_spacing" not in verdict.clauses()) == legal


def test_without_a_pivot_the_pivot_spacing_is_not_judged():
    mover = unit("u", centre=(36.0, 10.0))
    close = wall("rocks", 30.0, 8.5, 42.0, 8.7)  # 0.3" behind the unit already
    s = scenario(mover, terrain=(close,))
    verdict = check_move(s, Move("u", "advance", steps=(forward(4.0),)))
    assert "t9a.pivot.unit_spacing" not in verdict.clauses()
