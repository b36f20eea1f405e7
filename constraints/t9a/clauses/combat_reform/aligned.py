"""Perfectly aligned (variant A, profile `t9a-2025`).  RULES §2.12 (A) 3.6: "finish perfectly
aligned with the enemy Facing it is engaged with".

Reading: for every enemy unit it touches after the reform, the Facing of the unit that the
enemy engages lies flush against the enemy's Facing it touches: the two edges are parallel
(to within `PARALLEL_SIN`, the tolerance of contact across gaps) and touch along a line, not
at a single point (more than `LINE_IN` of shared edge, docs/rules.md §11.1).  Measured: the
largest angle between such edges (degrees) and the shortest shared length (inches; 0 for a
contact at a single point).
"""

from __future__ import annotations

import math

import numpy as np
from shapely.geometry import LineString

from constraints.core.verdict import ClauseResult, Violation
from constraints.rank_and_file.contact import (
    CONTACT_IN,
    PARALLEL_SIN,
    engaged_facing,
    facing_edges,
    line_in,
)
from constraints.rank_and_file.unit import Unit
from constraints.t9a.clauses.combat_reform.base import CombatReformClause, ReformExample, Role
from constraints.t9a.clauses.combat_reform.context import ReformContext
from constraints.t9a.clauses.combat_reform.examples import foe, line, reform, scene, tilted

ALIGNED_DEG = math.degrees(math.asin(PARALLEL_SIN))


def flush(unit: Unit, enemy: Unit, tolerance: float = CONTACT_IN) -> tuple[float, float]:
    """(angle in degrees between the two engaged edges, length of edge they share)."""
    own = facing_edges(unit)[engaged_facing(unit, enemy, tolerance) or "front"]
    their = facing_edges(enemy)[engaged_facing(enemy, unit, tolerance) or "front"]
    a = np.subtract(own[1], own[0])
    b = np.subtract(their[1], their[0])
    cos = abs(float(a @ b)) / float(np.linalg.norm(a) * np.linalg.norm(b))
    angle = math.degrees(math.acos(min(1.0, cos)))
    shared = LineString(own).intersection(enemy.boundary().buffer(tolerance)).length
    # A single point of contact brings about the tolerance of edge within reach: no line.
    return angle, float(shared) if shared > line_in(tolerance) else 0.0


class Aligned(CombatReformClause):
    id = "combat_reform.aligned"
    role = Role.ALIGNED
    examples = (
        ReformExample("flush with the enemy's Front, half a base off centre",
                      scene(line(), foe(0.5), rules="t9a-2025"), (reform(),), False,
                      ("angle", 0.0)),
        ReformExample("corner to corner is not aligned: no edge shared",
                      scene(line(), foe(5.0), rules="t9a-2025"), (reform(),), True,
                      ("edge", 0.0)),
        ReformExample("turned 10 degrees, touching the enemy's Front at one corner",
                      scene(line(), foe(0.0), rules="t9a-2025"), (tilted(10.0),), True,
                      ("angle", 10.0)),
    )

    def check(self, ctx: ReformContext) -> ClauseResult:
        end = ctx.end_unit
        worst_angle, least_edge = 0.0, math.inf
        violations = []
        for enemy in ctx.after.others(ctx.unit_id):
            if enemy.player == ctx.player or \
                    end.boundary().distance(enemy.boundary()) > ctx.contact_in:
                continue
            angle, shared = flush(end, enemy, ctx.contact_in)
            worst_angle, least_edge = max(worst_angle, angle), min(least_edge, shared)
            if angle > ALIGNED_DEG or shared == 0.0:
                violations.append(Violation(
                    self.id, angle, ALIGNED_DEG, "deg",
                    f"{ctx.unit_id} is not flush with {enemy.id}: its edge is {angle:.4f} "
                    f"degrees off and shares {shared:.4f}\" with it"))
        edge = 0.0 if math.isinf(least_edge) else least_edge
        return ClauseResult({"angle": worst_angle, "edge": edge}, tuple(violations))
