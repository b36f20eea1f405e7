"""Reform model paths (seed 000; RULES.md 2.5.4.3, 2.5.5, A6, A16).

"Each model is considered to have moved from its starting position to end position, around
obstructions where needed, and no single model can move further than twice its Mobility."
Each model moves on its own, ignoring its own unit but not other units, and keeps more than
0.5" from other units and Impassable Terrain (a model is treated as a unit in a move).  The
measure is the longest shortest path (base centre) under the best assignment of models to
end slots.
"""

from __future__ import annotations

import math

import numpy as np
import shapely
from shapely.geometry import Point

from constraints.assignment import bottleneck_assignment, quick_assignment
from constraints.clauses.base import Clause
from constraints.clauses.model_moves import allowed_pairs, assign
from constraints.context import MoveContext
from constraints.domain import Pose, Unit
from constraints.encode_context import EncodeContext
from constraints.encoding import Option, inscribed_polygon
from constraints.limits import FLOAT_NOISE, within
from constraints.paths import PathFinder
from constraints.verdict import ClauseResult


class ModelPath(Clause):
    kind = "model_path"

    def check(self, ctx: MoveContext) -> ClauseResult:
        end = ctx.end_unit
        finder = ctx.scenario.path_finder(ctx.unit.id, self.params["spacing_in"])
        start_pts, end_pts = ctx.unit.model_positions(), end.model_positions()
        cost = finder.lengths(start_pts, end_pts)
        found = assign(ctx, end, cost)
        limit = self.params["mob_factor"] * ctx.mobility_in
        worst = found.worst_model
        model = ctx.unit.model_ids()[worst]
        src, dst = tuple(start_pts[worst]), tuple(end_pts[found.slots[worst]])
        path = finder.path(src, dst)
        message = (f"model {model} must walk {found.bottleneck:.3f}\" around obstructions "
                   f"under the best assignment, limit {limit:.3f}\"")
        return self.result("model_path", found.bottleneck, limit, within(found.bottleneck, limit),
                           message, tuple(path.coords))

    def encode(self, ectx: EncodeContext) -> None:
        """Per option, how far the centre may travel with every path still <= 2 x Mob.

        At the start centre the end slots are fixed; B is the bottleneck of the path lengths
        there.  Moving the centre by t moves every slot by t, and a path can append that
        straight step when the slot's disc of radius t is clear of the grown obstacles, so
        every path stays <= B + t.  Hence t <= min(2 x Mob - B, slot clearance): a disc of
        centres per option (inscribed 64-gon), sound, and tight when paths are straight.
        """
        limit = self.limit_in(ectx.unit)
        finder = ectx.scenario.path_finder(ectx.unit.id, self.params["spacing_in"])
        start = ectx.unit.model_positions()
        origin = Point(0.0, 0.0)
        for option, region in zip(ectx.options, ectx.centre_regions, strict=True):
            if option.index in ectx.enc.forbidden:
                continue  # another clause already rules it out
            needed = shapely.hausdorff_distance(origin, region) / math.cos(math.pi / 64)
            end = option_unit(ectx, option)
            radius = allowed_travel(finder, start, ectx.unit, end, limit, needed)
            if radius < 0:
                ectx.enc.forbid(option.index, self.id)
            elif radius < needed:
                lit = ectx.enc.option_vars[option.index]
                for hp in inscribed_polygon(radius, 64):
                    ectx.enc.centre_row(hp.normal, hp.rhs, [lit])


def option_unit(ectx: EncodeContext, option: Option) -> Unit:
    """The unit as the option would place it with its centre where it started."""
    unit = ectx.unit
    formation = unit.formation.reformed(option.files)
    return unit.with_formation(formation).with_pose(Pose(unit.pose.centre, option.facing_deg))


def allowed_travel(finder: PathFinder, start: np.ndarray, unit: Unit, end: Unit, limit: float,
                   needed: float) -> float:
    """How far the end centre may move from the start centre (negative: nowhere).

    The assignment minimising the sum of squared paths gives an upper bound on the
    bottleneck in one solve; the exact bottleneck is computed only when that bound would cut
    the travel below `needed`.
    """
    slots = end.model_positions()
    clearance = finder.clearance_of(slots)
    cost = finder.lengths(start, slots)
    mask = allowed_pairs(unit, end)
    rough = quick_assignment(cost, mask)
    if limit - rough - FLOAT_NOISE < min(needed, clearance):
        rough = bottleneck_assignment(cost, mask).bottleneck
    return min(limit - rough - FLOAT_NOISE, clearance)
