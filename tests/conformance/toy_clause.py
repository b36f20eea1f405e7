"""A toy clause and the profile that applies it: what adding a clause takes.

The clause is its own module (check, encode, masker, examples); the profile is data (the T9A
profile with one more clause on the March).  Nothing else changes: the conformance suite
finds the clause in the registry and runs every test on it.
"""

from __future__ import annotations

from types import MappingProxyType

import numpy as np

from constraints.core.clause import Clause, Masker, RuleExample, Stage
from constraints.core.profile import ClauseSpec, find_profile, register_profile
from constraints.core.verdict import ClauseResult
from constraints.t9a.examples import field, march, wh
from constraints.t9a.moves import StepKind

TOY_PROFILE = "t9a-toy"
TOY_ID = "toy.march.no_right_wheel"


class NoRightWheel(Clause):
    """A house rule for the test: a March may not wheel right."""

    id = TOY_ID
    examples = (
        RuleExample("a left wheel is fine", field(rules=TOY_PROFILE), march(wh(30.0)), False,
                    ("right_wheel", 0.0)),
        RuleExample("a right wheel is not", field(rules=TOY_PROFILE), march(wh(-30.0)), True,
                    ("right_wheel", 30.0)),
    )

    def check(self, ctx) -> ClauseResult:
        right = max((-leg.step.value for leg in ctx.trajectory.legs
                     if leg.step.kind == StepKind.WHEEL), default=0.0)
        right = max(0.0, right)
        return self.result("right_wheel", right, 0.0, right <= 0.0,
                           f"the March wheels {right:.3f} deg right", dimension="deg")

    def encode(self, ectx) -> None:
        for option in ectx.options:
            if option.wheel_deg < 0:
                ectx.enc.forbid(option.index, self.id)

    def masker(self, setting) -> Masker:
        def judge(poses, ok: np.ndarray) -> np.ndarray:
            return ok & (poses.ways.delta >= 0)[poses.inv]
        return Masker(self.id, Stage.WAY, judge)


def register() -> None:
    """The profile data: T9A with the toy clause on the March."""
    base = find_profile("t9a")
    manoeuvres = dict(base.manoeuvres)
    manoeuvres["march"] = manoeuvres["march"] + (ClauseSpec(NoRightWheel),)
    register_profile(type(base)(TOY_PROFILE, "T9A with a toy house rule",
                                MappingProxyType(manoeuvres), base.params, "t9a"))
