"""route.end_surface: a Move ends with the whole base on one surface to stand on (docs/
rules.md §13.4); with Move + Move, the first Move's end too.

Rule (docs/rules.md §13.3, seed 004 "Order (Move + Move) on surfaces that are smaller than the
base"): a Move "must end on a surface at least the base", "also checked at the end of the
first Move"; "in case B, it is not possible to carry out the movement because there is no
valid surface at the end of the first Movement value".  Decision: the base lies wholly on
one flat piece of surface (the ground or a roof; a wall's or a crate's top is no place to
stop).  Measured: how far the base reaches off that piece.
"""

from __future__ import annotations

import shapely

from constraints.core.verdict import ClauseResult
from constraints.infinity.clauses.base import (
    CLEAR_TOL_IN,
    EVERY_SKILL,
    Kept,
    RouteClause,
    RouteExample,
    merged,
)
from constraints.infinity.clauses.context import RouteContext
from constraints.infinity.clauses.examples import rect, skill, town, walk
from constraints.infinity.scenery import Point3
from constraints.infinity.surfaces import table_of

# A catwalk 0.6 in wide (more than half a 25 mm base, less than the base) between two roofs.
_LEDGE = (rect("roof_a", 0, 10, 4, 14, 3.0), rect("catwalk", 4, 11.7, 12, 12.3, 3.0),
          rect("roof_b", 12, 10, 16, 14, 3.0))


class EndSurface(RouteClause):
    id = "route.end_surface"
    skills = EVERY_SKILL
    kept = Kept.END
    spots_only = True

    def check(self, ctx: RouteContext) -> ClauseResult:
        return merged([self._end(ctx, name, p, k) for k, (name, p) in enumerate(ctx.ends())])

    def _end(self, ctx: RouteContext, name: str, p: Point3, k: int) -> ClauseResult:
        r = ctx.trooper.radius_in
        label = "end_overhang" if k == len(ctx.ends()) - 1 else "midpoint_overhang"
        piece_k = ctx.walk.surfaces.piece_at(*p)
        if piece_k is None:
            return self.result(label, r, 0.0, False, f"{name} is on no surface at "
                               f"level {p[2]:g} in", (p[:2],))
        piece = ctx.walk.surfaces.pieces[piece_k]
        if not piece.standable:
            return self.result(label, r, 0.0, False, f"{name} is on top of {piece.id!r}, "
                               f"which is no surface to stand on", (p[:2],))
        flat = ctx.walk.surfaces.flat(piece_k)
        outside = table_of(ctx.scenario).difference(flat)
        centre = shapely.Point(p[:2])
        gap = float(outside.distance(centre)) if not outside.is_empty else r
        over = max(0.0, r - gap) if flat.covers(centre) else r + gap
        return self.result(label, over, 0.0, over <= CLEAR_TOL_IN,
                           f"at {name} the base reaches {over:.3f} in off "
                           f"{'the ground' if piece.scenery is None else repr(piece.id)}: a "
                           f"Move ends on a surface at least the base", (p[:2],))

    examples = (
        RouteExample("ends on the ground", town(), walk((4, 12, 0), (7, 12, 0)), False,
                     ("end_overhang", 0.0)),
        RouteExample("ends on a roof, 1 in inside", town(rect("house", 6, 10, 10, 14, 1.0)),
                     walk((4, 12, 0), (7, 12, 1)), False, ("end_overhang", 0.0)),
        RouteExample("ends 0.3 in inside a roof's edge: 0.192 in of the base hangs off",
                     town(rect("house", 6, 10, 10, 14, 1.0)), walk((4, 12, 0), (6.3, 12, 1)),
                     True, ("end_overhang", 25 / 25.4 / 2 - 0.3)),
        RouteExample("a low wall's top is no place to stop",
                     town(rect("wall", 6, 8, 6.3, 16, 0.8, kind="obstacle")),
                     walk((4, 12, 0), (6.15, 12, 0.8)), True),
        RouteExample("Move + Move along an 8 in catwalk 0.6 in wide: the first Move would end "
                     "where the base does not fit",
                     town(*_LEDGE, at=(2, 12, 3)),
                     walk((2, 12, 3), (6, 12, 3), (10, 12, 3), mid=(6, 12, 3)), True,
                     ("midpoint_overhang", 25 / 25.4 / 2 - 0.3)),
        RouteExample("Move + Move stopping on roof A, ending on roof B: both bases fit",
                     town(*_LEDGE, at=(2, 12, 3)),
                     walk((2, 12, 3), (3.5, 12, 3), (13, 12, 3), mid=(3.5, 12, 3)), False),
        RouteExample("two touching roofs of one height are one surface to stand on",
                     town(rect("a", 6, 10, 8, 14, 1.0), rect("b", 8, 10, 10, 14, 1.0)),
                     walk((4, 12, 0), (8, 12, 1)), False, ("end_overhang", 0.0)),
        RouteExample("a Jump needs a landing spot at least the base: not a 0.6 in catwalk",
                     town(*_LEDGE, at=(3.5, 12, 3)), skill("jump", (3.5, 12, 3), (6, 12, 3)),
                     True, ("end_overhang", 25 / 25.4 / 2 - 0.3)),
        RouteExample("a Jump landing on the far roof", town(*_LEDGE, at=(3.5, 12, 3)),
                     skill("jump", (3.5, 12, 3), (6, 12, 3), (12.6, 12, 3)), False),
    )
