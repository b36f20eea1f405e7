"""The reference for Line of Fire (docs/rules.md §13.10, decision A23): dense sampling of segments
between the two Silhouettes, tested the slow and simple way.

It shares nothing with `constraints.infinity` but the file format: the volumes are read from
the scenario's raw JSON (prisms: footprint, level, height; troopers: cylinders of the
Silhouette table's heights; markers ignored).  Points are sampled on the whole surface of both
cylinders (ANGLES directions, every HEIGHT_STEP of the height, the top's centre; no pruning
by direction), every pair joined, and a segment is blocked when shapely's intersection of its
plane shadow with a volume's footprint shrunk by SHRINK_IN (its interior) has a part where
the segment's height is strictly inside the volume's.  Cylinders are polygons of CIRCLE
points.  The 3x3 mm reading is the same as the rules module's (a beam `min_visible_mm` wide: the
segment moved across its direction 4 ways still meets the target, clear), written anew: where
a moved ray meets the target is found by marching it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
import shapely

ANGLES = 32            # round the whole side (the rules module keeps only those facing)
HEIGHT_STEP = 1 / 8    # of the height: 0, 1/8, ..., 1 (the rules module's fractions among them)
SHRINK_IN = 1e-6
CIRCLE = 64
MARCH = 300            # steps of a moved ray's march to the target
S_HEIGHT_MM = {1: 25, 2: 40, 3: 32, 4: 32, 5: 45, 6: 55, 7: 67, 8: 70}
MM = 25.4


@dataclass(frozen=True)
class Volume:
    inside: shapely.Geometry    # the footprint's interior, a hair smaller
    low: float
    high: float


@dataclass(frozen=True)
class Body:
    x: float
    y: float
    r: float
    low: float
    high: float


def body(unit: dict[str, Any], at: tuple[float, float, float] | None = None) -> Body:
    x, y = unit["centre"]
    z = unit.get("level", 0.0)
    if at is not None:
        x, y, z = at
    tall = 3.0 if unit.get("prone") else S_HEIGHT_MM[unit["silhouette"]]
    return Body(x, y, unit["base"] / MM / 2, z, z + tall / MM)


def volumes(data: dict[str, Any], skip: set[str]) -> list[Volume]:
    found = [Volume(shapely.Polygon(t["polygon"]).buffer(-SHRINK_IN), t.get("level", 0.0),
                    t.get("level", 0.0) + t["height"])
             for t in data["terrain"] if t["kind"] in ("building", "obstacle")]
    for u in data["units"]:
        if u["kind"] == "trooper" and u["id"] not in skip:
            b = body(u)
            disc = shapely.Point(b.x, b.y).buffer(b.r - SHRINK_IN, quad_segs=CIRCLE // 4)
            found.append(Volume(disc, b.low, b.high))
    return found


def samples(b: Body, half: float) -> np.ndarray:
    """Surface points: ANGLES round the side at every HEIGHT_STEP and `half` from the top
    and the underside, and the top's centre."""
    steps = round(1 / HEIGHT_STEP)
    heights = [b.low + (b.high - b.low) * k / steps for k in range(steps + 1)]
    if b.high - b.low > 2 * half:
        heights += [b.high - half, b.low + half]
    pts = [(b.x + b.r * math.cos(2 * math.pi * i / ANGLES),
            b.y + b.r * math.sin(2 * math.pi * i / ANGLES), z)
           for z in heights for i in range(ANGLES)]
    pts.append((b.x, b.y, b.high))
    return np.asarray(pts)


def _inside(pts: np.ndarray, b: Body) -> np.ndarray:
    found: np.ndarray = (np.hypot(pts[..., 0] - b.x, pts[..., 1] - b.y) <= b.r + 1e-9) \
        & (pts[..., 2] >= b.low - 1e-9) & (pts[..., 2] <= b.high + 1e-9)
    return found


def hits(start: np.ndarray, d: np.ndarray, b: Body) -> np.ndarray:
    """Where each ray start + s d (0 <= s <= 3) first meets the closed cylinder: a march of
    MARCH steps, then bisection (nan: never)."""
    s = np.linspace(0.0, 3.0, MARCH + 1)
    inside = _inside(start[:, None, :] + s[None, :, None] * d[:, None, :], b)
    first = np.argmax(inside, axis=1)
    found = inside.any(axis=1)
    hi = s[first]
    lo = np.where(first > 0, s[np.maximum(first - 1, 0)], 0.0)
    for _ in range(40):
        mid = (lo + hi) / 2
        into = _inside(start + mid[:, None] * d, b)
        hi, lo = np.where(into, mid, hi), np.where(into, lo, mid)
    return np.where(found, hi, np.nan)


