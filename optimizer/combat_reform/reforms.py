"""One player's Combat Reforms (seed 002): who may reform, each unit's best reform given the
ones before it (or, with `joint`, two or three units of one Combat reformed together,
`joint.py`), every proposal judged by the exact checker, and the player's reforms judged
together at the end ("after a player has completed all their Combat Reforms")."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from constraints.core.scenario import Scenario
from constraints.core.verdict import Verdict
from constraints.errors import EncodingMismatchError, InvalidInputError
from constraints.rank_and_file.combats import engagements
from constraints.rank_and_file.contact import contact_tolerance, gap_blockers, model_contacts
from constraints.t9a.clauses.combat_reform.checker import check_combat_reform, validated
from constraints.t9a.clauses.combat_reform.context import ReformContext
from constraints.t9a.combat_reform import ModelPlacement, UnitReform, model_moves, placed
from constraints.t9a.combat_reform_io import CombatResult
from optimizer.combat_reform.answer import EFFORT, ReformAnswer, proposal
from optimizer.combat_reform.best import best_reform
from optimizer.combat_reform.joint_group import joint_groups, joint_reform
from optimizer.combat_reform.prepare import Asks
from optimizer.combat_reform.roles import Role, clauses_with

LEVELS = ("own_models_in_contact", "enemy_models_in_contact", "displacement_in")


@dataclass(frozen=True)
class UnitOutcome:
    """One unit: its answer (None when it may not reform), the proposal, and why not."""

    unit: str
    answer: ReformAnswer | None
    reform: UnitReform | None
    refused: Verdict | None = None
    displacement_in: float = 0.0  # the sum of its models' moves


@dataclass(frozen=True)
class PlayerReforms:
    """A player's reforms in order, and the exact verdict on all of them together."""

    player: str
    outcomes: tuple[UnitOutcome, ...]
    verdict: Verdict | None
    after: Scenario
    # What was done otherwise than asked, said plainly (e.g. `joint` with the widest
    # frontage asked: those groups reformed one at a time).
    notes: tuple[str, ...] = ()

    @property
    def reforms(self) -> tuple[UnitReform, ...]:
        return tuple(o.reform for o in self.outcomes if o.reform is not None)


def combat_reforms(scenario: Scenario, player: str | None = None,
                   units: Sequence[str] = (), result: CombatResult | None = None,
                   effort: float = EFFORT, asks: Asks | None = None,
                   joint: bool = False) -> PlayerReforms:
    """The best Combat Reform of each of `player`'s Engaged units (or of `units`); `asks`
    the widest frontage first, or characters kept with named enemies (a character's ask
    applies to its own unit)."""
    result = CombatResult() if result is None else result
    asks = Asks() if asks is None else asks
    chosen = _units(scenario, player, units, result)
    check_asks(scenario, chosen, asks)
    owner = scenario.unit(chosen[0]).player if chosen else (player or "")
    refused = {uid: _refused(scenario, uid, result) for uid in chosen}
    may = [uid for uid in chosen if refused[uid] is None]
    groups = joint_groups(scenario, may) if joint else []
    notes: tuple[str, ...] = ()
    declined: dict[str, list[str]] = {}
    if groups and asks.widest:
        # The joint search has no level for the widest frontage (whose frontage first, in
        # a group?): such groups are reformed one at a time, and the answer says so.
        declined = {u: list(g) for g in groups for u in g}
        notes = tuple(f"joint reform of {', '.join(g)} not done: the widest frontage "
                      "asked (--widest) is not supported jointly, so these units were "
                      "reformed one at a time" for g in groups)
        groups = []
    group_of = {u: g for g in groups for u in g}
    current, outcomes, done = scenario, [], set()
    for uid in chosen:
        if refused[uid] is not None:
            outcomes.append(UnitOutcome(uid, None, None, refused[uid]))
            continue
        if uid in done:
            continue
        answers: tuple[ReformAnswer, ...] | None = None
        if uid in group_of:
            ids = group_of[uid]
            answers = joint_reform(current, ids, effort,
                                   [_asks_for(current, u, asks) for u in ids])
        if answers is None:  # alone (or a group whose search ran out of budget at once)
            answers = (best_reform(current, uid, effort, _asks_for(current, uid, asks)),)
            if uid in declined:
                answers = tuple(replace(a, family=dict(a.family, joint_declined={
                    "group": declined[uid], "why": "widest"})) for a in answers)
        for answer in answers:
            current = _place(current, answer, result, outcomes)
            done.add(answer.unit)
    reforms = tuple(o.reform for o in outcomes if o.reform is not None)
    final = check_combat_reform(scenario, reforms, result) if reforms else None
    return PlayerReforms(owner, tuple(outcomes), final, current, notes)


