"""Where a goal could beat a certificate's target: the clip of end centres for a cell of end
facings (optimizer.search.end_cut, docs/techniques.md §9 "The end-position cut")."""

from __future__ import annotations

import math

import numpy as np
import shapely

from constraints.geometry.frame import Frame
from constraints.rank_and_file.unit import Unit
from constraints.sat.option import Option, front_offset
from optimizer.search.objectives import Goal
from optimizer.search.sector_polygons import CLIP_SEGS, ROOM_IN, centre_line_wedge, grown_by

FAR_IN = 10_000.0


def frame_option(unit: Unit, frame: Frame, facing_deg: float) -> Option:
    """The unit's formation at a world facing, its heading in the frame's terms."""
    return Option(0, facing_deg, 90.0 + facing_deg - frame.heading_deg, unit.files,
                  unit.width_in, unit.depth_in)


def end_clip(goal: Goal, target: float, unit: Unit, frame: Frame, low_deg: float,
             high_deg: float) -> shapely.Geometry:
    """Frame end centres where the goal could beat the (signed) target, facings in [low,
    high] (circumscribed: it holds every such centre)."""
    name = goal.name
    half = math.radians(high_deg - low_deg) / 2.0
    if name == "forward":  # maximised: the end centre's y beyond -target
        return shapely.box(-FAR_IN, -target, FAR_IN, FAR_IN)
    point = np.asarray(goal.point, dtype=float)
    if name == "face_point":  # within `target` of the wedge (its ranking is the offset)
        if target <= 0:
            return shapely.Polygon()
        return grown_by(centre_line_wedge(point, low_deg, high_deg, frame), target)
    radius = target
    if name == "target_pose":
        facing = goal.objective.facing_deg
        assert facing is not None
        mid = (low_deg + high_deg) / 2.0
        off = abs((mid - facing + 180.0) % 360.0 - 180.0)
        turn = max(off - (high_deg - low_deg) / 2.0, 0.0)
        left = target ** 2 - (0.1 * turn) ** 2
        radius = math.sqrt(left) if left > 0 and target > 0 else -1.0
    elif name == "front_target_distance":
        # front = end + offset(h); the offset turns by at most D/2 x half in the cell
        offset = np.asarray(front_offset(frame_option(unit, frame, (low_deg + high_deg) / 2.0)))
        point = point - offset
        radius = target + unit.depth_in / 2.0 * half
    if radius <= 0:
        return shapely.Polygon()
    grown = radius / math.cos(math.pi / (4 * CLIP_SEGS)) + ROOM_IN
    return shapely.Point(*point).buffer(grown, quad_segs=CLIP_SEGS)
