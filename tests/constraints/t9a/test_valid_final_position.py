"""Valid Final Position: every end corner within 2 x Mob of some start corner (seed 000)."""

import math

import pytest

from constraints.t9a.checker import check_move
from constraints.t9a.clauses.movement.valid_final_position import farthest_corner
from constraints.t9a.moves import Move, forward, wheel
from tests.support import Base, scenario, unit

SQ = ((0.0, 1.0), (1.0, 1.0), (1.0, 0.0), (0.0, 0.0))

# Rule examples: (what the rule text says, end corners, expected reach).
EXAMPLES = [
    ("a unit that does not move reaches 0", SQ, 0.0),
    ("a corner need not stay near its own start corner: a quarter turn in place reaches 0",
     ((1.0, 1.0), (1.0, 0.0), (0.0, 0.0), (0.0, 1.0)), 0.0),
    ("moving 8 straight ahead: the front corners end 8 from the front start corners",
     tuple((x, y + 8.0) for x, y in SQ), 8.0),
    ("moving back 0.5: every end corner is near some start corner",
     tuple((x, y - 0.5) for x, y in SQ), 0.5),
    ("the corner that travelled furthest is measured to the closest start corner",
     ((0.0, 1.0), (1.0, 1.0), (1.0, 0.0), (5.0, 4.0)), 5.0),
]


@pytest.mark.parametrize("why, end, reach", EXAMPLES, ids=[e[0][:40] for e in EXAMPLES])
def test_farthest_corner_examples(why, end, reach):
    assert farthest_corner(SQ, end)[2] == pytest.approx(reach)


def _march(distance, mobility=4.0):
    # A straight March takes the front corners exactly `distance` from where they started.
    s = scenario(unit(mobility=mobility, centre=(36.0, 5.0)))
    return check_move(s, Move("u", "march", steps=(forward(distance),)))


def test_exactly_at_the_limit_is_legal():
    verdict = _march(8.0)
    assert verdict.measurements["valid_final_position"] == 8.0
    assert verdict.legal


def test_just_past_the_limit_is_illegal():
    verdict = _march(8.01)
    assert verdict.measurements["valid_final_position"] == pytest.approx(8.01)
    assert "t9a.valid_final_position" in verdict.clauses()


def test_long_column_cheap_wheel_swings_its_rear_too_far():
    """A conga line: a cheap 30 deg wheel swings the rear corners far from every start corner."""
    column = unit("column", models=12, files=1, base=Base(25, 50), centre=(36.0, 20.0),
                  mobility=4.0)
    verdict = check_move(scenario(column), Move("column", "advance", steps=(wheel(30.0),)))
    assert verdict.measurements["distance"] == pytest.approx(25 / 25.4 * 0.5)
    assert verdict.clauses() == ("t9a.valid_final_position",)
    violation = verdict.violations[0]
    assert violation.measured > 8.0 and violation.limit == 8.0
    assert math.dist(*violation.witness) == pytest.approx(violation.measured)
