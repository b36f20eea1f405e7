"""The exact brute-force baseline of the solver property tests (tests/solver_support.py): a
legal move of the same family on a grid, judged by the exact checker, with prefilters that
keep anything the checker might accept."""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import numpy as np
import shapely

from constraints.core.scenario import Scenario
from constraints.rank_and_file.unit import Unit
from constraints.sat.lattice import Lattice
from constraints.t9a.checker import check_move
from constraints.t9a.moves import Move, forward, wheel

SLACK = 1e-7  # prefilters keep anything the checker might accept, float noise included


# --- The brute-force baseline ----------------------------------------------------------------

def _param(s: Scenario, manoeuvre: str, tail: str, name: str, default: float) -> float:
    """A parameter of the profile's clause whose id ends in `tail`, or `default` where the
    clause is off."""
    profile = s.profile
    for spec in profile.clauses_for(manoeuvre):
        if spec.id.endswith(tail) and name in spec.bind:
            return float(profile.param(spec.bind[name]))
    return default


def _rectangles(centres: np.ndarray, headings_deg: np.ndarray, width: float,
                depth: float) -> np.ndarray:
    """Corners (N, 4, 2): front-left, front-right, rear-right, rear-left."""
    h = np.radians(headings_deg)
    f = np.stack([np.cos(h), np.sin(h)], -1)
    r = np.stack([f[:, 1], -f[:, 0]], -1)
    local = np.array([(-0.5, 0.5), (0.5, 0.5), (0.5, -0.5), (-0.5, -0.5)])
    return centres[:, None, :] + local[None, :, 0, None] * width * r[:, None, :] + \
        local[None, :, 1, None] * depth * f[:, None, :]


class EndFilter:
    """Exact necessary conditions, vectorised: the end Unit Boundary on the table and more
    than the end spacing from every obstacle, and every end corner within the Valid Final
    Position reach of some start corner; for Advance and March also the Front Facing's path,
    through pieces of it (the hulls of the front before and after each leg and the wheel lie
    inside the area the checker sweeps): on the table and more than the mid-move spacing
    from every obstacle.  Each is a clause of the profile, or a part of one, taken with a
    hair of slack so that float noise never drops a pose the checker would accept."""

    def __init__(self, s: Scenario, unit_id: str, manoeuvre: str) -> None:
        self.unit = s.unit(unit_id)
        self.field = s.battlefield
        self.obstacles = shapely.union_all([shape for _, shape in s.obstacles_for(unit_id)])
        ids = {spec.id for spec in s.profile.clauses_for(manoeuvre)}
        self.end_on_table = "t9a.table_edge.end" in ids
        self.front_on_table = "t9a.table_edge.front" in ids
        self.end_gap = _param(s, manoeuvre, ".unit_spacing", "spacing_in", -1.0)
        self.front_gap = _param(s, manoeuvre, ".front_spacing", "spacing_in", -1.0)
        self.reach = _param(s, manoeuvre, ".valid_final_position", "mob_factor", math.inf) * \
            self.unit.mobility_in
        self.start = np.asarray(self.unit.corners())

    def _on_table(self, points: np.ndarray) -> np.ndarray:
        x, y = points[..., 0], points[..., 1]
        inside = (x >= -SLACK) & (x <= self.field.width_in + SLACK) & (y >= -SLACK) & \
            (y <= self.field.depth_in + SLACK)
        return np.all(inside, axis=1)

    def _clear(self, ok: np.ndarray, geometries, gap: float) -> None:
        idx = np.nonzero(ok)[0]
        if gap >= 0 and len(idx) and not self.obstacles.is_empty:
            ok[idx] = shapely.distance(geometries(idx), self.obstacles) > gap - SLACK

    def keep(self, corners: np.ndarray, path: list[np.ndarray] = ()) -> np.ndarray:
        """corners (N, 4, 2) of the end poses; path: pieces (N, K, 2) of the front's path."""
        ok = self._on_table(corners) if self.end_on_table else np.ones(len(corners), bool)
        if math.isfinite(self.reach):
            d = np.linalg.norm(corners[:, :, None, :] - self.start[None, None, :, :], axis=-1)
            ok &= np.all(d.min(axis=2) <= self.reach + SLACK, axis=1)
        self._clear(ok, lambda idx: shapely.polygons(corners[idx]), self.end_gap)
        for piece in path:
            if self.front_on_table:
                ok &= self._on_table(piece)
            self._clear(ok, lambda idx, p=piece: shapely.convex_hull(shapely.multipoints(p[idx])),
                        self.front_gap)
        return ok


