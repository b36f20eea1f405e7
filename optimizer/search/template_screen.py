"""Whether a template of several wheels is worth its model (optimizer.search.more_wheels):
the region its ways can end in, cut by the end-position rules, against the answer so far."""

from __future__ import annotations

import math
from collections.abc import Sequence

import shapely

from constraints.geometry.plane import angle_between_deg
from constraints.sat.option import Option
from optimizer.search.distance_goals import FrontTargetDistance, TargetDistance, TargetPose
from optimizer.search.heading_goals import FacePoint, Forward, lateral_gaps
from optimizer.search.objectives import Goal
from optimizer.search.request import SearchRequest
from optimizer.search.ways import ways_of


class TemplateScreen:
    """Whether a template's model can be left out: no legal way follows its headings (its
    wheels alone cost more than the budget), or none of its ways can beat the answer so
    far.  Its end centres lie in a small convex region (the family's `way_template_reach`,
    tested against the checker's `snake`); the end-position rules, as the relaxed regions
    of the one-wheel pruning (optimizer.search.regions, outer: every legal end centre stays
    in), cut it further, and the objective's exact value is bounded over what is left.  A
    template left out could not have changed the answer."""

    def __init__(self, request: SearchRequest) -> None:
        self.request = request

    def hopeless(self, headings: Sequence[int], value: float | None) -> bool:
        request = self.request
        reach = ways_of(request.family).way_template_reach(request, request.max_wheels, headings)
        if reach is None:
            return True  # no legal way follows it
        end, hull = reach
        if value is None or end is None or hull is None or not bounded(request.goal):
            return False
        best = exact_bound(request.goal, end, request.relaxed_regions.within(end, hull))
        # A hair for the float geometry: left out only when it cannot beat the answer.
        if request.goal.maximise:
            return best <= value - SCREEN_ROOM
        return best >= value + SCREEN_ROOM


SCREEN_ROOM = 1e-6  # inches: the region's float error, far above it


def bounded(goal: Goal) -> bool:
    """Whether `exact_bound` knows the goal."""
    return type(goal) in (TargetDistance, FrontTargetDistance, TargetPose, Forward, FacePoint)


def exact_bound(goal: Goal, option: Option, region: shapely.Geometry) -> float:
    """The best `goal.ranked` of any end pose of the option's facing and formation whose
    centre (start frame) lies in `region` can have, or better (lower when minimising)."""
    if region.is_empty:
        return -math.inf if goal.maximise else math.inf
    if isinstance(goal, Forward):
        return float(region.bounds[3])
    if isinstance(goal, FacePoint):  # the least offset, and the penalty if facing away
        assert goal.point is not None
        return float(lateral_gaps([option], [region], goal.point)[0]) + goal.penalty(option)
    assert isinstance(goal, TargetDistance | FrontTargetDistance | TargetPose)
    assert goal.point is not None
    sx, sy = goal.shift(option)
    gap = float(shapely.distance(region, shapely.Point(goal.point[0] - sx, goal.point[1] - sy)))
    if isinstance(goal, TargetPose):
        assert goal.facing is not None
        return math.hypot(gap, 0.1 * angle_between_deg(option.frame_facing_deg, goal.facing))
    return gap
