"""Valid Final Position (seed 000; docs/rules.md §6).

"Each corner of the unit's end position must be within twice its Mobility value (2xMob
inches) of at least one corner's starting position."  So the measure is
max over end corners of min over start corners of the distance, and it must be <= 2 x Mob.
"""

from __future__ import annotations

import math

import numpy as np
import shapely

from constraints.core.clause import Clause, Judges, Masker, RegionPart, RuleExample, Stage
from constraints.core.limits import within
from constraints.core.verdict import ClauseResult
from constraints.geometry.batch import within_reach
from constraints.geometry.plane import Point
from constraints.rank_and_file.poses import EndRectangles, MaskSetting
from constraints.rank_and_file.regions import RegionQuery
from constraints.sat.context import EncodeContext
from constraints.sat.lattice import inscribed_polygon
from constraints.t9a.context import MoveContext
from constraints.t9a.examples import advance, field, fw, march, reform, unit, wh

VFP_SIDES = 128
CORNER_NAMES = ("front-left", "front-right", "rear-right", "rear-left")


def farthest_corner(start: tuple[Point, ...], end: tuple[Point, ...]) -> tuple[int, int, float]:
    """(end corner, its nearest start corner, their distance) for the worst end corner."""
    best = (0, 0, -1.0)
    for e, corner in enumerate(end):
        s = min(range(len(start)), key=lambda k: math.dist(corner, start[k]))
        reach = math.dist(corner, start[s])
        if reach > best[2]:
            best = (e, s, reach)
    return best


