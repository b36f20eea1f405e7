"""Dangerous Terrain tests (RULES §2.13.2; seed 000's mid-move actions; docs/rules.md §3.5).

"A Dangerous Terrain test is taken at the end of a March ... if the unit touched such terrain
during it"; a Light Troops Reform beyond Mob "counts as a March".  The number of dice is
ceil(models / 2) x Height for each Health Pool that touched the terrain; a unit here is one
Health Pool (the scenario has no key for more).  Each feature is tested on its own.

This is not a legality clause: a move through Dangerous Terrain is legal and the verdict
reports the tests it triggers (`dangerous_terrain`).  What "touched during" means:

- a March: the area the Front Facing sweeps (RULES §2.4.10: mid-move positions collapse onto
  the Front Facing, which travels the path and re-expands at the end), touching included;
- a Light Troops Reform whose centre travels more than the unit's Mobility: its end position
  and, where the move states it (`mid`), its placement mid-move (seed 000, "Mid-Reform Move
  Actions": the unit is placed where its position becomes relevant; `reform_mid_placement.py` judges
  that placement).  Without `mid` the models' own walks are not followed and the verdict
  carries a note saying so (`unchecked_mid`; docs/rules.md §5.6);
- an Advance or any other Reform: never (they do not trigger the test).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import shapely

from constraints.rank_and_file.unit import Unit

TOUCH_IN = 1e-6  # docs/architecture.md: touching is a distance within 1e-6"


@dataclass(frozen=True)
class DangerousTest:
    """One test: the feature, the dice rolled and the score each must beat (its `test`)."""

    terrain: str
    dice: int
    test: int | None

    def to_json(self) -> dict[str, Any]:
        return {"terrain": self.terrain, "dice": self.dice, "test": self.test}


def dice(unit: Unit) -> int:
    """ceil(models / 2) x Height, the whole unit as one Health Pool."""
    return math.ceil(unit.formation.model_count / 2) * unit.height


def tests_for(scenario: Any, unit: Unit, touched: list[shapely.Geometry]) -> tuple[
        DangerousTest, ...]:
    """The tests a unit takes whose mid-move and end shapes `touched` cover, one per
    Dangerous Terrain feature any of them touches, in the scenario's terrain order."""
    found = []
    shapes = [s for s in touched if s is not None and not s.is_empty]
    for feature in scenario.terrain:
        if feature.kind != "dangerous" or not shapes:
            continue
        if min(float(shapely.distance(s, feature.shape)) for s in shapes) <= TOUCH_IN:
            found.append(DangerousTest(feature.id, dice(unit), feature.test))
    return tuple(found)


def light_troops_march(unit: Unit, centre_travel_in: float) -> bool:
    """A Light Troops Reform beyond Mob counts as a March (RULES §2.13.2)."""
    return unit.light_troops and centre_travel_in > unit.mobility_in


def move_tests(ctx: Any) -> tuple[DangerousTest, ...]:
    """The tests the move of `ctx` (a T9A MoveContext) triggers."""
    manoeuvre = ctx.move.manoeuvre.value
    if manoeuvre == "march":
        return tests_for(ctx.scenario, ctx.unit, list(ctx.trajectory.front_sweep_parts))
    if manoeuvre == "reform" and reform_counts_as_march(ctx):
        placed = [ctx.end_unit.boundary()]
        if ctx.mid_unit is not None:
            placed.insert(0, ctx.mid_unit.boundary())
        return tests_for(ctx.scenario, ctx.unit, placed)
    return ()


def reform_counts_as_march(ctx: Any) -> bool:
    start, end = ctx.unit, ctx.end_unit
    return light_troops_march(start, math.dist(start.pose.centre, end.pose.centre))


UNCHECKED_MID = ("a Light Troops Reform beyond Mob counts as a March: Dangerous Terrain is "
                 "judged at its end position only; where the models enter it on the way, the "
                 "unit's placement mid-move (seed 000) is not checked: state it as `mid` to "
                 "have it judged")


