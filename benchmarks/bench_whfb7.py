"""Warhammer 7th's best move (`best_move` on whfb7 scenarios) against a brute force and a
per-heading geometry peer, side by side in one run.

    .venv/bin/python benchmarks/bench_whfb7.py [--quick] [--cases NAME,...]

The brute force: every way of the family on a grid (each turn, wheels on 5 deg steps, legs on
0.1"; --quick: 15 deg and 0.5") within the budget, sorted by its objective value (end centre
computed from the way), then judged by the whfb7 checker in that order until the first legal
one: the grid's best legal value, exactly, without judging the whole grid.

The geometry peer (as T9A's `per_heading_geometry`, benchmarks/baselines.py): per option of
the family (a turn, a wheel on the solver's 1 deg lattice), the region of end centres its
way leaves legal, as a shapely polygon: its reach (the budget) cut to the legs a that keep
leg 1 and the wheel's area clear of the table edge and more than 1" from everything
(constraints.whfb7.masks: the leg-1 threshold by bisection on the exact segment distance,
the wheel's Lipschitz cells), less, per obstacle piece, the end centres whose leg 2 comes
within 1" of it (the piece's Minkowski difference with the wheeled rectangle, grown by 1"
with a circumscribed buffer, swept along the leg), and the end rectangle on the table.  Its
best point per option, options in objective order, each confirmed by the whfb7 checker.

Columns: the search's time, status and value; the brute force's time, ways judged and grid
value; the peer's time, checks and value; how far the search's value is behind the peer's
(inches, exactly; negative: the search is better); the ratios brute / search and peer /
search.  A summary line follows: OPTIMAL count, cases at least as good as the peer, the
median peer / search time ratio.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import shapely  # noqa: E402
from shapely.geometry import Polygon  # noqa: E402

from constraints.core.scenario import Scenario  # noqa: E402
from constraints.core.scenario_io import load_scenario, scenario_from_json  # noqa: E402
from constraints.whfb7.checker import check_move  # noqa: E402
from constraints.whfb7.examples import field, unit, wall  # noqa: E402
from constraints.whfb7.mask_geometry import (  # noqa: E402
    BLOCKED,
    CLEAR,
    minkowski_hull,
    segment_distance,
)
from constraints.whfb7.masks import WarhammerJudge  # noqa: E402
from constraints.whfb7.moves import Manoeuvre, WarhammerMove  # noqa: E402
from constraints.whfb7.way_poses import steps_of  # noqa: E402
from constraints.whfb7.ways import option_pre_wheel, option_turn  # noqa: E402
from optimizer.families.snaking import end_centre  # noqa: E402
from optimizer.search.objectives import Objective  # noqa: E402
from optimizer.search.request import SearchRequest  # noqa: E402
from optimizer.search.solve import best_move, objective_value  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
GAP = (wall("left", 24.0, 16.0, 34.5, 18.0), wall("right", 37.5, 16.0, 48.0, 18.0))


def cases() -> list[tuple[str, Scenario, str, str, Objective]]:
    goblins = load_scenario(ROOT / "examples" / "goblins.json")
    open_field = scenario_from_json(field(unit()))
    gap = scenario_from_json(field(unit(movement=5.0), terrain=GAP))
    edge = scenario_from_json(field(unit(centre=(3.5, 10.0))))
    return [
        ("open-march-forward", open_field, "u", "march", Objective("forward")),
        ("open-march-side", open_field, "u", "march", Objective("target_distance", (42, 15))),
        ("open-move-behind", open_field, "u", "move", Objective("target_distance", (36, 6))),
        ("rocks-march", goblins, "goblins", "march", Objective("target_distance", (14, 23))),
        ("rocks-move", goblins, "goblins", "move", Objective("target_distance", (19, 12))),
        ("gap-march", gap, "u", "march", Objective("target_distance", (36, 21))),
        ("gap-move", gap, "u", "move", Objective("target_distance", (38, 14))),
        ("edge-march-left", edge, "u", "march", Objective("target_distance", (0, 14))),
    ]


def brute(scenario: Scenario, unit_id: str, manoeuvre: str, objective: Objective,
          wheel_step: int, leg_step: float) -> tuple[float | None, int, float]:
    """The grid's best legal value, the ways judged, the seconds taken."""
    started = time.perf_counter()
    request = SearchRequest(scenario, unit_id, manoeuvre, objective)
    family, frame = request.family, request.frame
    options = [o for o in request.options()[0] if round(o.wheel_deg) % wheel_step == 0]
    rows = []  # (value, option index, a, b)
    for k, option in enumerate(options):
        legs = np.arange(0.0, option.spare_in + 1e-9, leg_step)
        a, b = np.meshgrid(legs, legs if option.wheel_deg else [0.0], indexing="ij")
        keep = a + b <= option.spare_in + 1e-9
        a, b = a[keep], b[keep]
        ends = np.array([end_centre(option, x, y) for x, y in zip(a, b, strict=True)])
        world = frame.world_array(ends)
        if objective.name == "forward":
            values = -ends[:, 1]
        else:
            assert objective.point is not None
            values = np.hypot(world[:, 0] - objective.point[0], world[:, 1] - objective.point[1])
        rows += [(float(v), k, float(x), float(y)) for v, x, y in zip(values, a, b, strict=True)]
    rows.sort()
    judged = 0
    for value, k, a, b in rows:
        judged += 1
        move = family.move(unit_id, frame, options[k], end_centre(options[k], a, b))
        if check_move(scenario, move).legal:
            return (-value if objective.name == "forward" else value), judged, \
                time.perf_counter() - started
    return None, judged, time.perf_counter() - started