def beams(p: np.ndarray, q: np.ndarray, b: Body, half: float,
          vols: list[Volume]) -> np.ndarray:
    """Whether each segment moved `half` across its direction 4 ways meets the target,
    clear of every volume until it does."""
    d = q - p
    side = np.stack([-d[:, 1], d[:, 0], np.zeros(len(d))], axis=1)
    norm = np.linalg.norm(side, axis=1)
    side = np.where(norm[:, None] > 1e-12, side / np.maximum(norm, 1e-300)[:, None],
                    [1.0, 0.0, 0.0])
    up = np.cross(d, side)
    up /= np.linalg.norm(up, axis=1)[:, None]
    good = np.ones(len(p), dtype=bool)
    for o in (side, -side, up, -up):
        start = p + half * o
        s = hits(start, d, b)
        met = np.isfinite(s)
        end = start + np.where(met, s, 1.0)[:, None] * d
        good &= met & ~blocked(start, end, vols)
    return good


def blocked(p: np.ndarray, q: np.ndarray, vols: list[Volume]) -> np.ndarray:
    """Whether each segment p[i] -> q[i] passes through a volume's interior: the pieces of
    its plane shadow inside the footprint (shapely), the heights at their ends."""
    out = np.zeros(len(p), dtype=bool)
    length = np.hypot(*(q[:, :2] - p[:, :2]).T)
    flat = length < 1e-9
    lines = shapely.linestrings(np.stack([p[:, :2], q[:, :2]], axis=1))
    for v in vols:
        parts, seg = shapely.get_parts(shapely.intersection(lines, v.inside), return_index=True)
        xy, part = shapely.get_coordinates(parts, return_index=True)
        if len(xy):
            k = seg[part]
            t = np.hypot(*(xy - p[k, :2]).T) / np.where(flat[k], 1.0, length[k])
            lo, hi = np.full(len(parts), np.inf), np.full(len(parts), -np.inf)
            np.minimum.at(lo, part, t)
            np.maximum.at(hi, part, t)
            with np.errstate(invalid="ignore"):  # a part with no coordinates: never through
                z0 = p[seg, 2] + lo * (q[seg, 2] - p[seg, 2])
                z1 = p[seg, 2] + hi * (q[seg, 2] - p[seg, 2])
            through = ((hi - lo) * length[seg] > 1e-7) & ~flat[seg] \
                & (np.minimum(z0, z1) < v.high - 1e-7) & (np.maximum(z0, z1) > v.low + 1e-7)
            np.logical_or.at(out, seg, through)
        if flat.any():
            under = shapely.contains_xy(v.inside, p[flat, 0], p[flat, 1])
            zlo = np.minimum(p[flat, 2], q[flat, 2])
            zhi = np.maximum(p[flat, 2], q[flat, 2])
            out[flat] |= under & (zlo < v.high - 1e-7) & (zhi > v.low + 1e-7)
    return out


def reference_lof(data: dict[str, Any], viewer: str, target: str, min_visible_mm: float = 3.0,
                  target_at: tuple[float, float, float] | None = None,
                  moving: tuple[str, ...] = ()) -> bool:
    units = {u["id"]: u for u in data["units"]}
    v, t = body(units[viewer]), body(units[target], target_at)
    facing = units[viewer].get("facing")
    half = min_visible_mm / MM / 2
    vp, tq = samples(v, half), samples(t, half)
    if facing is not None:
        f = np.asarray([math.cos(math.radians(facing)), math.sin(math.radians(facing))])
        tq = tq[(tq[:, :2] - (v.x, v.y)) @ f >= -1e-9]
    vols = volumes(data, {viewer, target, *moving})
    ii, jj = np.meshgrid(np.arange(len(vp)), np.arange(len(tq)), indexing="ij")
    ii, jj = ii.ravel(), jj.ravel()
    ok = ~blocked(vp[ii], tq[jj], vols)
    ii, jj = ii[ok], jj[ok]
    return any(beams(vp[ii[k:k + 256]], tq[jj[k:k + 256]], t, half, vols).any()
               for k in range(0, len(ii), 256))


def segment_clear(data: dict[str, Any], a: tuple[float, ...], b: tuple[float, ...],
                  skip: set[str]) -> bool:
    """Whether one segment crosses no volume (a witness re-checked)."""
    return not bool(blocked(np.asarray([a]), np.asarray([b]), volumes(data, skip))[0])