def front_path(u: Unit, pivot_deg: float, a: np.ndarray, b: np.ndarray,
               corners: np.ndarray, heading_deg: np.ndarray) -> list[np.ndarray]:
    """Pieces of the Front Facing's path: the front before and after the first leg, after the
    wheel, and at the end (each piece the four corners whose hull the front sweeps)."""
    h0 = math.radians(u.pose.facing_deg + pivot_deg)
    f0 = np.array([math.cos(h0), math.sin(h0)])
    start = np.asarray(u.with_pose(u.pose.__class__(u.pose.centre, u.pose.facing_deg +
                                                     pivot_deg)).corners()[:2])
    fe = np.stack([np.cos(np.radians(heading_deg)), np.sin(np.radians(heading_deg))], -1)
    first = start[None, :, :] + a[:, None, None] * f0
    last_start = corners[:, :2, :] - b[:, None, None] * fe[:, None, :]
    end = corners[:, :2, :]
    begin = np.broadcast_to(start, first.shape)
    return [np.concatenate(pair, axis=1) for pair in
            ((begin, first), (first, last_start), (last_start, end))]


def _angles(step: float, limit: float) -> np.ndarray:
    count = int(math.floor(limit / step + 1e-9))
    return step * np.arange(-count, count + 1)


def _snaking_candidates(u: Unit, pivot_deg: float, wheels: np.ndarray, budget: float,
                        step_in: float = 0.1):
    """(wheel, a, b, end centre, end heading) of 'Pivot, forward a, wheel t, forward b' on a
    grid of legs, within the distance budget (wheels cost frontage x sin)."""
    rows = []
    h0 = u.pose.facing_deg + pivot_deg
    f0 = np.array([math.cos(math.radians(h0)), math.sin(math.radians(h0))])
    r0 = np.array([f0[1], -f0[0]])
    for t in wheels:
        spare = budget - u.width_in * abs(math.sin(math.radians(t)))
        if spare < -SLACK:
            continue
        legs = np.arange(0.0, max(spare, 0.0) + 1e-9, step_in)
        a, b = np.meshgrid(legs, legs if t else [0.0], indexing="ij")
        a, b = a.ravel(), b.ravel()
        keep = a + b <= spare + 1e-9
        a, b = a[keep], b[keep]
        centre = np.asarray(u.pose.centre) + a[:, None] * f0
        if t:
            side = -1.0 if t > 0 else 1.0  # pivot on the inner front corner
            pivot = centre + f0 * u.depth_in / 2 + r0 * side * u.width_in / 2
            c, s_ = math.cos(math.radians(t)), math.sin(math.radians(t))
            arm = centre - pivot
            centre = pivot + np.stack([c * arm[:, 0] - s_ * arm[:, 1],
                                       s_ * arm[:, 0] + c * arm[:, 1]], -1)
            fe = np.array([math.cos(math.radians(h0 + t)), math.sin(math.radians(h0 + t))])
            centre = centre + b[:, None] * fe
        rows.append((np.full(len(a), t), a, b, centre, np.full(len(a), h0 + t)))
    if not rows:
        return None
    return [np.concatenate(parts) for parts in zip(*rows, strict=True)]


@dataclass
class Batch:
    """Candidate moves of one Pivot (Advance, March) or one number of files (Reform): `ok`
    marks those that pass the exact necessary conditions, `move(k)` builds candidate k."""

    ok: np.ndarray
    move: Callable[[int], Move]