BIG = 1e3          # inches: far beyond any table, for half-planes and strips as polygons
BUFFER_SEGS = 16   # segments per quarter circle of the peer's grown zones
MAX_CHECKS = 300   # the peer's confirmations by the checker before it gives up


def peer(scenario: Scenario, unit_id: str, manoeuvre: str,
         objective: Objective) -> tuple[float | None, int, float]:
    """The per-heading geometry peer: the best confirmed value, the checks, the seconds."""
    started = time.perf_counter()
    request = SearchRequest(scenario, unit_id, manoeuvre, objective)
    judge = WarhammerJudge(scenario, unit_id, manoeuvre)
    unit = scenario.unit(unit_id)
    frame = request.frame
    ahead = np.array([math.cos(math.radians(unit.pose.facing_deg)),
                      math.sin(math.radians(unit.pose.facing_deg))])
    found = []
    if not judge.blocked:
        for option in request.options()[0]:
            prefix = (option_pre_wheel(option), option_turn(option))
            if prefix[1] and manoeuvre == "march":
                continue
            region, base, f, e = _region(judge, option, prefix, frame)
            if region is None or region.is_empty:
                continue
            point = _best_point(region, objective, ahead)
            value = -float(point @ ahead) if objective.name == "forward" else \
                float(np.hypot(*(point - np.asarray(objective.point))))
            found.append((value, option.index, prefix, base, f, e, option.wheel_deg, point))
    found.sort(key=lambda item: (item[0], item[1]))
    checks = 0
    for _, _, prefix, base, f, e, wheel_deg, point in found[:MAX_CHECKS]:
        checks += 1
        rel = point - base
        if wheel_deg:
            det = f[0] * e[1] - f[1] * e[0]
            a = (rel[0] * e[1] - rel[1] * e[0]) / det
            b = (f[0] * rel[1] - f[1] * rel[0]) / det
        else:
            a, b = float(rel @ f), 0.0
        move = WarhammerMove(unit_id, Manoeuvre(manoeuvre),
                             steps=steps_of(prefix, max(a, 0.0), wheel_deg, max(b, 0.0)))
        verdict = check_move(scenario, move)
        if verdict.legal:
            return objective_value(objective, scenario, verdict), checks, \
                time.perf_counter() - started
    return None, checks, time.perf_counter() - started