def unchecked_mid(ctx: Any) -> tuple[str, ...]:
    """The verdict's note for a Reform that counts as a March, states no placement mid-move
    and has Dangerous Terrain on the table (its walks may cross it unseen)."""
    if ctx.move.manoeuvre.value != "reform" or ctx.mid_unit is not None:
        return ()
    if not any(f.kind == "dangerous" for f in ctx.scenario.terrain):
        return ()
    return (UNCHECKED_MID,) if reform_counts_as_march(ctx) else ()


def _marsh(x0: float, y0: float, x1: float, y1: float, test: int = 4,
           tid: str = "marsh") -> dict[str, Any]:
    return {"id": tid, "kind": "dangerous", "polygon": [[x0, y0], [x1, y0], [x1, y1], [x0, y1]],
            "test": test}


def _examples() -> tuple[tuple[str, dict, dict, tuple[tuple[str, int, int | None], ...]], ...]:
    """(why, scenario, move, tests) from the rule text.  The default unit (examples.py) is
    5 x 2 on 1" bases, Height 1, front edge y = 11 from x = 33.5 to 38.5, Mob 4."""
    from constraints.t9a.examples import advance, field, fw, march, reform, unit, wh

    ahead = _marsh(34.0, 14.0, 38.0, 16.0)
    return (
        ("a March through Dangerous Terrain: ceil(10 / 2) x Height 1 dice",
         field(unit(), terrain=(ahead,)), march(fw(8.0)), (("marsh", 5, 4),)),
        ("a March stopping 0.1\" short of it does not touch it",
         field(unit(), terrain=(ahead,)), march(fw(2.9)), ()),
        ("ending with the front on its edge touches it",
         field(unit(), terrain=(ahead,)), march(fw(3.0)), (("marsh", 5, 4),)),
        ("Height 2, 9 models: ceil(9 / 2) x 2 = 10 dice",
         field(unit(models=9, height=2), terrain=(ahead,)), march(fw(8.0)),
         (("marsh", 10, 4),)),
        ("only the Front Facing counts: the rear swings over terrain behind it",
         field(unit(mobility=6.0), terrain=(_marsh(39.0, 6.0, 41.0, 8.0),)),
         march(wh(-90.0)), ()),
        ("two features: a test for each, in the scenario's order",
         field(unit(), terrain=(ahead, _marsh(34.0, 17.0, 38.0, 18.0, 5, "ford"))),
         march(fw(8.0)), (("marsh", 5, 4), ("ford", 5, 5))),
        ("an Advance does not take the test",
         field(unit(), terrain=(ahead,)), advance(fw(4.0)), ()),
        ("a Reform does not take the test",
         field(unit(), terrain=(_marsh(34.0, 11.5, 38.0, 13.0),)),
         reform(centre=(36.0, 11.5)), ()),
        ("a Light Troops Reform beyond Mob counts as a March",
         field(unit(light_troops=True), terrain=(_marsh(34.0, 15.0, 38.0, 16.0),)),
         reform(centre=(36.0, 14.5)), (("marsh", 5, 4),)),
        ("a Light Troops Reform placed mid-move in the terrain (seed 000) takes the test, "
         "though it ends beyond it",
         field(unit(light_troops=True), terrain=(_marsh(34.0, 15.0, 38.0, 16.0),)),
         reform(centre=(36.0, 17.5), mid={"centre": [36.0, 14.5], "facing": 90.0}),
         (("marsh", 5, 4),)),
        ("without the placement, only its end position is judged (a note says so)",
         field(unit(light_troops=True), terrain=(_marsh(34.0, 15.0, 38.0, 16.0),)),
         reform(centre=(36.0, 17.5)), ()),
        ("a Light Troops Reform within Mob does not",
         field(unit(light_troops=True), terrain=(_marsh(34.0, 13.5, 38.0, 16.0),)),
         reform(centre=(36.0, 14.0)), ()),
    )


EXAMPLES = _examples()
