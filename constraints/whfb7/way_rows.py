"""CP-SAT rows for the 1" rule and the table edge over a searched way's whole area
(constraints.whfb7.way_geometry says which legs (a, b) each part forbids, and why soundly).

Per option (its literal enforcing every row): the start and the prefix (wheel, turn), fixed,
judged by the checker's own shapes (the option is forbidden when they fail); leg 1 and the
wheel as rows on a = a_map . (d, 1) (a bound, or "a outside an interval" as two Booleans);
leg 2 as "the end centre outside a convex polygon" (one Boolean per edge that can separate it
somewhere in the option's region, their OR enforced).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import shapely

from constraints.core.limits import within
from constraints.sat.context import EncodeContext
from constraints.sat.separation import REGION_ROOM_TICKS
from constraints.whfb7.way_geometry import (
    MARGIN_IN,
    Way,
    grown,
    half_planes,
    leg_one_entry,
    leg_two_zone,
    turn_area,
    ways_of,
    wheel_intervals,
)

Affine = tuple[float, float, float]

# Options whose ways are traced between looks at the search's limits (a wheel's area is a
# union of sweeps: on a busy machine 180 of them took 9 s).
WATCH_WAYS = 16


def encode_way_spacing(ectx: EncodeContext, gap: float, clause_id: str) -> None:
    """Every option's whole area more than `gap` from every obstacle."""
    obstacles = [shape for _, shape in ectx.scenario.obstacles_for(ectx.unit.id)]
    if not obstacles or not ectx.options:
        return
    shapes = np.asarray(obstacles, dtype=object)
    ways = ways_of(ectx.watched(ectx.options, WATCH_WAYS), ectx.unit, ectx.frame)
    # The least distance to each obstacle, not to their union (an overlay may lose a piece).
    clear = {k: float(shapely.distance(turn_area(ectx.unit, k[1], k[0]), shapes).min()) >
             gap + MARGIN_IN for k in {w.prefix for w in ways}}
    pieces = ectx.obstacles
    swollen = [grown(p, gap) for p in pieces]
    for way, region in zip(ways, ectx.centre_regions, strict=True):
        if not clear[way.prefix]:
            ectx.enc.forbid(way.option.index, clause_id)
            continue
        _spacing(ectx, way, region, pieces, swollen, gap, clause_id)
        ectx.check_time()


def _spacing(ectx: EncodeContext, way: Way, region: shapely.Geometry, pieces: list,
             swollen: list[np.ndarray], gap: float, clause_id: str) -> None:
    enc, option = ectx.enc, way.option
    lit = enc.option_vars[option.index]
    a_most = option.spare_in
    for g in swollen:  # leg 1: a stops short of every grown piece ahead
        entry = leg_one_entry(g, way.rect0, way.f)
        if entry is not None:
            a_most = min(a_most, entry - MARGIN_IN)
    if a_most < 0:
        enc.forbid(option.index, clause_id)
        return
    if a_most < option.spare_in:
        enc.affine_row(option.a_map, a_most, [lit])
    if not option.wheel_deg:
        return  # a straight way is leg 1 alone
    for piece, g in zip(pieces, swollen, strict=True):
        for lo, hi in wheel_intervals(way, piece, gap, a_most):
            _a_outside(ectx, option.a_map, lo - MARGIN_IN, hi + MARGIN_IN, a_most, lit)
        zone = leg_two_zone(way, g)
        if zone is not None and not _outside(ectx, zone, region, lit):
            enc.forbid(option.index, clause_id)
            return


def _a_outside(ectx: EncodeContext, a_map: Affine, lo: float, hi: float, a_most: float,
               lit: Any) -> None:
    """a <= lo or a >= hi (a >= 0 and a <= a_most already hold)."""
    enc = ectx.enc
    below = (-a_map[0], -a_map[1], -a_map[2])
    if lo < 0 and hi > a_most:
        enc.bool_or([], [lit])  # no a is left
    elif lo < 0:
        enc.affine_row(below, -hi, [lit])
    elif hi > a_most:
        enc.affine_row(a_map, lo, [lit])
    else:
        before, after = (enc.sat_model.new_bool_var("wheel_clear") for _ in range(2))
        enc.affine_row(a_map, lo, [before, lit])
        enc.affine_row(below, -hi, [after, lit])
        enc.bool_or([before, after], [lit])


