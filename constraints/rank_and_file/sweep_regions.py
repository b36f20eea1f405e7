"""Where a March's Front Facing surely sweeps within a gap of an obstacle, as bands of its end
centres (a relaxation's cut: constraints.rank_and_file.regions, `outer=True`).

In the start frame the front starts on y = D/2 facing +y.  An option "forward a, wheel t,
forward b" slides the front along its first direction f by a, so it meets an obstacle piece
grown by the gap from the first a at which the segment, slid, touches it: every a from there
on is refused.  Its wheel then sweeps a sector with its apex at the inner front corner,
moved by a f: the sector meets the grown piece exactly for the a in one interval (the grown
piece minus the sector, a convex set, met by the ray a f).  The first leg a is affine in the
end centre, so each is a band of centres.  The grown pieces are a hair short of the gap and
the sector is inscribed (its vertices on the arc), so a cut centre's sweep truly comes within
the gap: the region keeps every legal end centre.

The last leg "forward b" along the end facing e is cut in the centre plane itself: its front
meets a grown piece P at the centre x = d - s e (s in [0, b]) exactly when x lies in P minus
the end front (a convex polygon) with b(x) = b - s >= 0; so the refused end centres are that
polygon's part with b >= 0, slid along +e (a convex set per piece).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import shapely
from shapely.geometry import Polygon

from constraints.geometry.intervals import union_of
from constraints.sat.option import Option, corner_offsets

SECTOR_POINTS = 12  # arc vertices of the inscribed sector
GROWN_SEGS = 4      # arc segments per quarter circle of a grown piece's corners
AT_START_IN = 1e-9  # a front already this close at a = 0 is left alone (not cut)


class GrownPieces:
    """Each convex piece grown by a radius with few round corners (vertices on the offset,
    chords inside: the grown polygon lies within the radius of the piece): as polygons, and
    their vertices stacked (piece k's from `starts[k]`) for vectorised tests."""

    def __init__(self, shapes: Sequence[Polygon], radius: float) -> None:
        self.polygons = shapely.buffer(np.asarray(shapes, dtype=object), radius,
                                       quad_segs=GROWN_SEGS)
        self.vertices = [shapely.get_coordinates(g)[:-1] for g in self.polygons]
        self.stacked = np.vstack(self.vertices) if self.vertices else np.zeros((0, 2))
        self.starts = np.cumsum([0] + [len(v) for v in self.vertices[:-1]])

    def __len__(self) -> int:
        return len(self.vertices)

    def spans(self, axis: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Per piece, its least and greatest projection on `axis`."""
        proj = self.stacked @ axis
        return np.minimum.reduceat(proj, self.starts), np.maximum.reduceat(proj, self.starts)


def refused_legs(option: Option, width: float, depth: float,
                 grown: GrownPieces) -> list[tuple[float, float]]:
    """Intervals [lo, hi] of first legs a whose front's sweep meets one of the `grown`
    pieces (vertices, start frame): the first leg itself from its first contact on, and the
    wheel's sector at a.  Empty for an option that is not a March's one-wheel way."""
    f = np.asarray(option.first_dir, dtype=float)
    if option.pivot_deg != 0.0 or not f.any() or not len(grown):
        return []
    front = np.array([[-width / 2.0, depth / 2.0], [width / 2.0, depth / 2.0]])
    found = [(lo, math.inf) for lo, _ in _ray_hits(_near(grown, front, f, option.budget_in),
                                                   front, f) if lo > AT_START_IN]
    if option.wheel_deg:
        sector = _sector(front, option.wheel_deg, width)
        near = _near(grown, sector, f, option.budget_in)
        found += [(max(lo, 0.0), hi) for lo, hi in _ray_hits(near, sector, f) if hi >= 0.0]
    return found


def last_leg_cut(option: Option, grown: GrownPieces,
                 base: shapely.Geometry) -> shapely.Geometry:
    """The end centres of `base`'s extent whose last leg sweeps the end front into one of the
    `grown` pieces (vertices, start frame); empty for a way without a wheel (no last leg)."""
    e = np.asarray(option.end_dir, dtype=float)
    normal = np.asarray(option.b_map[:2], dtype=float)
    if not option.wheel_deg or not e.any() or not normal.any() or base.is_empty or \
            not len(grown):
        return Polygon()
    front = np.asarray(corner_offsets(option)[:2])
    # A touching centre lies in the base (on the leg back to the wheel's end), its front
    # point within the front's half-width and half-depth of it: only pieces that near count.
    close = shapely.distance(grown.polygons, base) <= float(np.hypot(*front.T).max())
    near = [v for v, keep in zip(grown.vertices, close, strict=True) if keep]
    if not near:
        return Polygon()
    minx, miny, maxx, maxy = base.bounds
    middle = np.array([(minx + maxx) / 2.0, (miny + maxy) / 2.0])
    reach = math.hypot(maxx - minx, maxy - miny) + 1.0
    diffs = [_differences(piece, front) for piece in near]
    owner = np.repeat(np.arange(len(diffs)), [len(d) for d in diffs])
    touch = shapely.intersection(
        shapely.convex_hull(shapely.multipoints(np.vstack(diffs), indices=owner)),
        _upper_side(normal, option.b_map[2], middle, 3.0 * reach))
    # Each touching set slid along e by the base's extent: all of it that can reach the base.
    coords, index = shapely.get_coordinates(touch, return_index=True)
    if not len(coords):
        return Polygon()
    # multipoints wants its indices sorted and gapless (an empty touching set has none).
    owners = np.tile(np.unique(index, return_inverse=True)[1], 2)
    both = np.vstack([coords, coords + reach * e])
    order = np.argsort(owners, kind="stable")
    slid = shapely.convex_hull(shapely.multipoints(both[order], indices=owners[order]))
    parts = [g for g in slid if not g.is_empty and g.intersects(base)]
    return shapely.union_all(parts) if parts else Polygon()


def _differences(piece: np.ndarray, shape: np.ndarray) -> np.ndarray:
    """Every vertex of `piece` less every vertex of `shape`: their hull is the set of
    shifts t with shape + t meeting piece (both convex)."""
    return (piece[:, None, :] - shape[None]).reshape(-1, 2)


def _upper_side(normal: np.ndarray, offset: float, middle: np.ndarray,
                half: float) -> Polygon:
    """The half-plane normal . x + offset >= 0, as a square of side 2 half about `middle`'s
    foot on its line."""
    n = normal / np.linalg.norm(normal)
    along = np.array([-n[1], n[0]])
    foot = middle - (float(normal @ middle) + offset) / float(np.linalg.norm(normal)) * n
    return Polygon([foot - half * along, foot + half * along,
                    foot + half * along + 2 * half * n, foot - half * along + 2 * half * n])


def _sector(front: np.ndarray, wheel_deg: float, width: float) -> np.ndarray:
    """The wheel's sector at a = 0, inscribed: its apex (the inner front corner) and arc
    vertices on the outer corner's circle."""
    pivot = front[0] if wheel_deg > 0 else front[1]
    start = 0.0 if wheel_deg > 0 else math.pi
    angles = start + np.radians(wheel_deg) * np.linspace(0.0, 1.0, SECTOR_POINTS)
    arc = pivot + width * np.stack([np.cos(angles), np.sin(angles)], axis=1)
    return np.vstack([pivot[None], arc])


def _near(grown: GrownPieces, shape: np.ndarray, f: np.ndarray,
          budget: float) -> list[np.ndarray]:
    """The pieces `shape`, slid along f by up to `budget`, might meet (a corridor)."""
    side = np.array([f[1], -f[0]])
    across, ahead = shape @ side, float((shape @ f).max()) + budget
    low, high = grown.spans(side)
    nearest = grown.spans(f)[0]
    keep = (high >= across.min()) & (low <= across.max()) & (nearest <= ahead)
    return [grown.vertices[k] for k in np.flatnonzero(keep)]


def _ray_hits(pieces: list[np.ndarray], shape: np.ndarray,
              f: np.ndarray) -> list[tuple[float, float]]:
    """Per piece that `shape` + t f meets for some t (on the whole line through 0), the
    interval of such t: t f lies in piece minus shape, the hull of their differences.  The
    hull meets the line in the segment spanned by where the segments between differences
    on either side of it cross it (every crossing is in the hull, and its ends are)."""
    side = np.array([f[1], -f[0]])
    out = []
    for piece in pieces:
        diffs = _differences(piece, shape)
        u, v = diffs @ f, diffs @ side
        if v.min() > 0.0 or v.max() < 0.0:
            continue
        up, down = v >= 0.0, v <= 0.0
        vi, vj = v[up][:, None], v[down][None, :]
        ui, uj = u[up][:, None], u[down][None, :]
        with np.errstate(invalid="ignore", divide="ignore"):
            cross = np.where(vi == vj, ui, ui + (uj - ui) * vi / (vi - vj))
        out.append((float(cross.min()), float(cross.max())))
    return out


def leg_bands(option: Option, refused: list[tuple[float, float]],
              base: shapely.Geometry) -> shapely.Geometry:
    """The end centres of `base`'s extent whose first leg a = a_map . (c, 1) lies in one of
    the `refused` intervals (a union of bands between lines of equal a)."""
    nx, ny, off = option.a_map
    norm = math.hypot(nx, ny)
    if norm < 1e-12 or not refused or base.is_empty:
        return Polygon()
    n = np.array([nx, ny]) / norm
    along = np.array([-n[1], n[0]])
    minx, miny, maxx, maxy = base.bounds
    middle = np.array([(minx + maxx) / 2.0, (miny + maxy) / 2.0])
    half = math.hypot(maxx - minx, maxy - miny) + 1.0
    at = float(n @ middle)  # the middle's own n . c
    bands = []
    for lo, hi in union_of(refused):
        # n . c = (a - off) / norm; clipped to the base's extent about its middle.
        low = max((lo - off) / norm, at - half)
        high = min((hi - off) / norm, at + half)
        if high <= low:
            continue
        base_point = middle - at * n
        bands.append(Polygon([base_point + low * n + half * along,
                              base_point + high * n + half * along,
                              base_point + high * n - half * along,
                              base_point + low * n - half * along]))
    return shapely.MultiPolygon(bands) if bands else Polygon()