def _place(current: Scenario, answer: ReformAnswer, result: CombatResult,
           outcomes: list[UnitOutcome]) -> Scenario:
    """Judge the unit's reform where the units before it stand, and place it."""
    reform = proposal(answer)
    moved = 0.0
    if reform is not None:
        verdict = check_combat_reform(current, [reform], result, player_done=False)
        if not verdict.legal:
            raise EncodingMismatchError(f"the reform found for {answer.unit} breaks "
                                        f"{', '.join(verdict.clauses())}")
        moved = sum(model_moves(current.unit(answer.unit), reform).values())
        current = placed(current, [reform])
        answer = _counted(current, answer)
    outcomes.append(UnitOutcome(answer.unit, answer, reform, None, moved))
    return current


def _counted(scenario: Scenario, answer: ReformAnswer) -> ReformAnswer:
    """The answer's contacts as the checker counts them on the placed unit (the model's
    lanes may count one it does not: a corner across a gap).  Fewer than the model claimed:
    its optimum is not proved, so FEASIBLE, with the model's claim kept in `family`."""
    unit = scenario.unit(answer.unit)
    pairs = {p for e in scenario.units if e.player != unit.player
             for p in model_contacts(unit, e, gap_blockers(scenario, unit.id, e.id))}
    exact = (len({a for a, _ in pairs}), len({b for _, b in pairs}))
    if exact == answer.value:
        return answer
    family = dict(answer.family, model_counted=list(answer.value))
    status = "FEASIBLE" if exact < answer.value and answer.status == "OPTIMAL" \
        else answer.status
    return replace(answer, value=exact, status=status, family=family)


def _asks_for(scenario: Scenario, uid: str, asks: Asks) -> Asks:
    chars = {c.id for c in scenario.unit(uid).formation.characters}
    return Asks(asks.widest, tuple(p for p in asks.character_with if p[0] in chars))


def _units(scenario: Scenario, player: str | None, units: Sequence[str],
           result: CombatResult) -> list[str]:
    engaged = engagements(scenario.units, contact_tolerance(scenario))
    for uid in units:
        if not scenario.has_unit(uid):
            raise InvalidInputError(f"unknown unit {uid!r}", path="unit")
        if uid not in engaged:
            raise InvalidInputError(f"{uid} is not Engaged in a combat: it has no Combat "
                                    "Reform", path="unit")
    if units:
        if len({scenario.unit(u).player for u in units}) > 1:
            raise InvalidInputError("the units given belong to several players: one "
                                    "player reforms at a time", path="unit")
        return list(units)
    players = list(dict.fromkeys(u.player for u in scenario.units))
    who = player or result.first or scenario.active_player or players[0]
    if who not in players:
        raise InvalidInputError(f"unknown player {who!r} (players: {', '.join(players)})",
                                path="player")
    return sorted(u.id for u in scenario.units if u.player == who and u.id in engaged
                  and u.id not in result.skip)


def check_asks(scenario: Scenario, units: Sequence[str], asks: Asks) -> None:
    """Every character named in `asks` belongs to one of `units`."""
    chars = {c.id for uid in units for c in scenario.unit(uid).formation.characters}
    for char, _ in asks.character_with:
        if char not in chars:
            raise InvalidInputError(f"{char!r} is not a character of a unit that reforms "
                                    f"({', '.join(units) or 'none'})", path="keep")


def _refused(scenario: Scenario, uid: str, result: CombatResult) -> Verdict | None:
    """The checker's verdict on the unit placed back as it stands, when that is refused for
    who the unit is (it may not reform at all): the blocking clauses are named there."""
    unit = scenario.unit(uid)
    same = UnitReform(uid, unit.files, unit.pose.centre, unit.pose.facing_deg,
                      tuple(ModelPlacement(c.id, c.slot) for c in unit.formation.characters))
    reforms, result = validated(scenario, [same], result)
    ctx = ReformContext(scenario, reforms, result)
    # Only who the unit is decides: the eligibility clause alone first (the whole checker
    # on a unit standing still costs as much as judging a reform), the whole verdict, which
    # names every clause, only for a unit refused.
    eligibility = clauses_with(scenario, Role.ELIGIBILITY)
    if all(not c().check(ctx).violations for c in eligibility):
        return None
    verdict = check_combat_reform(scenario, [same], result, player_done=False)
    return verdict if {c.id for c in eligibility} & set(verdict.clauses()) else None