def _outside(ectx: EncodeContext, zone: np.ndarray, region: shapely.Geometry,
             lit: Any) -> bool:
    """Rows keeping the end centre out of the hull of `zone`; False when no centre of the
    option's region can be (the option is then forbidden)."""
    enc = ectx.enc
    room = REGION_ROOM_TICKS * enc.tick
    hull = shapely.MultiPoint(zone).convex_hull
    if not shapely.intersects(hull, shapely.buffer(region, room)):
        return True
    pts = np.asarray(shapely.get_coordinates(region))
    sides = []
    for n, h in half_planes(zone):
        proj = pts @ np.asarray(n)
        slack = room * (abs(n[0]) + abs(n[1]))
        if proj.min() - slack >= h + MARGIN_IN:
            return True  # the whole region lies beyond this edge
        if proj.max() + slack < h + MARGIN_IN:
            continue  # this edge separates no centre of the region
        side = enc.sat_model.new_bool_var("leg_clear")
        enc.centre_row((-n[0], -n[1]), -(h + MARGIN_IN), [side, lit])
        sides.append(side)
    if not sides:
        return False
    enc.bool_or(sides, [lit])
    return True


def encode_way_table(ectx: EncodeContext, clause_id: str) -> None:
    """Every option's whole area on the battlefield."""
    table = ectx.scenario.battlefield
    ways = ways_of(ectx.watched(ectx.options, WATCH_WAYS), ectx.unit, ectx.frame)
    on = {k: within(_overhang(turn_area(ectx.unit, k[1], k[0]), table.width_in,
                              table.depth_in), 0.0) for k in {w.prefix for w in ways}}
    for way, region in zip(ways, ectx.centre_regions, strict=True):
        if not on[way.prefix] or not _on_table(ectx, way, region):
            ectx.enc.forbid(way.option.index, clause_id)


def _overhang(shape: shapely.Geometry, width: float, depth: float) -> float:
    minx, miny, maxx, maxy = shape.bounds
    return max(0.0, -minx, -miny, maxx - width, maxy - depth)


def _on_table(ectx: EncodeContext, way: Way, region: shapely.Geometry) -> bool:
    """Rows keeping leg 1, the wheel and the end rectangle on the table (each table edge is
    a half-plane n . x <= h: linear in a for the first two, in d for the last); False when
    no a is left."""
    enc, option = ectx.enc, way.option
    lit = enc.option_vars[option.index]
    moving = way.rect0 if way.wheel is None else \
        np.asarray(way.wheel.exterior.coords)  # the wheel's area holds the start rectangle
    a_least, a_most = 0.0, option.spare_in
    for plane in ectx.table:
        n = np.asarray(plane.normal)
        top, along = float((moving @ n).max()), float(n @ way.f)
        room = plane.rhs - MARGIN_IN - top   # top + a along <= rhs
        if along > 1e-12:
            a_most = min(a_most, room / along)
        elif along < -1e-12:
            a_least = max(a_least, room / along)
        elif room < 0:
            return False
    if a_least > a_most:
        return False
    if a_most < option.spare_in:
        enc.affine_row(option.a_map, a_most, [lit])
    if a_least > 0:
        a = option.a_map
        enc.affine_row((-a[0], -a[1], -a[2]), -a_least, [lit])
    if option.wheel_deg:
        _end_on_table(ectx, way, region, lit)
    return True


def _end_on_table(ectx: EncodeContext, way: Way, region: shapely.Geometry, lit: Any) -> None:
    """The end rectangle inside every table edge: n . d <= h - max_c n . offset_c."""
    enc = ectx.enc
    offsets = way.rect_t - way.w
    pts = np.asarray(shapely.get_coordinates(region))
    room = REGION_ROOM_TICKS * enc.tick
    for plane in ectx.table:
        n = np.asarray(plane.normal)
        rhs = plane.rhs - MARGIN_IN - float((offsets @ n).max())
        if (pts @ n).max() + room * float(np.abs(n).sum()) <= rhs:
            continue  # holds all over the region
        enc.centre_row((float(n[0]), float(n[1])), rhs, [lit])

