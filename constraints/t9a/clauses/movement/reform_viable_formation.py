"""Viable formation after a Reform (seed 000; docs/rules.md §5.4, §2.4, §8.8).

"The unit cannot voluntarily have more Ranks than Files unless the unit is wide enough to
have a Proper Rank", and the front rank sets the width, so it is full: files <= models.
A Proper Rank is 5 models wide at Height 0-2, 3 at Height 3-4, 1 at Height 5.
Decision: keeping the files the unit already has is not a *voluntary* change, so a unit
that starts deeper than wide (after casualties, say) may Reform keeping its files.
"""

from __future__ import annotations

import numpy as np
import shapely

from constraints.core.clause import Clause, Masker, RegionPart, RuleExample, Stage
from constraints.core.verdict import ClauseResult, Violation
from constraints.rank_and_file.formation import Formation
from constraints.rank_and_file.poses import MaskSetting, ReformPoses
from constraints.rank_and_file.regions import RegionQuery
from constraints.rank_and_file.unit import Unit
from constraints.sat.context import EncodeContext
from constraints.t9a.context import MoveContext
from constraints.t9a.examples import field, reform, unit


def formation_problem(formation: Formation, proper_rank_width: int,
                      start_files: int | None = None) -> tuple[str, float, float]:
    """(what is wrong, measured, limit), or ("", 0, 0) for a viable formation."""
    if formation.files > formation.model_count:
        return ("files exceed the models that fill the front rank", formation.files,
                formation.model_count)
    voluntary = formation.files != start_files
    if voluntary and formation.ranks > formation.files and formation.files < proper_rank_width:
        return (f"more ranks than files while narrower than a Proper Rank "
                f"({proper_rank_width} wide)", formation.ranks, formation.files)
    return ("", 0.0, 0.0)


def _troop(models: int, height: int) -> dict:
    return field(unit(models=models, files=min(models, 3), height=height, mobility=20.0,
                      centre=(36.0, 24.0)))


class ViableFormation(Clause):
    id = "t9a.reform.viable_formation"
    monotone_in_shape = True  # it reads the files alone

    examples = (
        RuleExample("no more ranks than files: 9 models 3 x 3 is fine", _troop(9, 1),
                    reform(files=3), False, ("ranks", 3.0)),
        RuleExample("10 models in 2 files is 5 ranks > 2 files", _troop(10, 1),
                    reform(files=2), True, ("ranks", 5.0)),
        RuleExample("unless a Proper Rank wide: 5 files of Height 1 may be 6 deep",
                    _troop(30, 1), reform(files=5), False, ("ranks", 6.0)),
        RuleExample("Height 3 needs only 3 for a Proper Rank", _troop(12, 3), reform(files=3),
                    False, ("ranks", 4.0)),
        RuleExample("Height 5 (Giants) may stand in a single file", _troop(4, 5),
                    reform(files=1), False, ("ranks", 4.0)),
        RuleExample("the front rank must be full: 6 files for 5 models is not a formation",
                    _troop(5, 1), reform(files=6), True),
    )

    def check(self, ctx: MoveContext) -> ClauseResult:
        formation = ctx.end_unit.formation
        width = self.proper_rank_width(ctx.unit.height)
        problem, measured, limit = formation_problem(formation, width, ctx.unit.files)
        measurements = {"ranks": float(formation.ranks)}
        if not problem:
            return ClauseResult(measurements)
        message = (f"{formation.files} files x {formation.ranks} ranks is not a viable "
                   f"formation: {problem}")
        return ClauseResult(measurements, (Violation(self.id, measured, limit, "models",
                                                     message),))

    def proper_rank_width(self, height: int) -> int:
        widths = self.counts("proper_rank_width")
        return int(widths[min(height, len(widths) - 1)])

    def viable(self, unit: Unit, files: int) -> bool:
        """Whether `unit` reformed to `files` files stands in a viable formation."""
        width = self.proper_rank_width(unit.height)
        return not formation_problem(unit.formation.reformed(files), width, unit.files)[0]

    def region(self, query: RegionQuery) -> RegionPart | None:
        """No end centre for a formation that is not viable (the files alone decide it), so
        the search's regions, relaxed and sound, leave such an option nothing."""
        if self.viable(query.setting.unit, query.option.files):
            return None
        return RegionPart(keep=[shapely.Polygon()])

    def masker(self, setting: MaskSetting) -> Masker:
        """Per formation (files) of the batch."""
        unit = setting.unit

        def judge(poses: ReformPoses, ok: np.ndarray) -> np.ndarray:
            files = np.unique(poses.files[ok])
            bad = [f for f in files if not self.viable(unit, int(f))]
            return ok & ~np.isin(poses.files, bad)
        return Masker(self.id, Stage.WAY, judge)

    def encode(self, ectx: EncodeContext) -> None:
        for option in ectx.options:
            if not self.viable(ectx.unit, option.files):
                ectx.enc.forbid(option.index, self.id)
