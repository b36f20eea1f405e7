"""A toy clause and the profile that applies it: what adding a clause takes.

The clause is its own module (check, encode, masker, examples); the profile is data (the T9A
profile with one more clause on the March, and the one parameter it reads).  Nothing else
changes: the conformance suite finds the clause in the registry and runs every test on it,
and a scenario of the profile sets the parameter through its `rule_options` as any other.
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
# The profile's own parameter (the shipped T9A profile has none of that name): how far right
# a March may wheel, 0 unless the scenario's rule_options say otherwise.
TOY_PARAM = "toy_right_wheel_deg"


class NoRightWheel(Clause):
    """A house rule for the test: a March may not wheel right (further than `limit`)."""

    id = TOY_ID
    examples = (
        RuleExample("a left wheel is fine", field(rules=TOY_PROFILE), march(wh(30.0)), False,
                    ("right_wheel", 0.0)),
        RuleExample("a right wheel is not", field(rules=TOY_PROFILE), march(wh(-30.0)), True,
                    ("right_wheel", 30.0)),
        RuleExample("a right wheel within the scenario's limit is fine",
                    field(rules=TOY_PROFILE, **{TOY_PARAM: 45.0}), march(wh(-30.0)), False,
                    ("right_wheel", 30.0)),
        RuleExample("a right wheel past the scenario's limit is not",
                    field(rules=TOY_PROFILE, **{TOY_PARAM: 20.0}), march(wh(-30.0)), True,
                    ("right_wheel", 30.0)),
    )

    def check(self, ctx) -> ClauseResult:
        right = max((-leg.step.value for leg in ctx.trajectory.legs
                     if leg.step.kind == StepKind.WHEEL), default=0.0)
        right = max(0.0, right)
        limit = float(self.params["limit"])
        return self.result("right_wheel", right, limit, right <= limit,
                           f"the March wheels {right:.3f} deg right", dimension="deg")

    def encode(self, ectx) -> None:
        limit = float(self.params["limit"])
        for option in ectx.options:
            if option.wheel_deg < -limit:
                ectx.enc.forbid(option.index, self.id)

    def masker(self, setting) -> Masker:
        limit = float(self.params["limit"])

        def judge(poses, ok: np.ndarray) -> np.ndarray:
            return ok & (poses.ways.delta >= -limit)[poses.inv]
        return Masker(self.id, Stage.WAY, judge)


def register() -> None:
    """The profile data: T9A with the toy clause on the March, and its parameter."""
    base = find_profile("t9a")
    manoeuvres = dict(base.manoeuvres)
    manoeuvres["march"] = manoeuvres["march"] + (
        ClauseSpec(NoRightWheel, {"limit": TOY_PARAM}),)
    register_profile(type(base)(TOY_PROFILE, "T9A with a toy house rule",
                                MappingProxyType(manoeuvres),
                                MappingProxyType({**base.params, TOY_PARAM: 0.0}), "t9a"))
