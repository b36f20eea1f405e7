"""The Post-Combat Pivot's model distance (RULES §2.11.6: "may make a Pivot"; §2.4.3): "No
model may move more than 2xMob, measured as the straight line between its base centre before
and after", models reordered keeping the files: the Pivot's own clause and measure (the
bottleneck of the best assignment), with examples of the Post-Combat Pivot."""

from __future__ import annotations

from typing import ClassVar

from constraints.core.clause import RuleExample
from constraints.t9a.clauses.movement.pivot_model_distance import PivotModelDistance
from constraints.t9a.clauses.post_combat.examples import pcp
from constraints.t9a.examples import field, unit


class PostCombatModelDistance(PivotModelDistance):
    id = "t9a.post_combat_pivot.model_distance"
    examples: ClassVar[tuple[RuleExample, ...]] = (
        RuleExample("staying as it stands moves nobody", field(), pcp(), False,
                    ("pivot_model_move", 0.0)),
        RuleExample("a Post-Combat Pivot uses the Pivot rules: no angle limit, an about-face "
                    "reordered moves nobody", field(unit(models=10, files=10, mobility=2.0)),
                    pcp(180.0), False, ("pivot_model_move", 0.0)),
        RuleExample("a 20-wide line of Mob 2 turning 90 deg swings its ends beyond 4\"",
                    field(unit(models=20, files=20, centre=(36.0, 20.0), mobility=2.0)),
                    pcp(90.0), True),
        RuleExample("a square block turns a quarter easily",
                    field(unit(models=25, files=5)), pcp(90.0), False),
    )
