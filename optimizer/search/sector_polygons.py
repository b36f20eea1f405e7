"""Convex polygons of a certificate's pieces for the end-position cut
(optimizer.search.end_cut): a piece's sector before its margin, circumscribed, and what the
cut needs of them."""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np
import shapely

from constraints.geometry.frame import Frame
from constraints.geometry.pieces import FULL, ReachPieces
from optimizer.search.budget_sets import budget_polygons

ARC_SEGMENTS = 8       # chords of a sector's arc (circumscribed)
CLIP_SEGS = 16         # quarter-circle segments of a grown region (circumscribed)
LINE_IN = 400.0        # a face_point wedge's length (its chord stays beyond any table)
ROOM_IN = 1e-9         # float room: beyond a grown region; a box settled only this clear of G


def sector_polygons(pieces: ReachPieces, rows: np.ndarray, frame: Frame) -> np.ndarray:
    """Per row, a convex polygon (frame terms) holding the piece's sector before its margin:
    the apex and the arc's circumscribed chords (for an arc past pi, the full disc's
    polygon)."""
    apex, radius = pieces.apex[rows], np.maximum(pieces.radius[rows], 0.0)
    lo, hi = pieces.arc_lo[rows], pieces.arc_hi[rows]
    full = (hi - lo) > math.pi
    lo = np.where(full, 0.0, lo)
    hi = np.where(full, FULL, hi)
    step = (hi - lo) / ARC_SEGMENTS
    far = radius / np.cos(step / 2.0)
    angles = lo[:, None] + step[:, None] * np.arange(ARC_SEGMENTS + 1)[None]
    arc = apex[:, None, :] + far[:, None, None] * np.stack([np.cos(angles),
                                                            np.sin(angles)], axis=-1)
    # A full disc's ring is its chords alone (the apex, its centre, lies inside them).
    first = np.where(full[:, None], arc[:, 0, :], apex)
    points = np.concatenate([first[:, None, :], arc], axis=1)
    framed = frame.point_array(points.reshape(-1, 2)).reshape(points.shape)
    return shapely.polygons(framed)


def sector_bounds(sectors: np.ndarray, grow: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each polygon's bounding box grown by its margin (low and high corners)."""
    bounds = shapely.bounds(sectors)
    return bounds[:, :2] - grow[:, None], bounds[:, 2:] + grow[:, None]


def hull_polygons(pieces: ReachPieces, rows: np.ndarray,
                  frame: Frame) -> tuple[np.ndarray, np.ndarray] | None:
    """Per row, a convex polygon (frame terms) and its margin: the polygon grown by the margin
    holds the piece's hull set (constraints.geometry.pieces): the hull of the apex and the
    curves' ends, the margins and a quarter of the most bend (a curve strays from its chord
    by at most bend s (1 - s)).  None without hull sets; a missing polygon (None) where a
    row has none (an infinite margin)."""
    if pieces.hull_points is None or pieces.hull_bend is None or pieces.hull_grow is None:
        return None
    ends = np.concatenate([np.zeros((len(rows), 1, 2)), pieces.hull_points[rows]], axis=1)
    points = pieces.apex[rows][:, None, :] + ends
    framed = frame.point_array(points.reshape(-1, 2)).reshape(points.shape)
    margin = pieces.grow[rows] + pieces.hull_grow[rows] + \
        pieces.hull_bend[rows].max(axis=1, initial=0.0) / 4.0
    out = np.full(len(rows), None, dtype=object)
    has = np.isfinite(margin)
    out[has] = shapely.convex_hull(shapely.linestrings(framed[has]))
    return out, np.where(has, margin, 0.0) + ROOM_IN


def near_sets(g: shapely.Geometry, pieces: ReachPieces, rows: np.ndarray, near: np.ndarray,
              frame: Frame, asked: tuple[bool, bool]) -> tuple[np.ndarray, list[tuple]]:
    """Of `near` (indices into `rows` whose sectors come near G), those whose hull sets and
    budget sets (where the pieces have them; each if `asked`) come near G too, with those
    sets' polygons and margins.  Made only for the few the sector leaves."""
    sets: list[tuple[np.ndarray, np.ndarray]] = []
    for wanted, made in zip(asked, (hull_polygons, budget_polygons), strict=True):
        polygons = made(pieces, rows[near], frame) if wanted and len(near) else None
        if polygons is None:
            continue
        keep = shapely.is_missing(polygons[0]) | shapely.dwithin(g, polygons[0], polygons[1])
        near = near[keep]
        sets = [(p[keep], m[keep]) for p, m in sets] + [(polygons[0][keep], polygons[1][keep])]
    return near, sets


def grown_hulls(hulls: np.ndarray, margin: np.ndarray, segs: int = CLIP_SEGS) -> np.ndarray:
    """The polygons of `hull_polygons` or `budget_polygons` grown by their margins,
    circumscribed with `segs` quarter-circle segments (missing stay so)."""
    return shapely.buffer(hulls, margin / math.cos(math.pi / (4 * segs)), quad_segs=segs)


_ROWS = ("facing", "spread", "apex", "radius", "arc_lo", "arc_hi", "grow", "back",
         "back_grow", "hull_points", "hull_bend", "hull_grow")


def taken(pieces: ReachPieces, rows: np.ndarray) -> ReachPieces:
    """The pieces of these rows (with their hull sets, where they have them)."""
    return replace(pieces, **{f: getattr(pieces, f)[rows] for f in _ROWS
                              if getattr(pieces, f) is not None})


def grown_by(region: shapely.Geometry, distance: float) -> shapely.Geometry:
    """`region` grown by `distance`, circumscribed (its round chords stay beyond it)."""
    return region.buffer(distance / math.cos(math.pi / (4 * CLIP_SEGS)) + ROOM_IN,
                         quad_segs=CLIP_SEGS)


def centre_line_wedge(point: np.ndarray, low_deg: float, high_deg: float,
                      frame: Frame) -> shapely.Geometry:
    """face_point: the double wedge (frame terms) of the centre lines through the point at
    world facings in [low, high]; a centre whose line passes within d of the point lies
    within d of it."""
    angles = np.radians(90.0 + np.array([low_deg, high_deg]) - frame.heading_deg)
    ends = LINE_IN * np.stack([np.cos(angles), np.sin(angles)], axis=1)
    return shapely.union(shapely.Polygon([point, point + ends[0], point + ends[1]]),
                         shapely.Polygon([point, point - ends[0], point - ends[1]]))