class ValidFinalPosition(Clause):
    id = "t9a.valid_final_position"
    judges = Judges.END_POSE  # start and end corners only, whatever the way between

    examples = (
        RuleExample("8\" straight ahead: each front corner ends 8\" from its start",
                    field(unit(centre=(36.0, 5.0))), march(fw(8.0)), False,
                    ("valid_final_position", 8.0)),
        RuleExample("a hundredth more is too far", field(unit(centre=(36.0, 5.0))),
                    march(fw(8.01)), True, ("valid_final_position", 8.01)),
        RuleExample("a corner need not stay near its own start corner: a quarter turn in "
                    "place reaches 1.5 x sqrt(2)", field(), reform(facing=0.0), False,
                    ("valid_final_position", 2.121320343559643)),
        RuleExample("a conga line's cheap 30 deg wheel swings its rear too far",
                    field(unit("column", models=12, files=1, base=(25.0, 50.0),
                               centre=(36.0, 20.0))),
                    advance(wh(30.0), uid="column"), True),
        RuleExample("three wheels of 10 deg end where one of 30 deg does: too far",
                    field(unit("column", models=12, files=1, base=(25.0, 50.0),
                               centre=(36.0, 20.0))),
                    advance(wh(10.0), wh(10.0), wh(10.0), uid="column"), True),
        RuleExample("three wheels that turn back end within reach",
                    field(unit("column", models=12, files=1, base=(25.0, 50.0),
                               centre=(36.0, 20.0))),
                    march(wh(10.0), fw(1.0), wh(-20.0), fw(1.0), wh(10.0), uid="column"), False),
    )

    def check(self, ctx: MoveContext) -> ClauseResult:
        start, end = ctx.unit.corners(), ctx.end_unit.corners()
        e, s, reach = farthest_corner(start, end)
        limit = self.number("mob_factor") * ctx.mobility_in
        message = (f"{CORNER_NAMES[e]} corner ends {reach:.3f}\" from the nearest start corner "
                   f"({CORNER_NAMES[s]}), limit {limit:.3f}\"")
        return self.result("valid_final_position", reach, limit, within(reach, limit), message,
                           (end[e], start[s]))

    def masker(self, setting: MaskSetting) -> Masker:
        limit, start = self.limit_in(setting.unit), setting.start_corners

        def judge(poses: EndRectangles, ok: np.ndarray) -> np.ndarray:
            todo = np.flatnonzero(ok)
            out = ok.copy()
            out[todo] = within_reach(poses.xs[:, todo], poses.ys[:, todo], start,
                                     limit + poses.tol)
            return out
        return Masker(self.id, Stage.END, judge)

    def region(self, query: RegionQuery) -> RegionPart | None:
        """Per end corner, the union of the discs about the start corners (shifted by the
        corner's offset), where no one disc holds the whole base region already; nothing in
        a relaxed region (below)."""
        setting, limit = query.setting, self.limit_in(query.setting.unit)
        if setting.outer:
            # A relaxation may leave a rule out.  Measured (benchmarks/bench_solve.py): in the
            # pruning's relaxed regions these discs dropped no option on the bench cases and
            # cost 10-15% of a March's solve, so the relaxation leaves them out.
            return None
        reach = limit * float(np.hypot(*setting.circle.T).max())  # the discs' outer radius
        keep = []
        for c in range(4):
            # Per start corner (rows), the farthest this end corner gets over the base region.
            far = np.hypot(*(query.corners[:, c, None] - setting.start[None]).T).max(axis=1)
            if far.min() <= limit:
                continue  # one start corner's disc holds every end: nothing binds
            # Only the discs that reach the base region can matter (the nearest end is the
            # base's nearest point shifted by the corner's offset).
            centres = setting.start - query.offsets[c]
            near = shapely.distance(query.base, shapely.points(centres)) <= reach
            discs = shapely.polygons(setting.circle[None] * limit + centres[near][:, None])
            keep.append(discs[0] if len(discs) == 1 else shapely.union_all(discs))
        return RegionPart(keep=keep) if keep else None

    def encode(self, ectx: EncodeContext) -> None:
        """Each end corner in a 128-gon inscribed in the 2 x Mob disc of some start corner:
        one Boolean per (end corner, start corner), rows enforced by it, an OR per end corner.
        Gives up 2 x Mob x (1 - cos(pi/128)), 0.0024" at 8", plus half a tick of rounding.
        Sides that no end corner of any option can reach are left out (they cannot bind)."""
        enc = ectx.enc
        rows = inscribed_polygon(self.limit_in(ectx.unit), VFP_SIDES)
        normals = np.array([hp.normal for hp in rows])
        for c in range(4):
            reach = corner_support(ectx, c, normals)
            near = []
            for s, (sx, sy) in enumerate(ectx.start_corners):
                binding = [hp for hp, h in zip(rows, reach, strict=True)
                           if h - hp.normal[0] * sx - hp.normal[1] * sy > hp.rhs - enc.tick]
                if not binding:
                    break  # this corner is always near start corner s: nothing to post
                lit = enc.sat_model.new_bool_var(f"corner_{c}_near_start_{s}")
                for hp in binding:
                    shift = hp.normal[0] * sx + hp.normal[1] * sy
                    enc.corner_row(c, hp.normal, hp.rhs + shift, [lit])
                near.append(lit)
            else:
                enc.bool_or(near)


def corner_support(ectx: EncodeContext, corner: int, normals: np.ndarray) -> np.ndarray:
    """For each direction, the furthest end corner `corner` can reach along it (frame
    inches): the region's support plus the option's corner offset, maximised over options.
    Options sharing a region (a Reform's) share its support."""
    best = np.full(len(normals), -np.inf)
    support: dict[int, np.ndarray] = {}
    offsets: dict[int, list[tuple[float, float]]] = {}
    for corners, region in zip(ectx.corner_offsets, ectx.centre_regions, strict=True):
        key = id(region)
        if key not in support:
            support[key] = (np.asarray(shapely.get_coordinates(region)) @ normals.T).max(axis=0)
            offsets[key] = []
        offsets[key].append(corners[corner])
    for key, h in support.items():
        best = np.maximum(best, h + (np.asarray(offsets[key]) @ normals.T).max(axis=0))
    return best
