"""March blocked (RULES §4.8, WHFB 6th/7th): a unit may not march if a non-fleeing enemy unit
is within 8" at the start of its move.  Measured as the least distance between the unit's
boundary and a non-fleeing enemy's at the start.

Decision: "within 8"" is inclusive, so an enemy exactly 8" away blocks (docs/rules.md §1.2,
§14); friends never block, and nor do enemies whose `state` is "fleeing".  With no such enemy
on the table there is nothing to measure (no measurement is reported).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import shapely

from constraints.core.clause import Clause, Judges, Masker, RuleExample, Stage
from constraints.core.limits import more_than
from constraints.core.scenario import Scenario
from constraints.core.verdict import ClauseResult
from constraints.geometry.plane import closest_points
from constraints.rank_and_file.poses import MaskSetting
from constraints.sat.context import EncodeContext
from constraints.whfb7.context import WarhammerContext
from constraints.whfb7.examples import Json, field, fw, march, unit
from constraints.whfb7.mask_geometry import BLOCKED
from constraints.whfb7.mask_poses import Verdicts, WayBatch
from constraints.whfb7.moves import Manoeuvre, WarhammerMove


def _with(gap: float, player: str = "blue", state: str | None = None) -> Json:
    """The default unit (front edge y = 11) and another unit `gap` inches beyond its front."""
    other = unit("other", centre=(36.0, 12.0 + gap), facing=270.0, player=player)
    return field(unit(), other | ({"state": state} if state else {}))


class MarchBlocked(Clause):
    id = "whfb7.march.blocked"
    judges = Judges.END_POSE  # the start alone, which every way shares

    examples = (
        RuleExample('a march begun 7.9" from an enemy is refused', _with(7.9), march(fw(1.0)),
                    True, ("enemy_distance", 7.9)),
        RuleExample('exactly 8" is within 8"', _with(8.0), march(fw(1.0)), True,
                    ("enemy_distance", 8.0)),
        RuleExample('8.1" away is fine', _with(8.1), march(fw(1.0)), False,
                    ("enemy_distance", 8.1)),
        RuleExample("a fleeing enemy does not block", _with(7.9, state="fleeing"),
                    march(fw(1.0)), False),
        RuleExample("friends do not block", _with(7.9, player="red"), march(fw(1.0)), False),
    )

    def check(self, ctx: WarhammerContext) -> ClauseResult:
        unit = ctx.unit
        enemies = [u for u in ctx.scenario.others(unit.id)
                   if u.player != unit.player and u.state != "fleeing"]
        if not enemies:
            return ClauseResult()
        start = unit.boundary()
        gaps = shapely.distance(start, [e.boundary() for e in enemies])
        k = int(gaps.argmin())
        gap, limit = float(gaps[k]), self.number("block_in")
        message = (f"enemy unit {enemies[k].id} (not fleeing) is {gap:.3f}\" away at the "
                   f"start: a march needs it more than {limit:.3f}\" away")
        witness = closest_points(start, enemies[k].boundary())
        return self.result("enemy_distance", gap, limit, more_than(gap, limit), message,
                           witness)

    def refuses_every_move(self, scenario: Scenario, unit: Any) -> bool:
        """Blocked at the start: every march is refused, whatever its steps."""
        standing = WarhammerMove(unit.id, Manoeuvre.MARCH)
        return bool(self.check(WarhammerContext(scenario, standing)).violations)

    def masker(self, setting: MaskSetting) -> Masker | None:
        """Blocked at the start: every pose blocked (exact); else none refused."""
        if not self.refuses_every_move(setting.scenario, setting.unit):
            return None

        def judge(poses: WayBatch, ok: np.ndarray) -> np.ndarray:
            verdicts = Verdicts(len(poses))
            verdicts.state[:] = BLOCKED
            return poses.record(ok, verdicts)
        return Masker(self.id, Stage.WAY, judge)

    def encode(self, ectx: EncodeContext) -> None:
        """Blocked at the start: every option is forbidden."""
        if self.refuses_every_move(ectx.scenario, ectx.unit):
            for option in ectx.options:
                ectx.enc.forbid(option.index, self.id)
