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

ARC_SEGMENTS = 8       # chords of a sector's arc (circumscribed)
CLIP_SEGS = 16         # quarter-circle segments of a grown region (circumscribed)
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


def taken(pieces: ReachPieces, rows: np.ndarray) -> ReachPieces:
    """The pieces of these rows."""
    return replace(pieces, **{f: getattr(pieces, f)[rows] for f in
                              ("facing", "spread", "apex", "radius", "arc_lo", "arc_hi",
                               "grow", "back", "back_grow")})


def grown_by(region: shapely.Geometry, distance: float) -> shapely.Geometry:
    """`region` grown by `distance`, circumscribed (its round chords stay beyond it)."""
    return region.buffer(distance / math.cos(math.pi / (4 * CLIP_SEGS)) + ROOM_IN,
                         quad_segs=CLIP_SEGS)
