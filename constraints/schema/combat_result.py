"""The combat result (`--result FILE` of `combat-reform` and `check`; docs/formats.md
"Combat Reform proposal and result"): what the round of combat decided.  Every key is
optional."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from constraints.schema.common import FileModel, Text

MAX_DISCIPLINE = 20        # constraints/t9a/combat_reform_io.py
MAX_SCORE_DIFFERENCE = 1000


class CombatResult(FileModel):
    """The loser, the units that passed their test, who reforms first, who skips, and what
    the chance of passing depends on."""

    loser: Text | None = None
    passed: list[Text] = Field(default_factory=list)
    first: Text | None = None
    skip: list[Text] = Field(default_factory=list)
    discipline: dict[Text, Annotated[int, Field(ge=0, le=MAX_DISCIPLINE)]] = Field(
        default_factory=dict)
    score_difference: Annotated[int, Field(ge=0, le=MAX_SCORE_DIFFERENCE)] = 0
    steadfast: list[Text] = Field(default_factory=list)
    stubborn: list[Text] = Field(default_factory=list)
    steady: list[Text] = Field(default_factory=list)
