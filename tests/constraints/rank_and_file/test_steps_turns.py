"""Steps shared by the rank-and-file systems: what a turn is, what a wheel costs, and how a
turn on the spot re-forms the unit (seed 003)."""

import math

import pytest
from shapely.geometry import box

from constraints.core.scenario import Pose
from constraints.errors import InvalidInputError
from constraints.rank_and_file.formation import Character, Formation
from constraints.rank_and_file.kinematics import Costs, arc, chord, projected, snake
from constraints.rank_and_file.steps import forward, turn, wheel
from constraints.rank_and_file.turns import turned
from constraints.rank_and_file.unit import Base, Unit
from constraints.t9a.move_io import move_from_json as t9a_move
from constraints.t9a.moves import Manoeuvre, Move
from constraints.whfb7.move_io import move_from_json as whfb7_move


def block(files: int, models: int, base: tuple[float, float] = (20.0, 20.0),
          facing: float = 90.0, characters: tuple[Character, ...] = ()) -> Unit:
    return Unit("u", "red", Base(*base), Formation(files, models, characters),
                Pose((10.0, 10.0), facing), 4.0)


@pytest.mark.parametrize("angle", [45.0, 0.0, 270.0, -135.0])
def test_a_turn_is_a_quarter_or_a_half(angle):
    with pytest.raises(InvalidInputError, match="turn of 90, -90 or 180"):
        turn(angle)


def test_minus_180_is_the_half_turn():
    assert turn(-180.0).value == 180.0


def test_a_t9a_move_has_no_turn():
    with pytest.raises(InvalidInputError, match="no turn step"):
        Move("u", Manoeuvre.MARCH, steps=(turn(90.0),))


def test_steps_read_only_the_kinds_of_the_system():
    move = whfb7_move({"unit": "u", "manoeuvre": "march",
                       "steps": [{"turn": 90}, {"forward": 1.0}]})
    assert move.steps == (turn(90.0), forward(1.0))
    with pytest.raises(InvalidInputError, match="turn"):
        t9a_move({"unit": "u", "manoeuvre": "march", "steps": [{"turn": 90}]})
    with pytest.raises(InvalidInputError, match="90, -90 or 180"):
        whfb7_move({"unit": "u", "manoeuvre": "march", "steps": [{"turn": 45}]})


def test_wheel_costs():
    width = 100.0 / 25.4  # seed 003 / RULES §4.2: a 100 mm frontage wheeling 90 degrees
    assert arc(width, 90.0) == pytest.approx(6.184, abs=1e-3)
    assert arc(width, -90.0) == arc(width, 90.0)
    assert chord(width, 90.0) == pytest.approx(width * math.sqrt(2.0))
    assert projected(width, 90.0) == pytest.approx(width)
    assert projected(width, 30.0) < chord(width, 30.0) < arc(width, 30.0)


@pytest.mark.parametrize("angle", [90.0, -90.0, 180.0])
def test_a_full_square_block_turns_in_its_own_footprint(angle):
    unit = block(5, 10)
    after = turned(unit, angle)
    assert after.formation.model_count == 10
    assert after.boundary().symmetric_difference(unit.boundary()).area < 1e-9
    assert after.pose.facing_deg == pytest.approx((90.0 + angle) % 360.0)


def test_an_incomplete_rear_rank_goes_to_the_back():
    unit = block(5, 12)          # two full ranks of 5, two models behind
    after = turned(unit, 90.0)   # facing west: two files, the leftovers at the east end
    assert (after.files, after.formation.ranks) == (2, 6)
    front = unit.corners()[0][1]  # the two full ranks: the front 2 x 20 mm
    full_block = box(unit.corners()[0][0], front - 40.0 / 25.4, unit.corners()[1][0], front)
    assert after.boundary().intersection(full_block).area == pytest.approx(full_block.area)
    assert max(x for x, _ in after.corners()) > max(x for x, _ in unit.corners())
    half = turned(unit, 180.0)   # the leftovers now behind, where the front was
    assert (half.files, half.formation.ranks) == (5, 3)
    assert max(y for _, y in half.corners()) > max(y for _, y in unit.corners())


def test_characters_step_into_the_new_front_rank():
    unit = block(5, 9, characters=(Character("hero", (1, 2)),))
    after = turned(unit, -90.0)
    assert [c.slot[0] for c in after.formation.characters] == [0]


def test_snake_charges_turns_and_wheels_as_told():
    unit = block(5, 10)
    costs = Costs(arc, 1.0)
    way = snake(unit, 0.0, (turn(90.0), forward(2.0), wheel(-90.0)), costs)
    assert [leg.cost_in for leg in way.legs] == pytest.approx(
        [1.0, 2.0, arc(2 * 20.0 / 25.4, 90.0)])  # after the turn the frontage is two models
    assert way.formation is not None and way.formation.files == 2
    assert snake(unit, 0.0, (forward(1.0),)).formation is None
