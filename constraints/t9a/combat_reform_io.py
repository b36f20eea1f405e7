"""Combat Reform files (docs/formats.md, "Combat Reform result"): the proposal and the
combat result, read with a JSON path on every problem, and written back.

The proposal (what `manoeuvre check SCENARIO REFORM.json` judges):

    {"manoeuvre": "combat_reform",
     "reforms": [{"unit": "A", "files": 6, "centre": [x, y], "facing": 90.0,
                  "models": [{"id": "A.0", "slot": [0, 0]}, ...]}]}

`models` may list only the Characters; the `position` of a model entry, and the solver's
`contacts_before` / `contacts_after` of a reform entry, are accepted and ignored (they are
derived from the rest), so a solver's answer reads back as a proposal.

The combat result (all keys optional):

    {"loser": "blue", "passed": ["B"], "first": "red", "skip": ["C"],
     "discipline": {"B": 8}, "score_difference": 2, "steadfast": ["B"], "stubborn": [],
     "steady": []}

`steady` is this project's addition (docs/formats.md: more keys may be added): RULES §2.9.4 clamps
a Stubborn unit's modifier only when it is also Steady.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any

from constraints.core.jsonread import read_json, text, whole
from constraints.core.scenario import Scenario
from constraints.errors import InvalidInputError
from constraints.t9a.combat_reform import ModelPlacement, UnitReform, reformed_unit

MANOEUVRE = "combat_reform"
MAX_DISCIPLINE = 20  # Discipline is 0-10 on profiles; a 2D6 roll tops out at 12
MAX_SCORE_DIFFERENCE = 1000
STEADY_LIMIT = 2  # RULES §2.9.3: a Steady unit's Combat Score modifier is at worst -2
_SETS = ("passed", "skip", "steadfast", "stubborn", "steady")


@dataclass(frozen=True)
class CombatResult:
    """What the round of combat decided for the Combat Reforms after it (seed 002): the
    losing player, the units that passed their test, the player reforming first, the units
    their owners chose not to reform, and what the chance of passing depends on."""

    loser: str | None = None
    passed: frozenset[str] = frozenset()
    first: str | None = None
    skip: frozenset[str] = frozenset()
    discipline: Mapping[str, int] = field(default_factory=dict, hash=False)
    score_difference: int = 0
    steadfast: frozenset[str] = frozenset()
    stubborn: frozenset[str] = frozenset()
    steady: frozenset[str] = frozenset()

    def __post_init__(self) -> None:
        for name in ("loser", "first"):
            value = getattr(self, name)
            if value is not None:
                object.__setattr__(self, name, text(value, name))
        for name in _SETS:
            object.__setattr__(self, name, _ids(getattr(self, name), name))
        if not isinstance(self.discipline, Mapping):
            raise InvalidInputError("expected a mapping of unit id to Discipline",
                                    path="discipline")
        checked = {text(k, "discipline"): whole(v, f"discipline.{k}", minimum=0,
                                                maximum=MAX_DISCIPLINE)
                   for k, v in self.discipline.items()}
        object.__setattr__(self, "discipline", MappingProxyType(checked))
        object.__setattr__(self, "score_difference",
                           whole(self.score_difference, "score_difference", minimum=0,
                                 maximum=MAX_SCORE_DIFFERENCE))

    def modifier(self, unit_id: str) -> int:
        """The modifier of the unit's test: "Apply the same modifiers as for the previous
        Break Test (i.e. apply the Combat Score difference, unless the unit is Steadfast or
        Stubborn)" [seed 002].

        Reading (the Break Test is RULES §2.9's): minus the Combat Score difference; a
        Steadfast unit ignores it (§3.5, the 2nd edition's Steady and Solid); a Steady unit
        takes at worst -2 (§2.9.3); a Stubborn unit halves it, rounding up towards the larger
        modifier, after the clamp if also Steady (§2.9.4: -3 becomes -2; Steady -5 becomes
        -2, then -1)."""
        if unit_id in self.steadfast:
            return 0
        penalty = self.score_difference
        if unit_id in self.steady:
            penalty = min(penalty, STEADY_LIMIT)
        if unit_id in self.stubborn:
            penalty = math.ceil(penalty / 2)
        return -penalty

    def chance_to_pass(self, unit_id: str, *, modified: bool = True) -> float | None:
        """The chance of passing the unit's test: 2D6 <= its Discipline plus `modifier`
        ("roll 2D6 <= the highest Dis in the unit", RULES §2.9.1); None when its Discipline
        is not given.  `modified=False` for variant A's Command Test, which names no
        modifier (RULES §2.12 (A) 1)."""
        dis = self.discipline.get(unit_id)
        if dis is None:
            return None
        target = dis + (self.modifier(unit_id) if modified else 0)
        ways = sum(1 for a in range(1, 7) for b in range(1, 7) if a + b <= target)
        return ways / 36.0


def _ids(values: Any, where: str) -> frozenset[str]:
    if isinstance(values, str | bytes) or not isinstance(values, Iterable):
        raise InvalidInputError("expected a collection of unit ids", path=where)
    return frozenset(text(v, where) for v in values)


def combat_reform_from_json(data: Any, scenario: Scenario | None = None
                            ) -> tuple[UnitReform, ...]:
    """The reforms of a proposal file, in order, read through its model
    (`constraints.schema.combat_reform.CombatReformProposal`: the keys `manoeuvre
    combat-reform --json` adds are read past, so its output is a proposal).  With
    `scenario`, each is also placed (an unknown unit or model, a Character left out, a model
    or slot used twice, a slot outside the formation, a unit reformed twice: InvalidInputError
    at its JSON path)."""
    from constraints.schema.errors import read_as

    model = read_as("combat_reform:CombatReformProposal", data)
    reforms = tuple(UnitReform(r.unit, r.files, tuple(r.centre), r.facing,
                               tuple(ModelPlacement(m.id, tuple(m.slot)) for m in r.models))
                    for r in model.reforms)
    if scenario is not None:
        _validate(reforms, scenario)
    return reforms


def _validate(reforms: Sequence[UnitReform], scenario: Scenario) -> None:
    seen: set[str] = set()
    for i, reform in enumerate(reforms):
        where = f"$.reforms[{i}]"
        if not scenario.has_unit(reform.unit):
            known = ", ".join(u.id for u in scenario.units)
            raise InvalidInputError(f"unknown unit {reform.unit!r} (units: {known})",
                                    path=f"{where}.unit")
        if reform.unit in seen:
            raise InvalidInputError(f"unit {reform.unit!r} reforms twice", path=f"{where}.unit")
        seen.add(reform.unit)
        try:
            reformed_unit(scenario.unit(reform.unit), reform)
        except InvalidInputError as exc:
            raise exc.at(f"{where}.{exc.path}") from None


def load_combat_reform(path: str | Path, scenario: Scenario | None = None
                       ) -> tuple[UnitReform, ...]:
    try:
        return combat_reform_from_json(read_json(path), scenario)
    except InvalidInputError as exc:
        raise exc.in_file(str(path)) from None


def combat_reform_to_json(reforms: Sequence[UnitReform]) -> dict[str, Any]:
    """The proposal file that `combat_reform_from_json` reads back as `reforms`."""
    return {"manoeuvre": MANOEUVRE,
            "reforms": [{"unit": r.unit, "files": r.files, "centre": list(r.centre),
                         "facing": r.facing_deg,
                         "models": [{"id": m.id, "slot": list(m.slot)} for m in r.models]}
                        for r in reforms]}


def combat_result_from_json(data: Any) -> CombatResult:
    """A combat result file, read through its model (`constraints.schema.combat_result`)."""
    from constraints.schema.errors import read_as

    model = read_as("combat_result:CombatResult", data)
    return CombatResult(loser=model.loser, first=model.first,
                        discipline=dict(model.discipline),
                        score_difference=model.score_difference,
                        **{name: frozenset(getattr(model, name)) for name in _SETS})


def load_combat_result(path: str | Path) -> CombatResult:
    try:
        return combat_result_from_json(read_json(path))
    except InvalidInputError as exc:
        raise exc.in_file(str(path)) from None


def combat_result_to_json(result: CombatResult) -> dict[str, Any]:
    out: dict[str, Any] = {name: getattr(result, name) for name in ("loser", "first")
                           if getattr(result, name) is not None}
    out.update({name: sorted(getattr(result, name)) for name in _SETS})
    out["discipline"] = dict(sorted(result.discipline.items()))
    out["score_difference"] = result.score_difference
    return out


def save_combat_reform(reforms: Sequence[UnitReform], path: str | Path) -> None:
    try:
        Path(path).write_text(json.dumps(combat_reform_to_json(reforms), indent=2) + "\n",
                              encoding="utf-8")
    except OSError as exc:
        raise InvalidInputError(f"cannot write file: {exc.strerror or exc}",
                                source=str(path)) from None
