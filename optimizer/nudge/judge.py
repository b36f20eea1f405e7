"""Judge a player's own nudges (`manoeuvre check SCENARIO NUDGE.json --casualties FILE`).

The nudges file is a `nudge --json` result, or the same with the player's own `nudges` legs
or `order` edited (docs/formats.md, "Judging nudges").  The scenario holds the units as they
stood in combat; the casualties and the unfreezing are replayed exactly as `nudge` does them,
then the player's nudges are applied one unit at a time in the player's order, each judged by
the exact nudge checker where the units stand at that moment, and then against the seed's two
rules no single nudge shows:

* "Move the unit the minimum amount required to maintain contact" (`nudge.minimum`): the
  player's nudge is no longer than the least legal nudge there (`least_nudge`, proved least
  over every nudge the rules allow, exact to 2e-6"); a unit left where it stands although a
  legal nudge back into contact exists breaks `nudge.contact`.
* "Move Active Player's units first" and "in the order that allows the most units to remain
  in Combat" (`nudge.order`): the Active Player's units come first, and the player's order
  ends with as many units in combat as the best order the tool found (proved best when the
  tool's answer is OPTIMAL; any order reaching that count is the owner's choice).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from constraints.core.scenario import Pose, Scenario
from constraints.core.verdict import Verdict, Violation
from constraints.errors import InvalidInputError
from constraints.rank_and_file.combats import engaged_ids, engagements
from constraints.rank_and_file.contact import contact_tolerance
from constraints.t9a.clauses.nudge import NUDGE_CLAUSES
from constraints.t9a.clauses.nudge.checker import check_nudge
from constraints.t9a.clauses.nudge.context import Leg
from constraints.t9a.clauses.nudge.minimum import NudgeMinimum
from constraints.t9a.clauses.nudge.order import NudgeOrder
from optimizer.nudge.least import least_nudge
from optimizer.nudge.losses import Loss
from optimizer.nudge.order import in_combat
from optimizer.nudge.resolve import resolve, sides, unfrozen

# The clauses whose break, when a unit stands still, says it failed to regain contact.
REGAINS_CONTACT = frozenset(c.id for c in NUDGE_CLAUSES if c.regains_contact)
MINIMUM_TOLERANCE_IN = 2e-6  # the least nudge is exact to this (docs/formats.md)


@dataclass(frozen=True)
class PlayerNudge:
    """One unit's nudge as the player gave it, and the exact verdict on it where it was made
    (`least`: the least legal nudge's length there, None when none exists)."""

    unit: str
    legs: tuple[Leg, ...]
    verdict: Verdict
    least: float | None


@dataclass(frozen=True)
class NudgesVerdict:
    """The judgement of every nudge of the file and of their order."""

    nudges: tuple[PlayerNudge, ...]
    order: tuple[str, ...]
    in_combat: int
    best_in_combat: int
    best_proved: bool
    order_violations: tuple[Violation, ...]

    @property
    def violations(self) -> tuple[Violation, ...]:
        return tuple(v for n in self.nudges for v in n.verdict.violations) \
            + self.order_violations

    @property
    def legal(self) -> bool:
        return not self.violations

    @property
    def status(self) -> str:
        return "legal" if self.legal else "illegal"

    def to_json(self) -> dict[str, Any]:
        return {
            "legal": self.legal, "manoeuvre": "nudge", "order": list(self.order),
            "in_combat": self.in_combat, "best_in_combat": self.best_in_combat,
            "best_proved": self.best_proved,
            "nudges": [{"unit": n.unit, "legs": [leg.to_json() for leg in n.legs],
                        "distance": round(sum(abs(leg.distance_in) for leg in n.legs), 9),
                        "least": None if n.least is None else round(n.least, 9),
                        "verdict": n.verdict.to_json()} for n in self.nudges],
            "violations": [dict(v.to_json(), unit=unit) for unit, v in self._labelled()],
        }

    def text(self) -> str:
        lines = [f"nudges: {'LEGAL' if self.legal else 'ILLEGAL'} (order "
                 f"{' '.join(self.order) or '(none)'}; {self.in_combat} units in combat, "
                 f"the best order keeps {self.best_in_combat})"]
        for unit, v in self._labelled():
            lines.append(f"  {v.clause} ({unit}): {v.message} (measured {v.measured:.6f}, "
                         f"limit {v.limit:.6f})")
        return "\n".join(lines)

    def _labelled(self) -> list[tuple[str, Violation]]:
        return [(n.unit, v) for n in self.nudges for v in n.verdict.violations] \
            + [("order", v) for v in self.order_violations]


def judge_nudges(scenario: Scenario, losses: Sequence[Loss], data: Any) -> NudgesVerdict:
    """Judge the nudges of `data` (a `nudge --json` result, possibly edited) after `losses`
    in `scenario` (the units as they stood in combat).  InvalidInputError (with the JSON
    path) for a malformed file, an unknown or wiped-out unit, a unit nudged twice."""
    previous = engagements(scenario.units, contact_tolerance(scenario))
    state, _, _ = unfrozen(scenario, losses, previous)
    given, listed = _read_nudges(data, state)
    due = sides(state, previous)
    order = _order(listed, given, due)
    tool = resolve(scenario, losses)
    judged = []
    for uid in order:
        found = _judge_one(state, uid, previous.get(uid, {}), given.get(uid, ()))
        judged.append(found)
        unit = state.unit(uid)
        state = state.with_unit(unit.with_pose(Pose(found.verdict.end_centre,
                                                    unit.pose.facing_deg)))
    kept = in_combat(state)
    return NudgesVerdict(tuple(judged), order, kept, tool.in_combat, tool.status == "OPTIMAL",
                         _order_violations(order, due, kept, tool.in_combat, state))


def _judge_one(state: Scenario, uid: str, previous: Mapping[str, str],
               legs: tuple[Leg, ...]) -> PlayerNudge:
    present = {e: f for e, f in previous.items() if state.has_unit(e)}
    engaged = uid in engaged_ids(state.units, contact_tolerance(state))
    may_move = present and not engaged and state.unit(uid).state not in ("fleeing",
                                                                          "pursuing")
    least = least_nudge(state, uid, present) if may_move else None
    verdict = check_nudge(state, uid, present, legs)
    if not legs:
        # Standing still is the rule when no legal nudge exists ("do not move the unit at
        # all"); otherwise the unit failed to regain contact, which the checker names.
        verdict = _with(verdict, tuple(v for v in verdict.violations
                                       if v.clause in REGAINS_CONTACT and least is not None))
    elif verdict.legal and least is not None:
        length = sum(abs(leg.distance_in) for leg in legs)
        if length > least.distance_in + MINIMUM_TOLERANCE_IN:
            verdict = _with(verdict, verdict.violations +
                            (NudgeMinimum.violation(uid, length, least.distance_in),))
    return PlayerNudge(uid, legs, verdict, None if least is None else least.distance_in)


def _with(verdict: Verdict, violations: tuple[Violation, ...]) -> Verdict:
    return Verdict(verdict.unit, verdict.manoeuvre, verdict.end_centre, verdict.end_facing_deg,
                   verdict.end_files, verdict.end_corners, violations, verdict.measurements,
                   verdict.steps, models_of=verdict.models_of)


def _order_violations(order: tuple[str, ...], due: list[list[str]], kept: int, best: int,
                      state: Scenario) -> tuple[Violation, ...]:
    found = []
    first = set(due[0]) if due else set()
    positions = [i for i, uid in enumerate(order) if uid in {u for s in due for u in s}]
    late = [order[i] for i in positions if order[i] in first
            and any(order[j] not in first for j in positions if j < i)]
    if late:
        player = state.active_player or "the first player"
        found.append(NudgeOrder.late(late, player))
    if kept < best:
        found.append(NudgeOrder.fewer_kept(kept, best))
    return tuple(found)


def _read_nudges(data: Any, state: Scenario) -> tuple[dict[str, tuple[Leg, ...]],
                                                    tuple[str, ...]]:
    """The legs of each nudged unit, and the player's `order`: the file read through its
    model (`constraints.schema.nudges.PlayerNudges`), then the units checked against the
    scenario (InvalidInputError at the JSON path)."""
    from constraints.schema.errors import read_as

    model = read_as("nudges:PlayerNudges", data)
    given: dict[str, tuple[Leg, ...]] = {}
    for i, nudge in enumerate(model.nudges):
        uid = _unit_id(nudge.unit, f"$.nudges[{i}].unit", state)
        if uid in given:
            raise InvalidInputError(f"unit {uid!r} is nudged twice", path=f"$.nudges[{i}]")
        given[uid] = tuple(Leg("forward", leg.forward) if leg.forward is not None
                           else Leg("sideways", leg.sideways) for leg in nudge.legs)
    order: list[str] = []
    for i, uid in enumerate(model.order or ()):
        if _unit_id(uid, f"$.order[{i}]", state) in order:
            raise InvalidInputError(f"unit {uid!r} is listed twice", path=f"$.order[{i}]")
        order.append(uid)
    return given, tuple(order)


def _unit_id(uid: str, path: str, state: Scenario) -> str:
    if not state.has_unit(uid):
        known = ", ".join(u.id for u in state.units)
        raise InvalidInputError(f"unknown or wiped-out unit {uid!r} (units: {known})",
                                path=path)
    return uid


def _order(listed: tuple[str, ...], given: Mapping[str, tuple[Leg, ...]],
           due: list[list[str]]) -> tuple[str, ...]:
    """The player's `order`, then any nudged unit it leaves out (in the file's order), then
    any unit due a nudge it leaves out (Active Player's first)."""
    order = list(listed)
    for uid in list(given) + [u for side in due for u in side]:
        if uid not in order:
            order.append(uid)
    return tuple(order)
