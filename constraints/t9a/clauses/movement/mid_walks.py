"""Each model's walk through a Reform's mid-move placement (seed 000, "Mid-Reform Move
Actions"; docs/rules.md §5.6): "When measuring the distance each model moves, measure from
starting position, to the position it is placed mid-move, and then finally to its ending
position."

Both legs are walks round obstructions (`t9a.reform.model_path`'s path finder), and which
model stands where mid-move and at the end is the best for the mover: the relay assignment
minimising the longest walk (constraints/geometry/relay.py).  A character that starts in the
front rank stands in it mid-move and at the end.
"""

from __future__ import annotations

from dataclasses import dataclass

from constraints.errors import InvalidInputError
from constraints.geometry.paths import PathFinder
from constraints.geometry.relay import RelayTooLarge, relay_assignment
from constraints.rank_and_file.unit import Unit
from constraints.t9a.clauses.movement.model_moves import allowed_pairs, chosen_slots
from constraints.t9a.context import MoveContext

Point2 = tuple[float, float]


@dataclass(frozen=True)
class RelayWalk:
    """The longest walk under the best relay, whose it is, and its path (start, mid, end)."""

    longest_in: float
    model: str
    path: tuple[Point2, ...]


def relay_walk(ctx: MoveContext, mid: Unit, finder: PathFinder) -> RelayWalk:
    """The longest model walk start -> mid place -> end slot under the best relay."""
    end = ctx.end_unit
    start_pts, mid_pts, end_pts = (ctx.unit.model_positions(), mid.model_positions(),
                                   end.model_positions())
    first, second = finder.lengths(start_pts, mid_pts), finder.lengths(mid_pts, end_pts)
    try:
        found = relay_assignment(first, second, allowed_pairs(ctx.unit, mid),
                                 allowed_pairs(ctx.unit, end), chosen_slots(ctx, end))
    except RelayTooLarge as exc:
        raise InvalidInputError(f"the walks through the mid-move placement cannot be weighed "
                                f"exactly ({exc}): give an assignment of the end slots",
                                path="$.mid") from None
    worst = found.worst_model
    src = tuple(start_pts[worst])
    via = tuple(mid_pts[found.mids[worst]])
    dst = tuple(end_pts[found.ends[worst]])
    legs = list(finder.path(src, via).coords) + list(finder.path(via, dst).coords)[1:]
    return RelayWalk(found.bottleneck, ctx.unit.model_ids()[worst],
                     tuple((float(x), float(y)) for x, y in legs))
