"""End-pose masks of any manoeuvre: `legal_mask`, and `pose_judge` that picks the judge.

Most families are judged per pose by `BatchJudge` (optimizer.batch).  A family whose batch
judge answers per way (Warhammer's: an end facing may be reached by several ways, a turn on
the spot then a wheel, and the judge gives the checker's verdict on each pose of one way) is
judged by `WayPoseJudge` over its legal-move view (optimizer.queries): a pose (centre,
facing, files) is legal when some way of the view that ends at that facing with those files
passes the family's mask at that centre, the view's own test for `move in view` for many
poses at once.  Sound as the view's mask is (True implies the checker finds the way's move
legal); a pose whose facing is off the view's facings (1 deg by default) is False, since the
view holds no way to it.

This module sits above both the batch judge and the view, so neither imports the other.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from constraints.core.scenario import Scenario
from optimizer.batch.judge import BatchJudge, files_array, pose_array, validate_request
from optimizer.dispatch import require
from optimizer.families.base import family_for
from optimizer.queries import legal_moves


def _facing_key(facing_deg: float) -> float:
    return round(facing_deg % 360.0, 6) % 360.0


class WayPoseJudge:
    """`BatchJudge.mask`'s answer for a family with a per-way judge (`Family.judge_kind`)."""

    def __init__(self, scenario: Scenario, unit_id: str, manoeuvre: str) -> None:
        self.view = legal_moves(scenario, unit_id, manoeuvre)  # checks unit and manoeuvre
        self.unit = scenario.unit(unit_id)
        # (end facing, end files) -> the indices of the view's options ending so
        self.ways: dict[tuple[float, int], list[int]] = {}
        for k, option in enumerate(self.view.options):
            key = (_facing_key(option.facing_deg), option.files)
            self.ways.setdefault(key, []).append(k)

    def mask(self, centres: np.ndarray, facings: np.ndarray, *,
             pivots: np.ndarray | None = None,
             files: int | np.ndarray | None = None) -> np.ndarray:
        """Whether each end pose is legal (world centres (N, 2), facings (N,) degrees, files
        per pose or one for all; no Pivots: these ways have none)."""
        if pivots is not None:
            pose_array(pivots, "pivots", (-1,))  # malformed input is still refused
        return self.ways_to(centres, facings, files) >= 0

    def moves(self, centres: np.ndarray, facings: np.ndarray,
              files: int | np.ndarray | None = None) -> list[Any]:
        """Per pose, the move of the first way (in the view's order) that the mask passes,
        ending there; None where the mask passes none."""
        centres = pose_array(centres, "centres", (-1, 2))
        chosen = self.ways_to(centres, facings, files)
        frame, view = self.view.frame, self.view
        ends = [frame.point((float(x), float(y))) for x, y in centres]
        return [None if k < 0 else view.family.move(view.unit_id, frame, view.options[k],
                                                    (float(ends[n][0]), float(ends[n][1])))
                for n, k in enumerate(chosen)]

    def ways_to(self, centres: np.ndarray, facings: np.ndarray,
                files: int | np.ndarray | None = None) -> np.ndarray:
        """Per pose, the index in the view's options of the first way the mask passes, or
        -1."""
        centres = pose_array(centres, "centres", (-1, 2))
        facings = pose_array(facings, "facings", (len(centres),))
        ends = np.full(facings.shape, self.unit.files) if files is None else \
            files_array(files, facings.shape)
        keys = np.round(np.mod(facings, 360.0), 6) % 360.0
        chosen = np.full(len(facings), -1, dtype=np.int64)
        for key, end_files in sorted({(float(k), int(f)) for k, f in zip(keys, ends,
                                                                          strict=True)}):
            poses = np.flatnonzero((keys == key) & (ends == end_files))
            for k in self.ways.get((key, end_files), []):
                option = self.view.options[k]
                todo = poses[chosen[poses] < 0]
                if len(todo) == 0:
                    break
                if not self.view.judge.way_passes(option.facing_deg, option.pivot_deg,
                                                  option.files):
                    continue  # no end centre of this way can be legal
                passed = self.view.family.mask(self.view.judge, centres[todo], [option],
                                               np.zeros(len(todo), dtype=int))
                chosen[todo[passed]] = k
        return chosen


def legal_mask(scenario: Scenario, unit_id: str, manoeuvre: str, centres: np.ndarray,
               facings: np.ndarray, *, pivots: np.ndarray | None = None,
               files: int | np.ndarray | None = None) -> np.ndarray:
    """Whether each end pose is legal (see BatchJudge; build one to query repeatedly)."""
    require(scenario, "legal_mask")
    validate_request(scenario, unit_id, manoeuvre)
    return pose_judge(scenario, unit_id, manoeuvre).mask(centres, facings, pivots=pivots,
                                                         files=files)


def pose_judge(scenario: Scenario, unit_id: str,
               manoeuvre: str) -> BatchJudge | WayPoseJudge:
    """What masks a manoeuvre's end poses: `BatchJudge`, or, for a family whose judge
    answers per way (`Family.judge_kind`), the ways of its legal-move view
    (WayPoseJudge)."""
    if family_for(scenario.profile, manoeuvre).judge_kind is None:
        return BatchJudge(scenario, unit_id, manoeuvre)
    return WayPoseJudge(scenario, unit_id, manoeuvre)
