"""The simplest of the near-best answers (docs/formats.md, "Search result").

A search's best move may wheel, turn or change files where a plainer move does as well: an
Advance that pivots, steps 0.063" and wheels -90 deg where pivoting and stepping 4" ends as
near the target; a Reform to 3 files where 5 do as well.  After the search, the plainer
options alone are searched again, plainest first: by exact geometry (optimizer.search.
geometric: their sound regions' best points, judged by the checker; counted work), or, for a
family that does not answer by geometry, by CP-SAT when they are at most MAX_SOLVED:

1. no wheel, no turn and the unit's own files (a Pivot and straight legs; a Reform that
   keeps its facing and files);
2. the unit's own files (any way).

Objectives whose exact value is not the search's order (`Goal.exact_orders`: face_point) are
left alone.  The first whose best answer is within a lattice step of the search's value replaces it,
judged by the exact checker as every answer is.  It never costs a proof: an OPTIMAL answer
is replaced only by one within the tolerance of the same bound (of equal value when the proof
has no tolerance: optimal on the lattice), which holds for every legal move whichever of them
is returned; a FEASIBLE answer keeps its status and bound.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from constraints.rank_and_file.steps import StepKind
from constraints.sat.option import Option
from optimizer.search.clock import Clock
from optimizer.search.geometric import geometric_answer
from optimizer.search.request import SearchRequest
from optimizer.search.result import SearchResult, Status

SAME_ANGLE = 1e-9
SAME_VALUE = 1e-9  # an OPTIMAL answer without a tolerance: only an equal value replaces it
MAX_SOLVED = 8  # plain options solved again by CP-SAT when geometry does not answer


def _own_files(request: SearchRequest) -> Callable[[Option], bool]:
    return lambda o: o.files == request.unit.files


def _straight(request: SearchRequest) -> Callable[[Option], bool]:
    def plain(o: Option) -> bool:
        turned = o.frame_facing_deg - 90.0 - o.pivot_deg
        return abs(o.wheel_deg) < SAME_ANGLE and abs(turned) < SAME_ANGLE and \
            o.files == request.unit.files
    return plain


def _is_straight(request: SearchRequest, move: Any) -> bool:
    turning = any(s.kind in (StepKind.WHEEL, StepKind.TURN) for s in getattr(move, "steps", ()))
    facing = getattr(move, "facing_deg", None)
    return not turning and _has_own_files(request, move) and (
        facing is None or abs((facing - request.unit.pose.facing_deg + 180.0) % 360.0 - 180.0)
        < SAME_ANGLE)


def _has_own_files(request: SearchRequest, move: Any) -> bool:
    files = getattr(move, "files", None)
    return files is None or files == request.unit.files


TIERS = ((_straight, _is_straight), (_own_files, _has_own_files))


def simplest(request: SearchRequest, options: list[Option], regions: list,
             result: SearchResult, clock: Clock,
             solve_kept: Callable[..., SearchResult]) -> SearchResult:
    """`result`, or the plainest answer within a lattice step of its value (see above);
    `solve_kept(request, keep, incumbent, clock, regions)` is the search's CP-SAT solve."""
    if result.move is None or result.value is None or not request.goal.exact_orders or \
            result.status not in (Status.OPTIMAL, Status.FEASIBLE):
        return result
    for option_is_plain, move_is_plain in TIERS:
        if move_is_plain(request, result.move):
            return result  # as plain as this tier; a later tier is plainer by no measure
        keep = [k for k, o in enumerate(options) if option_is_plain(request)(o)]
        if not keep or len(keep) == len(options) or clock.expired():
            continue
        plain = _plain_answer(request, [options[k] for k in keep], keep, regions, clock,
                              solve_kept)
        if plain is not None and _as_good(request, result, *plain[1:]):
            move, verdict, value = plain
            return replace(result, move=move, verdict=verdict, value=value,
                           stats={**result.stats, "simplest": {
                               "replaced_value": result.value, "value": value}})
    return result


def _plain_answer(request: SearchRequest, plain: list[Option], keep: list[int],
                  regions: list, clock: Clock,
                  solve_kept: Callable[..., SearchResult]) -> tuple[Any, Any, float] | None:
    """The best legal move found among the plain options: by exact geometry where the
    family answers so (counted work), else by CP-SAT when they are few."""
    if request.family.answers_by_geometry:
        bounds = request.goal.bounds(plain, [regions[k] for k in keep])
        found = geometric_answer(request, plain, bounds, clock, share=1.0).answer
        if found is None:
            return None
        return found.move, found.verdict, request.goal.exact(found.verdict)
    if len(keep) > MAX_SOLVED:
        return None
    answer = solve_kept(request, keep, None, clock, [regions[k] for k in keep])
    if answer.move is None or answer.value is None:
        return None
    return answer.move, answer.verdict, answer.value


def _as_good(request: SearchRequest, result: SearchResult, verdict: Any, value: float) \
        -> bool:
    """Legal, within a lattice step of the search's value, and within an OPTIMAL answer's
    tolerance of its bound."""
    if not verdict.legal or result.value is None:
        return False
    worse = value - result.value if not request.objective.maximise else result.value - value
    if worse >= request.lattice.inch:
        return False
    if result.status == Status.OPTIMAL:  # proved: stays within what was proved
        slack = SAME_VALUE if result.tolerance is None else result.tolerance
        return result.bound is not None and abs(value - result.bound) <= slack
    return True
