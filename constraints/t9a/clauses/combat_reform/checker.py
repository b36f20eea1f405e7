"""The exact checker of one player's Combat Reforms: every clause of the scenario's profile,
each violation with its measurement.

Seed 002: "After this player has completed all Combat Reforms with their units (one at a
time, in any order), the opponent Combat Reforms their units."  So the reforms given are one
player's, in the order made; each unit's reform is judged with the units reformed before it
already placed, and the deferred clauses ("after a player has completed all their Combat
Reforms") once over all of them, when `player_done` says the player has finished.  The
opponent's reforms are checked by another call, from the scenario after these.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import partial

from constraints.core.scenario import Scenario
from constraints.core.verdict import ModelPlace, Reading, Verdict, Violation
from constraints.errors import InvalidInputError
from constraints.rank_and_file.unit import Unit
from constraints.t9a.clauses.combat_reform import CLAUSES, CombatReformClause
from constraints.t9a.clauses.combat_reform.context import ReformContext
from constraints.t9a.combat_reform import UnitReform, placed
from constraints.t9a.combat_reform_io import CombatResult

MANOEUVRE = "combat_reform"


def check_combat_reform(scenario: Scenario, reforms: Sequence[UnitReform],
                        result: CombatResult | None = None,
                        player_done: bool = True, referee: float | None = None) -> Verdict:
    """Judge one player's `reforms` (in order), every unit standing in `scenario` as before
    them, under the combat `result` (default: no loser, nobody skips).

    The verdict names the reformed units (comma-separated), ends where the last one ends,
    and keys measurements `clause.name`; with several units, a per-unit clause's also name
    the unit: `clause.name[unit]`.  A measurement with nothing to measure (the distance to
    the nearest new enemy when there is none) is left out.  Raises InvalidInputError for
    malformed input.  `referee`: a referee tolerance in inches (A21), None for the exact
    verdict alone."""
    reforms, result = validated(scenario, reforms, result)
    clauses = CLAUSES[scenario.profile.name]
    violations: list[Violation] = []
    measurements: dict[str, float] = {}
    readings: list[Reading] = []
    contexts = unit_contexts(scenario, reforms, result)
    for ctx in contexts:
        suffix = f"[{ctx.unit_id}]" if len(reforms) > 1 else ""
        _judge([c for c in clauses if not c.deferred], ctx, suffix, violations, measurements,
               readings)
    if player_done:
        whole = ReformContext(scenario, reforms, result)
        _judge([c for c in clauses if c.deferred], whole, "", violations, measurements,
               readings)
    end = contexts[-1].end_unit
    return Verdict(",".join(r.unit for r in reforms), MANOEUVRE, end.pose.centre,
                   end.pose.facing_deg, end.files, end.corners(), tuple(violations),
                   measurements, readings=tuple(readings),
                   models_of=partial(_models, tuple(c.end_unit for c in contexts))
                   ).refereed(referee)


def _models(units: tuple[Unit, ...]) -> tuple[ModelPlace, ...]:
    """Where every reformed unit's models end (a verdict's `end.models`)."""
    return tuple(m for unit in units for m in unit.model_places())


def _judge(clauses: Sequence[type[CombatReformClause]], ctx: ReformContext, suffix: str,
           violations: list[Violation], measurements: dict[str, float],
           readings: list[Reading]) -> None:
    for clause in clauses:
        found = clause().check(ctx)
        violations += found.violations
        readings += found.readings
        # JSON has no infinity: a distance to nothing at all (no other unit) is left out.
        measurements.update({f"{clause.id}.{k}{suffix}": v
                             for k, v in found.measurements.items() if math.isfinite(v)})


def unit_contexts(scenario: Scenario, reforms: Sequence[UnitReform],
                  result: CombatResult) -> list[ReformContext]:
    """One context per reform, each `before` holding the units reformed earlier placed."""
    found = []
    current = scenario
    for reform in reforms:
        ctx = ReformContext(current, (reform,), result)
        found.append(ctx)
        current = ctx.after
    return found


def validated(scenario: Scenario, reforms: Sequence[UnitReform],
              result: CombatResult | None) -> tuple[tuple[UnitReform, ...], CombatResult]:
    """The reforms and result, checked: a scenario whose profile has Combat Reform rules,
    reforms of known units, each once, all of one player, each placeable; a result naming
    known units and players."""
    if not isinstance(scenario, Scenario):
        raise InvalidInputError(f"expected a Scenario, got {type(scenario).__name__}",
                                path="scenario")
    if scenario.profile.name not in CLAUSES:
        raise InvalidInputError(f"rules {scenario.profile.name!r} have no Combat Reforms "
                                f"(known: {', '.join(CLAUSES)})", path="rules")
    if isinstance(reforms, str | bytes) or not isinstance(reforms, Sequence) or not reforms:
        raise InvalidInputError("expected at least one UnitReform", path="reforms")
    for i, reform in enumerate(reforms):
        if not isinstance(reform, UnitReform):
            raise InvalidInputError(f"expected a UnitReform, got {type(reform).__name__}",
                                    path=f"reforms[{i}]")
    placed(scenario, reforms)  # unknown units and models, slots: named by their path
    _one_player_once(scenario, reforms)
    result = CombatResult() if result is None else result
    if not isinstance(result, CombatResult):
        raise InvalidInputError(f"expected a CombatResult, got {type(result).__name__}",
                                path="result")
    _known(scenario, result)
    return tuple(reforms), result


def _one_player_once(scenario: Scenario, reforms: Sequence[UnitReform]) -> None:
    player = scenario.unit(reforms[0].unit).player
    seen: set[str] = set()
    for i, reform in enumerate(reforms):
        if reform.unit in seen:
            raise InvalidInputError(f"unit {reform.unit!r} reforms twice",
                                    path=f"reforms[{i}].unit")
        seen.add(reform.unit)
        owner = scenario.unit(reform.unit).player
        if owner != player:
            raise InvalidInputError(f"unit {reform.unit!r} is {owner}'s: the reforms checked "
                                    f"together are one player's ({player})",
                                    path=f"reforms[{i}].unit")


def _known(scenario: Scenario, result: CombatResult) -> None:
    units = {u.id for u in scenario.units}
    players = {u.player for u in scenario.units}
    for name in ("passed", "skip", "steadfast", "stubborn", "steady"):
        unknown = sorted(getattr(result, name) - units)
        if unknown:
            raise InvalidInputError(f"unknown unit {unknown[0]!r}", path=f"result.{name}")
    unknown = sorted(set(result.discipline) - units)
    if unknown:
        raise InvalidInputError(f"unknown unit {unknown[0]!r}", path="result.discipline")
    for name in ("loser", "first"):
        value = getattr(result, name)
        if value is not None and value not in players:
            raise InvalidInputError(f"unknown player {value!r} (players: "
                                    f"{', '.join(sorted(players))})", path=f"result.{name}")
