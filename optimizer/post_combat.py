"""The best Post-Combat Pivot (`solve --manoeuvre post_combat_pivot --face X,Y | --facing DEG`;
docs/rules.md §11.9).

A Pivot keeps the centre, so a move is one number, the pivot angle, and the search is exact
enumeration: the pivot that meets the objective exactly (the facing asked for, or straight at
the point), then every whole-degree pivot from the start facing, each judged by the exact
checker in order of the objective, the first legal one wins.  OPTIMAL is therefore proved on
that lattice (like a Reform's): no whole-degree pivot, nor the exact one, does better; a legal
angle between two whole degrees is not ruled out unless the answer meets the objective exactly
(bound 0).  Pivoting by 0 is among the candidates, so a unit that may pivot at all always has
an answer; INFEASIBLE comes only from a clause that refuses every pivot (a unit still Engaged,
fleeing or pursuing), or from every candidate failing (then on the lattice).
"""

from __future__ import annotations

import math
import time

from constraints.core.scenario import Scenario
from constraints.core.status import Status
from constraints.errors import InvalidInputError
from constraints.geometry.frame import Frame
from constraints.geometry.plane import angle_between_deg, normalise_deg
from constraints.rank_and_file.unit import Unit
from constraints.sat.lattice import Lattice
from constraints.t9a.checker import check_move
from constraints.t9a.moves import Manoeuvre, Move
from optimizer.search.objectives import Objective
from optimizer.search.proof import Proof
from optimizer.search.result import SearchResult

MANOEUVRE = "post_combat_pivot"
OBJECTIVES = ("face_point", "target_pose")


def signed(angle_deg: float) -> float:
    """The same turn in (-180, 180]."""
    wrapped = normalise_deg(angle_deg)
    return wrapped - 360.0 if wrapped > 180.0 else wrapped


def best_pivot(scenario: Scenario, unit_id: str, objective: Objective, *,
               time_limit_s: float = 10.0) -> SearchResult:
    """The best legal Post-Combat Pivot of `unit_id` for `objective` (`face_point`, or
    `target_pose` whose point is the unit's centre: a facing)."""
    started = time.monotonic()
    if objective.name not in OBJECTIVES:
        raise InvalidInputError(f"a Post-Combat Pivot is searched for face_point or a facing "
                                f"(target_pose), not {objective.name!r}", path="objective")
    if not isinstance(unit_id, str) or not scenario.has_unit(unit_id):
        raise InvalidInputError(f"unknown unit {unit_id!r}", path="unit_id")
    unit = scenario.unit(unit_id)
    lattice = Lattice()
    refused = tuple(c.id for c in scenario.profile.clauses(MANOEUVRE)
                    if c.refuses_every_move(scenario, unit))
    if refused:
        return SearchResult(objective, None, lattice, time.monotonic() - started,
                            Proof(Status.INFEASIBLE, refused=True, family=_family()),
                            blocking=refused)
    ideal = _ideal_pivot(unit.pose.centre, unit.pose.facing_deg, objective)
    ranked = sorted({round(ideal, 9)} | {float(k) for k in range(-179, 181)},
                    key=lambda p: (_rank(unit, objective, p), abs(p)))
    blocking: set[str] = set()
    for pivot in ranked:
        if time.monotonic() - started > time_limit_s:
            return SearchResult(objective, None, lattice, time.monotonic() - started,
                                Proof(Status.TIMEOUT, stopped_by="wall_clock",
                                      family=_family()))
        move = Move(unit_id, Manoeuvre.POST_COMBAT_PIVOT, pivot_deg=pivot)
        verdict = check_move(scenario, move)
        if verdict.legal:
            value = _value(objective, verdict.end_centre, verdict.end_facing_deg)
            exact = value <= 1e-9
            proof = Proof(Status.OPTIMAL, bound=0.0 if exact else None, family=_family(),
                          family_claim=Status.OPTIMAL)
            return SearchResult(objective, value, lattice, time.monotonic() - started, proof,
                                move=move, verdict=verdict)
        blocking.update(verdict.clauses())
    return SearchResult(objective, None, lattice, time.monotonic() - started,
                        Proof(Status.INFEASIBLE, family=_family()),
                        blocking=tuple(sorted(blocking)))


def _family() -> dict[str, object]:
    return {"ways": "a pivot of whole degrees from the start facing, or the exact one the "
                    "objective asks for"}


def _ideal_pivot(centre: tuple[float, float], facing_deg: float,
                 objective: Objective) -> float:
    if objective.name == "face_point":
        assert objective.point is not None
        dx, dy = objective.point[0] - centre[0], objective.point[1] - centre[1]
        if math.hypot(dx, dy) == 0.0:
            return 0.0
        return signed(math.degrees(math.atan2(dy, dx)) - facing_deg)
    assert objective.facing_deg is not None
    return signed(objective.facing_deg - facing_deg)


def _rank(unit: Unit, objective: Objective, pivot: float) -> tuple[bool, float]:
    """(point behind, value) of the pose after `pivot`: as the searches rank face_point."""
    pose = unit.pose
    facing = pose.facing_deg + pivot
    if objective.name == "face_point":
        assert objective.point is not None
        x, y = Frame(pose.centre, facing).point(objective.point)
        return (y < 0.0, abs(x))
    return (False, _value(objective, pose.centre, facing))


def _value(objective: Objective, centre: tuple[float, float], facing_deg: float) -> float:
    """The objective's exact value (docs/formats.md): face_point the point's distance from
    the centre line; target_pose at the unit's own centre, 0.1" per degree off the facing."""
    if objective.name == "face_point":
        assert objective.point is not None
        return abs(Frame(centre, facing_deg).point(objective.point)[0])
    assert objective.facing_deg is not None and objective.point is not None
    distance = math.dist(centre, objective.point)
    return math.hypot(distance, 0.1 * angle_between_deg(facing_deg, objective.facing_deg))
