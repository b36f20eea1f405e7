"""The least nudge of one unit, given where every other unit stands (seed 001).

Candidates are the finite set of shifts `space` proves holds the minimum; numpy drops the ones
that plainly break a clause (inside an obstacle, touching a new enemy, off the table, every
order of legs blocked); the rest are judged by the exact checker in order of length, and the
first legal length wins.  Ties: the nudge touching more of the enemies touched before (A19),
then the shorter straight-line shift, then forward legs first (A11).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from constraints.core.scenario import Scenario
from constraints.core.verdict import Verdict
from constraints.geometry.frame import Frame
from constraints.t9a.clauses.nudge.checker import check_nudge, context
from constraints.t9a.clauses.nudge.context import Leg, legs_of
from optimizer.dispatch import require
from optimizer.nudge.space import (
    SLACK_IN,
    STEP_IN,
    TOUCH_IN,
    Obstacle,
    event_lines,
    obstacles,
    table_lines,
)

TIE_IN = 1e-9  # nudge lengths this close are equal


@dataclass(frozen=True)
class NudgeFound:
    """A legal least nudge: its legs, length, the enemies it touches and the checker's
    verdict on it."""

    unit: str
    legs: tuple[Leg, ...]
    distance_in: float
    touched: tuple[str, ...]
    verdict: Verdict
    judged: int  # candidates the exact checker judged


def least_nudge(scenario: Scenario, unit_id: str, previous: Mapping[str, str]
                ) -> NudgeFound | None:
    """The least legal nudge of `unit_id` back into contact, or None when none exists."""
    require(scenario, "least_nudge")
    context(scenario, unit_id, previous, ())  # InvalidInputError for malformed input
    unit = scenario.unit(unit_id)
    present = {e: f for e, f in previous.items() if scenario.has_unit(e)}
    if not present:
        return None
    others = [u for u in scenario.units if u.id != unit_id]
    found = obstacles(unit, others, [t.shape for t in scenario.impassable()])
    frame = Frame(unit.pose.centre, unit.pose.facing_deg)
    field = scenario.battlefield
    table = table_lines(unit, field.width_in, field.depth_in)
    centres = [np.asarray(frame.point(scenario.unit(e).pose.centre)) for e in present]
    lines = event_lines(unit, found, table, centres)
    normals = np.array([n for n, _ in lines])
    offsets = np.array([c for _, c in lines])
    shifts = np.concatenate([_on_edge(a, b, normals, offsets)
                             for ob in found if ob.owner in present
                             for a, b in ob.edges() if _on_facing(a, b, present[ob.owner])]
                            or [np.zeros((0, 2))])
    enemies = {u.id for u in others if u.player != unit.player}
    new = [ob for ob in found if ob.owner in enemies and ob.owner not in present]
    shifts = shifts[_plausible(shifts, found, new, table)]
    return _judge(scenario, unit_id, present, shifts)


# A Facing's outward normal in the unit's frame (x right, y forwards).
_NORMALS = {"front": (0.0, 1.0), "right": (1.0, 0.0), "rear": (0.0, -1.0), "left": (-1.0, 0.0)}


def _on_facing(a: np.ndarray, b: np.ndarray, facing: str) -> bool:
    """Whether a shift on the edge ab of C(E) can touch E with `facing`: the unit touches E
    with the side of itself facing E, i.e. against the edge's outward normal n; an edge not
    along an axis is a corner of the unit touching E, which touches with both Facings that
    meet there (its ends, shared with the neighbouring edges, are judged with those)."""
    d = b - a
    toward = np.array([d[1], -d[0]]) / float(np.hypot(*d))  # n; E lies along -n
    want = np.asarray(_NORMALS[facing])
    return float(-toward @ want) > 1e-9


def _judge(scenario: Scenario, unit_id: str, previous: Mapping[str, str],
           shifts: np.ndarray) -> NudgeFound | None:
    """The exact checker over the candidates, shortest first; ties as the module says."""
    l1 = np.abs(shifts).sum(axis=1)
    l2 = np.hypot(shifts[:, 0], shifts[:, 1])
    best: list[tuple[int, float, NudgeFound]] = []
    judged = 0
    for i in np.lexsort((l2, l1)):
        if best and l1[i] > best[0][2].distance_in + TIE_IN:
            break
        for forward_first in (True, False):
            legs = legs_of(float(shifts[i, 1]), float(shifts[i, 0]), forward_first)
            verdict = check_nudge(scenario, unit_id, previous, legs)
            judged += 1
            if verdict.legal:
                touched = _touched(scenario, verdict, previous)
                best.append((-len(touched), float(l2[i]),
                             NudgeFound(unit_id, legs, float(l1[i]), touched, verdict, 0)))
                break
    if not best:
        return None
    _, _, chosen = min(best, key=lambda b: (b[0], b[1]))
    return NudgeFound(chosen.unit, chosen.legs, chosen.distance_in, chosen.touched,
                      chosen.verdict, judged)


def _touched(scenario: Scenario, verdict: Verdict, previous: Mapping[str, str]
             ) -> tuple[str, ...]:
    from shapely.geometry import Polygon
    end = Polygon(verdict.end_corners)
    return tuple(sorted(e for e in previous
                        if end.distance(scenario.unit(e).boundary()) <= TOUCH_IN))


def _on_edge(a: np.ndarray, b: np.ndarray, normals: np.ndarray, offsets: np.ndarray
             ) -> np.ndarray:
    """Shifts on the edge ab of C(E): its crossings with every event line, a hair either
    side of each, its ends, and its point nearest no shift (the shortest straight line)."""
    d = b - a
    rate = normals @ d
    ok = np.abs(rate) > 1e-12
    lam = (offsets[ok] - normals[ok] @ a) / rate[ok]
    step = STEP_IN / np.abs(rate[ok])
    nearest = -float(a @ d) / float(d @ d) if float(d @ d) > 0 else 0.0
    lams = np.concatenate([lam, lam - step, lam + step, [0.0, 1.0, nearest]])
    lams = np.unique(lams[(lams >= 0.0) & (lams <= 1.0)])
    return a + lams[:, None] * d


def _plausible(t: np.ndarray, found: list[Obstacle], new: list[Obstacle],
               table: list[tuple[np.ndarray, float]]) -> np.ndarray:
    """False where a shift plainly breaks a clause (sound: never False for a legal one)."""
    ok = np.ones(len(t), dtype=bool)
    for n, c in table:
        ok &= t @ n >= c - SLACK_IN
    for ob in found:
        normals, offsets = ob.normals()
        ok &= (offsets[None, :] - t @ normals.T).min(axis=1) <= TOUCH_IN + SLACK_IN
    for ob in new:
        ok &= _distance(t, ob) > TOUCH_IN + SLACK_IN
    blocked_f = np.zeros(len(t), dtype=bool)
    blocked_s = np.zeros(len(t), dtype=bool)
    zero = np.zeros_like(t)
    f_only, s_only = zero.copy(), zero.copy()
    f_only[:, 1], s_only[:, 0] = t[:, 1], t[:, 0]
    for ob in found:
        blocked_f |= _enters(zero, f_only, ob) | _enters(f_only, t, ob)
        blocked_s |= _enters(zero, s_only, ob) | _enters(s_only, t, ob)
    return ok & ~(blocked_f & blocked_s)


def _distance(t: np.ndarray, ob: Obstacle) -> np.ndarray:
    """Exact distance from each shift to the convex C(Q) (0 inside)."""
    out = np.full(len(t), np.inf)
    for a, b in ob.edges():
        d = b - a
        mu = np.clip(((t - a) @ d) / float(d @ d), 0.0, 1.0)
        out = np.minimum(out, np.hypot(*(t - (a + mu[:, None] * d)).T))
    normals, offsets = ob.normals()
    inside = (t @ normals.T - offsets[None, :]).max(axis=1) <= 0.0
    return np.where(inside, 0.0, out)


def _enters(p: np.ndarray, q: np.ndarray, ob: Obstacle) -> np.ndarray:
    """Whether each segment p -> q passes deeper than the contact tolerance into C(Q)
    (Cyrus-Beck clipping against C(Q) shrunk by the tolerance)."""
    normals, offsets = ob.normals()
    room = offsets[None, :] - TOUCH_IN - SLACK_IN - p @ normals.T   # n.(p + mu d) <= e - tol
    rate = (q - p) @ normals.T
    with np.errstate(divide="ignore", invalid="ignore"):
        limit = room / rate
    lo = np.where(rate < 0, limit, -np.inf).max(axis=1, initial=0.0)
    hi = np.where(rate > 0, limit, np.inf).min(axis=1, initial=1.0)
    parallel_out = ((rate == 0) & (room < 0)).any(axis=1)
    return (np.maximum(lo, 0.0) <= np.minimum(hi, 1.0)) & ~parallel_out