def _region(judge: WarhammerJudge, option, prefix, frame):
    """The option's legal end centres (world), the way's origin after the wheel's shift at a
    = 0, and its directions f and e; None when the start or prefix already fails."""
    start, state, pieces, leg_one = judge.start_of(prefix)
    if state == BLOCKED:
        return None, None, None, None
    origin = np.asarray(start.pose.centre)
    heading = math.radians(start.pose.facing_deg)
    f = np.array([math.cos(heading), math.sin(heading)])
    t = option.wheel_deg
    e = np.array([math.cos(heading + math.radians(t)), math.sin(heading + math.radians(t))])
    base = np.asarray(frame.world(option.wheel_shift))  # the end centre with a = b = 0
    spare = option.spare_in
    table, gap = judge.table, judge.gap
    corners = np.asarray(start.corners())
    # Legs a that keep leg 1 and the wheel on the table and clear: an interval, less cells.
    a_lo, a_hi = 0.0, spare
    for n, h in _table_planes(table):
        top, along = float((corners @ n).max()), float(n @ f)
        if along > 1e-12:
            a_hi = min(a_hi, (h - top) / along)
        elif along < -1e-12:
            a_lo = max(a_lo, (h - top) / along)
    for hull in leg_one:
        a_hi = min(a_hi, _leg_one_limit(origin, f, hull, gap, spare))
    forbidden: list[tuple[float, float]] = []
    if t:
        sweep = judge.wheel_sweep(start, prefix, float(t), pieces)
        bounds = sweep.exact_bounds
        lo_pts = np.array([bounds[:2], bounds[2:]])
        for n, h in _table_planes(table):
            top, along = float((lo_pts @ n).max()), float(n @ f)
            if along > 1e-12:
                a_hi = min(a_hi, (h - top) / along)
            elif along < -1e-12:
                a_lo = max(a_lo, (h - top) / along)
        for j in range(len(pieces)):
            starts, states = sweep.cells(j)
            ends = np.append(starts[1:], BIG)
            forbidden += [(float(x), float(y)) for x, y, s in zip(starts, ends, states,
                                                                  strict=True) if s != CLEAR]
    if a_lo > a_hi:
        return None, None, None, None
    if not t:
        region = shapely.LineString([origin + a_lo * f, origin + a_hi * f])
    else:
        reach = Polygon([base, base + spare * f, base + spare * e])
        region = reach.intersection(_strip(base, f, e, a_lo, a_hi))
        for lo, hi in forbidden:
            region = region.difference(_strip(base, f, e, lo, hi))
    # The end rectangle on the table; leg 2 (and the end) more than 1" from every piece.
    end = _end_offsets(start, float(t))
    inner = shapely.box(-end[:, 0].min(), -end[:, 1].min(), table.width_in - end[:, 0].max(),
                        table.depth_in - end[:, 1].max())
    region = region.intersection(inner)
    grow = (gap + 1e-6) / math.cos(math.pi / (4 * BUFFER_SEGS))
    for piece in pieces:
        zone = Polygon(minkowski_hull(piece.vertices, end)).buffer(grow, quad_segs=BUFFER_SEGS)
        if t:
            cone = Polygon([base, base + BIG * f, base + BIG * (f + e), base + BIG * e])
            part = zone.intersection(cone)
            if not part.is_empty:
                zone = shapely.MultiPoint(np.vstack([shapely.get_coordinates(part),
                                                     shapely.get_coordinates(part)
                                                     + BIG * e])).convex_hull
        region = region.difference(zone)
        if region.is_empty:
            break
    return region, (base if t else origin), f, e


def _table_planes(table) -> list[tuple[np.ndarray, float]]:
    return [(np.array([-1.0, 0.0]), 0.0), (np.array([0.0, -1.0]), 0.0),
            (np.array([1.0, 0.0]), table.width_in), (np.array([0.0, 1.0]), table.depth_in)]


def _leg_one_limit(origin: np.ndarray, f: np.ndarray, hull: np.ndarray, gap: float,
                   spare: float) -> float:
    """The largest a whose leg 1 stays more than the gap from the piece (the distance only
    falls as a grows: bisection on the exact segment distance)."""
    clear = lambda a: segment_distance(origin[None], (origin + a * f)[None], hull)[0] > \
        gap + 1e-8  # noqa: E731
    if clear(spare):
        return spare
    if not clear(0.0):
        return -1.0
    lo, hi = 0.0, spare
    for _ in range(50):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if clear(mid) else (lo, mid)
    return lo