def _snaking_batches(s: Scenario, unit_id: str, manoeuvre: str,
                     lattice: Lattice) -> Iterator[Batch]:
    u = s.unit(unit_id)
    window = min(90.0, _param(s, manoeuvre, ".heading_window", "window_deg", 90.0))
    budget = _param(s, manoeuvre, ".distance", "mob_factor", 4.0) * u.mobility_in
    if manoeuvre == "march":
        pivots, wheels = [0.0], _angles(lattice.degree, window)
    else:
        pivots = [float(p) for p in _angles(lattice.degree, 180.0) if p > -180.0]
        wheels = _angles(lattice.advance_wheel_deg, window)
    keep = EndFilter(s, unit_id, manoeuvre)
    for p in pivots:
        if manoeuvre == "advance":  # the Pivot clauses depend on the Pivot alone
            verdict = check_move(s, Move(unit_id, manoeuvre, pivot_deg=p))
            if any(v.clause in ("t9a.pivot.model_distance", "t9a.pivot.unit_spacing")
                   for v in verdict.violations):
                yield Batch(np.zeros(0, bool), lambda k: Move(unit_id, manoeuvre))
                continue
        found = _snaking_candidates(u, p, wheels, budget)
        if found is None:
            continue
        t, a, b, centre, heading = found
        corners = _rectangles(centre, heading, u.width_in, u.depth_in)
        ok = keep.keep(corners, front_path(u, p, a, b, corners, heading))
        yield Batch(ok, lambda k, p=p, t=t, a=a, b=b: Move(
            unit_id, manoeuvre, pivot_deg=p,
            steps=(forward(float(a[k])), wheel(float(t[k])), forward(float(b[k])))))


def _reform_batches(s: Scenario, unit_id: str, lattice: Lattice, facing_step: float = 15.0,
                    centre_step: float = 0.25) -> Iterator[Batch]:
    u = s.unit(unit_id)
    factor = _param(s, "reform", ".centre_travel",
                    "light_troops_mob_factor" if u.light_troops else "mob_factor", 2.0)
    radius = factor * u.mobility_in
    turns = np.array([a for a in _angles(max(facing_step, lattice.degree), 180.0) if a > -180])
    ticks = np.arange(-math.floor(radius / centre_step), math.floor(radius / centre_step) + 1)
    grid = np.stack(np.meshgrid(ticks, ticks, indexing="ij"), -1).reshape(-1, 2) * centre_step
    grid = grid[np.hypot(grid[:, 0], grid[:, 1]) <= radius + SLACK]
    centres = np.repeat(grid + np.asarray(u.pose.centre), len(turns), axis=0)
    headings = np.tile(u.pose.facing_deg + turns, len(grid))
    keep = EndFilter(s, unit_id, "reform")
    for files in range(1, u.formation.model_count + 1):
        # File change and viable formation depend on the files alone.
        probe = check_move(s, Move(unit_id, "reform", files=files, centre=u.pose.centre,
                                   facing_deg=u.pose.facing_deg))
        if any(v.clause in ("t9a.reform.file_change", "t9a.reform.viable_formation")
               for v in probe.violations):
            yield Batch(np.zeros(0, bool), lambda k: Move(unit_id, "reform"))
            continue
        end = u.with_formation(u.formation.reformed(files))
        ok = keep.keep(_rectangles(centres, headings, end.width_in, end.depth_in))
        yield Batch(ok, lambda k, f=files: Move(
            unit_id, "reform", files=f, centre=(float(centres[k, 0]), float(centres[k, 1])),
            facing_deg=float(headings[k] % 360.0)))


def candidate_batches(s: Scenario, unit_id: str, manoeuvre: str,
                      lattice: Lattice) -> Iterator[Batch]:
    """The baseline's candidates.  March: wheel angles on the lattice's degree step within
    the heading window, first and last legs every 0.1" within the distance budget.  Advance:
    the same after every lattice Pivot the Pivot clauses accept, wheels on the Advance wheel
    step.  Reform: facings every 15 deg (or the lattice step if coarser), every number of
    files the file-change and viable-formation clauses accept, centres on a 0.25" grid inside
    the centre-travel disc."""
    if manoeuvre == "reform":
        return _reform_batches(s, unit_id, lattice)
    return _snaking_batches(s, unit_id, manoeuvre, lattice)


def baseline_legal_move(s: Scenario, unit_id: str, manoeuvre: str,
                        lattice: Lattice) -> tuple[Move | None, int]:
    """A legal move of the solver's family found on a grid (`candidate_batches`), or None;
    and how many moves the exact checker judged (probes of Pivots and files included).
    Candidates must pass cheap exact necessary conditions (EndFilter) to be judged."""
    judged = 0
    for batch in candidate_batches(s, unit_id, manoeuvre, lattice):
        judged += 1 if manoeuvre != "march" else 0  # the Pivot's or the files' probe
        for k in np.nonzero(batch.ok)[0]:
            move = batch.move(int(k))
            judged += 1
            if check_move(s, move).legal:
                return move, judged
    return None, judged
