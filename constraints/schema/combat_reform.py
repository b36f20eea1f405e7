"""A Combat Reform proposal (`manoeuvre check SCENARIO PROPOSAL.json`; docs/formats.md
"Combat Reform proposal and result"): one player's units, in the order they reform.

`models` may list only the Characters (the rank-and-file take the assignment minimising the
longest move).  The keys `combat-reform --json` adds (a model's `position`, a reform's
contacts, status, value, bound and family, the result's status, player, objective, refused,
not_found and verdict) are read past, so a result is itself a proposal.  Whether the units,
models and slots exist is the scenario's to say."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from constraints.schema.common import Angle, FileModel, Files, Point, Slot, Text


class PlacedModel(FileModel):
    """A model's slot in the new formation (rank-and-file `UNIT.INDEX`, characters by id)."""

    id: Text
    slot: Slot
    position: Any = Field(default=None, description="read past")


class ProposedReform(FileModel):
    unit: Text
    files: Files
    centre: Point
    facing: Angle
    models: list[PlacedModel] = Field(default_factory=list)
    contacts_before: Any = None
    contacts_after: Any = None
    status: Any = None
    value: Any = None
    bound: Any = None
    family: Any = None


class CombatReformProposal(FileModel):
    manoeuvre: Literal["combat_reform"]
    reforms: list[ProposedReform] = Field(min_length=1)
    status: Any = None
    player: Any = None
    objective: Any = None
    refused: Any = None
    not_found: Any = None
    verdict: Any = None