def _strip(base: np.ndarray, f: np.ndarray, e: np.ndarray, lo: float, hi: float) -> Polygon:
    """End centres base + a f + b e with lo <= a <= hi and 0 <= b (far enough)."""
    return Polygon([base + lo * f - e, base + hi * f - e, base + hi * f + BIG * e,
                    base + lo * f + BIG * e])


def _end_offsets(start, wheel_deg: float) -> np.ndarray:
    """The end rectangle's corners about its centre (world)."""
    h = math.radians(start.pose.facing_deg + wheel_deg)
    fwd = np.array([math.cos(h), math.sin(h)]) * start.depth_in / 2
    right = np.array([math.sin(h), -math.cos(h)]) * start.width_in / 2
    return np.array([-right + fwd, right + fwd, right - fwd, -right - fwd])


def _best_point(region, objective: Objective, ahead: np.ndarray) -> np.ndarray:
    coords = shapely.get_coordinates(region)
    if objective.name == "forward":
        return coords[np.argmax(coords @ ahead)]
    assert objective.point is not None
    return shapely.get_coordinates(shapely.shortest_line(
        region, shapely.Point(objective.point)))[0]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a coarser brute-force grid")
    parser.add_argument("--cases", help="comma-separated case names (default: all)")
    args = parser.parse_args()
    wheel_step, leg_step = (15, 0.5) if args.quick else (5, 0.1)
    wanted = None if args.cases is None else set(args.cases.split(","))
    print("| case | search (s) | status | value | brute force (s) | judged | grid value "
          "| peer (s) | checks | peer value | search - peer | brute / search | peer / search |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    ratios, optimal, as_good, count = [], 0, 0, 0
    for name, scenario, unit_id, manoeuvre, objective in cases():
        if wanted is not None and name not in wanted:
            continue
        started = time.perf_counter()
        result = best_move(scenario, unit_id, manoeuvre, objective)
        took = time.perf_counter() - started
        grid, judged, brute_s = brute(scenario, unit_id, manoeuvre, objective, wheel_step,
                                      leg_step)
        geometry, checks, peer_s = peer(scenario, unit_id, manoeuvre, objective)
        value = "-" if result.value is None else f"{result.value:.3f}"
        best = "-" if grid is None else f"{grid:.3f}"
        near = "-" if geometry is None else f"{geometry:.3f}"
        ratio = brute_s / took if took > 0 else math.inf
        peer_ratio = peer_s / took if took > 0 else math.inf
        gain = _behind(objective, result.value, geometry)
        count += 1
        optimal += str(result.status) == "OPTIMAL"
        as_good += gain is not None and gain <= AS_GOOD_IN
        ratios.append(peer_ratio)
        shown = "-" if gain is None else f"{gain:+.2e}"
        print(f"| {name} | {took:.2f} | {result.status} | {value} | {brute_s:.2f} | "
              f"{judged} | {best} | {peer_s:.2f} | {checks} | {near} | {shown} | "
              f"{ratio:.1f}x | {peer_ratio:.1f}x |", flush=True)
    if count:
        print(f"\nOPTIMAL {optimal}/{count}; at least as good as the peer (within "
              f"{AS_GOOD_IN:g}\") {as_good}/{count}; median peer / search "
              f"{float(np.median(ratios)):.2f}x; search faster on "
              f"{sum(r >= 1.0 for r in ratios)}/{count}")


# "At least as good": the search's value behind the peer's by at most this (float noise).
AS_GOOD_IN = 1e-9


def _behind(objective: Objective, search: float | None, peer_value: float | None
            ) -> float | None:
    """How far the search's value is behind the peer's (inches; negative: ahead; None when
    either has none, -inf when only the search has one)."""
    if search is None:
        return None
    if peer_value is None:
        return -math.inf
    return peer_value - search if objective.name == "forward" else search - peer_value


if __name__ == "__main__":
    main()
