"""Unit Spacing after a Post-Combat Pivot (A13, read as A20; RULES §2.3.2, §2.4.6).

A stand-alone Pivot is not partway through a move, so the end counts: no contact or overlap,
and more than 1" from other units and Impassable Terrain, "except towards units already within
1" before the pivot" (A13), which may not come closer than the unit stood (A20: towards an
object the unit starts within the limit of, the limit becomes the start distance; into contact
only with a friend it started in contact with, and never overlapping).

Measured: for the object nearest its limit, the distance after the pivot; the limit is 1"
(strictly more than) or, for an object within 1" before, the start distance (at least).
"""

from __future__ import annotations

from dataclasses import dataclass

import shapely

from constraints.core.clause import Clause, Judges, RuleExample
from constraints.core.limits import FLOAT_NOISE, more_than
from constraints.core.verdict import ClauseResult
from constraints.geometry.plane import closest_points
from constraints.rank_and_file.contact import CONTACT_IN
from constraints.t9a.clauses.post_combat.examples import pcp
from constraints.t9a.context import MoveContext
from constraints.t9a.examples import field, unit, wall

OVERLAP_AREA = 1e-9  # square inches: more than this in common is an overlap, not a touch


@dataclass(frozen=True)
class _Gap:
    label: str
    before: float
    after: float
    limit: float
    legal: bool
    why: str
    shape: shapely.Geometry

    @property
    def margin(self) -> float:
        return self.after - self.limit


def _gap(label: str, shape: shapely.Geometry, start: shapely.Geometry,
         end: shapely.Geometry, spacing: float, friend: bool) -> _Gap:
    before, after = float(start.distance(shape)), float(end.distance(shape))
    if not before <= spacing:  # more than 1" away before: the normal rule
        return _Gap(label, before, after, spacing, more_than(after, spacing),
                    f"must be more than {spacing:.3f}\"", shape)
    overlap = after <= CONTACT_IN and float(end.intersection(shape).area) > OVERLAP_AREA
    touching = after <= CONTACT_IN
    legal = after >= before - FLOAT_NOISE and not overlap \
        and (not touching or (friend and before <= CONTACT_IN))
    why = (f"it stood {before:.3f}\" away (within {spacing:.3f}\"), so it may not come closer"
           + (", nor touch it" if not (friend and before <= CONTACT_IN) else "")
           + (": it overlaps" if overlap else ""))
    return _Gap(label, before, after, before, legal, why, shape)


def _rocks_below(top: float) -> dict:
    return field(unit(), terrain=(wall("rocks", 30.0, top - 1.0, 42.0, top),))


class PostCombatSpacing(Clause):
    id = "t9a.post_combat_pivot.unit_spacing"
    judges = Judges.END_POSE

    examples = (
        RuleExample("a Pivot in the open", field(), pcp(90.0), False),
        RuleExample("a quarter turn bringing the rear to exactly 1\" of rocks 2.5\" behind",
                    _rocks_below(6.5), pcp(90.0), True, ("post_combat_clearance", 1.0)),
        RuleExample("a hair more than 1\" is fine", _rocks_below(6.499), pcp(90.0), False,
                    ("post_combat_clearance", 1.001)),
        RuleExample("a wall 0.3\" behind the unit: it may about-face (A20)", _rocks_below(8.7),
                    pcp(180.0), False, ("post_combat_clearance", 0.3)),
        RuleExample("but not turn a quarter: its rear would go into the wall",
                    _rocks_below(8.7), pcp(90.0), True, ("post_combat_clearance", 0.0)),
        RuleExample("a friend touching its flank: an about-face stays in contact",
                    field(unit(), unit("f", models=4, files=2, centre=(39.5, 10.0))),
                    pcp(180.0), False, ("post_combat_clearance", 0.0)),
        RuleExample("a friend touching its flank: a quarter turn leaves it 1.5\" away",
                    field(unit(), unit("f", models=4, files=2, centre=(39.5, 10.0))),
                    pcp(90.0), False, ("post_combat_clearance", 1.5)),
        RuleExample("an enemy 2\" ahead: a quarter turn brings the front to 0.5\" of it",
                    field(unit(), unit("e", models=5, files=5, centre=(36.0, 13.5),
                                       facing=270.0, player="blue")),
                    pcp(90.0), True, ("post_combat_clearance", 0.5)),
        RuleExample("an enemy 0.5\" ahead (grandfathered): a quarter turn overlaps it",
                    field(unit(), unit("e", models=5, files=5, centre=(36.0, 12.0),
                                       facing=270.0, player="blue")),
                    pcp(90.0), True, ("post_combat_clearance", 0.0)),
    )

    def check(self, ctx: MoveContext) -> ClauseResult:
        spacing = self.number("spacing_in")
        start, end = ctx.unit.boundary(), ctx.end_unit.boundary()
        friends = {f"unit {u.id}" for u in ctx.scenario.units if u.player == ctx.unit.player}
        gaps = [_gap(label, shape, start, end, spacing, label in friends)
                for label, shape in ctx.obstacles]
        if not gaps:
            return self.result("post_combat_clearance", float("inf"), spacing, True, "")
        worst = min(gaps, key=lambda g: (g.legal, g.margin))
        message = (f"after the Post-Combat Pivot the unit is {worst.after:.3f}\" from "
                   f"{worst.label}; {worst.why}")
        return self.result("post_combat_clearance", worst.after, worst.limit, worst.legal,
                           message, closest_points(end, worst.shape))
