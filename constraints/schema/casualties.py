"""The casualties file of `manoeuvre nudge --casualties FILE` (docs/formats.md
"Casualties"): per unit a count, the slots removed, or losses outside the Melee Phase.
Whether the units and slots exist is the scenario's to say (optimizer/nudge/losses.py)."""

from __future__ import annotations

from pydantic import Field, RootModel

from constraints.schema.common import Count, FileModel, Slot, Text


class OutsideMelee(FileModel):
    """Losses outside the Melee Phase: taken from the side that keeps engaged units in
    contact."""

    count: Count
    outside_melee: bool = False


class Casualties(RootModel[dict[Text, Count | list[Slot] | OutsideMelee]]):
    """Unit id -> a count (removed in the rules' order), the [rank, file] slots of the models
    removed, or {"count": N, "outside_melee": true}."""

    model_config = {"strict": True, "frozen": True}
    root: dict[Text, Count | list[Slot] | OutsideMelee] = Field(default_factory=dict)
