"""route.surface: the base stays on the surfaces it walks on, each at least half the base
wide, and never steps off a drop deeper than its Silhouette (docs/rules.md §13.4).

Rule (docs/rules.md §13.3, seed 004): the base stays in contact with the surface it moves on;
"every surface crossed must be at least half the base width wide"; a move "cannot, in any
way, cause the Trooper to fall".  Decision (docs/rules.md §13.3): a disc of half the base's
diameter round the centre stays on the walk region's surfaces, so the centre keeps a
quarter of the base's diameter (r/2) from every edge that drops by more than the
Silhouette's height; a catwalk narrower than half the base has no room for it.
"""

from __future__ import annotations

from constraints.core.verdict import ClauseResult
from constraints.infinity.clauses.base import CLEAR_TOL_IN, RouteClause, RouteExample, least
from constraints.infinity.clauses.context import RouteContext, nearest_pieces
from constraints.infinity.clauses.examples import ladder, rect, town, walk

# Two roofs 3 in high joined by a catwalk 3 in high; the fusilier up a ladder on the first.
_ROOF_A = rect("roof_a", 6, 10, 9, 14, 3.0)
_ROOF_B = rect("roof_b", 12, 10, 15, 14, 3.0)


def _catwalk(width: float) -> dict:
    half = width / 2.0
    return rect("catwalk", 9, 12 - half, 12, 12 + half, 3.0)


class Surface(RouteClause):
    id = "route.surface"

    def check(self, ctx: RouteContext) -> ClauseResult:
        half = ctx.trooper.radius_in / 2.0
        return least("surface_margin", [self.result(
            "surface_margin", gap, half, gap >= half - CLEAR_TOL_IN,
            f"the centre comes {gap:.3f} in from an edge it may not step off ({name!r} is "
            f"lower by more than the Silhouette): half the base must stay on a surface at "
            f"least half the base wide ({half:.3f} in from the edge)",
            (leg.start[:2], leg.end[:2]))
            for leg, gap, name in nearest_pieces(ctx, ctx.walk.drops_of)])

    examples = (
        RouteExample("along a roof, 1 in from its edge", town(_ROOF_A, at=(7.5, 11.0, 3)),
                     walk((7.5, 11, 3), (7.5, 13, 3)), False, ("surface_margin", 1.0)),
        RouteExample("along a roof, 0.1 in from its edge", town(_ROOF_A, at=(6.1, 11.0, 3)),
                     walk((6.1, 11, 3), (6.1, 13, 3)), True, ("surface_margin", 0.1)),
        RouteExample("a catwalk 0.6 in wide (more than half of 0.984 in) is crossed",
                     town(_ROOF_A, _ROOF_B, _catwalk(0.6), at=(8, 12, 3)),
                     walk((8, 12, 3), (13, 12, 3)), False),
        RouteExample("a catwalk 0.4 in wide (less than half of 0.984 in) is not",
                     town(_ROOF_A, _ROOF_B, _catwalk(0.4), at=(8, 12, 3)),
                     walk((8, 12, 3), (13, 12, 3)), True, ("surface_margin", 0.2)),
        RouteExample("up a ladder and along the roof, well inside",
                     town(_ROOF_A, ladder("l", (5.4, 12, 0), (6.6, 12, 3))),
                     walk((4, 12, 0), (5.4, 12, 0), (6.6, 12, 3), (8, 12, 3)), False),
    )
