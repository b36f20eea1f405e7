"""The joint reform of two or three units of one player (the search is `joint.py`'s): the
units' data, the search over tuples of their candidates, each tuple taken judged by the exact
checker on all the player's reforms in it, and the statuses of the answers (OPTIMAL when the
group's value is the rules' optimum, `joint_status.group_optimal`); and which units are
reformed jointly (`joint_groups`: by Combat)."""

from __future__ import annotations

from dataclasses import replace

from constraints.core.scenario import Scenario
from constraints.rank_and_file.combats import combats
from constraints.rank_and_file.contact import contact_tolerance
from constraints.t9a.clauses.combat_reform.checker import check_combat_reform
from optimizer.combat_reform.answer import ReformAnswer, placed_answer, proposal
from optimizer.combat_reform.joint import JointOutcome, joint_search
from optimizer.combat_reform.joint_data import Group, group_data
from optimizer.combat_reform.joint_levels import (
    ASSIGNMENTS_PER_EFFORT,
    MAX_JOINT,
    Budget,
    Levels,
    Pick,
)
from optimizer.combat_reform.joint_status import (
    Member,
    group_everything,
    group_optimal,
    member,
)
from optimizer.combat_reform.prepare import Asks, rules_bound
from optimizer.combat_reform.roles import placement_breaks


def _answers(group: Group, picks: tuple[Pick, ...], status: str) -> list[ReformAnswer]:
    found = []
    for unit, lines, pick in zip(group.units, group.lines, picks, strict=True):
        ready = lines[pick.line]
        lay = ready.layouts[pick.k]
        slots = lay.option.slots()
        placed = tuple((ready.ids[m], slots[s]) for m, s in enumerate(pick.slots))
        found.append(placed_answer(status, unit, ready.line, lay.option,
                                   float(lay.xs[pick.index]), placed, (pick.own, pick.enemy),
                                   (pick.own, pick.enemy), ready.demands.own_before))
    return found


def _legal(scenario: Scenario, answers: list[ReformAnswer]) -> bool:
    """The exact checker on all the group's reforms (who may reform is the caller's)."""
    reforms = [proposal(a) for a in answers]
    if any(r is None for r in reforms):
        return False
    verdict = check_combat_reform(scenario, [r for r in reforms if r is not None])
    return not placement_breaks(scenario, verdict)


def joint_reform(scenario: Scenario, ids: tuple[str, ...], effort: float,
                 asks: list[Asks]) -> tuple[ReformAnswer, ...] | None:
    """The units' joint reform, in the order given; None when the search's budget ran out
    before any tuple was taken (the caller then reforms them one at a time)."""
    group = group_data(scenario, ids, asks)
    if group is None:
        return None
    budget = Budget(effort)
    sides: dict[tuple[float, ...], int] = {}
    streams = [Levels(lines, budget, group.weight, group.bits, sides) for lines in group.lines]

    def accept(picks: tuple[Pick, ...]) -> bool:
        return _legal(scenario, _answers(group, picks, "FEASIBLE"))

    everything = group_everything(scenario, group.units, group.before)
    outcome = joint_search(streams, group.keep, group.weight, budget, accept, everything[0])
    if outcome.picks is None:
        return None
    return _statuses(scenario, group, outcome, streams, effort, everything)


def _statuses(scenario: Scenario, group: Group, outcome: JointOutcome, streams: list[Levels],
              effort: float, everything: tuple[int, int]) -> tuple[ReformAnswer, ...]:
    """OPTIMAL when the group's value is the rules' optimum (`joint_status.group_optimal`:
    it reaches the bound over every placement, or the proved joint family's optimum is not
    beaten by tuples with a unit outside its family, for two units); else FEASIBLE, the
    family's status kept in `family`."""
    assert outcome.picks is not None
    answers = _answers(group, outcome.picks, "OPTIMAL")
    value = (sum(p.own for p in outcome.picks),
             len(frozenset().union(*(p.touched for p in outcome.picks))))

    def members() -> list[Member]:
        return [member(scenario, view, u, previous, lines, group.combat,
                       s.values[0] // group.weight if s.groups else 0,
                       int(effort * ASSIGNMENTS_PER_EFFORT))
                for view, u, previous, lines, s in zip(group.views, group.units, group.before,
                                                       group.lines, streams, strict=True)]

    # Two units: the closure of their offsets holds every pair of their families'
    # placements; three may miss chains pushed together (module docs).
    proved = group_optimal(value, everything, members, outcome.proved, len(group.units) == 2)
    search: dict[str, object] = {"pairs": outcome.tuples, "assignments": outcome.assignments,
              "least_moves": outcome.least,
              "displacement_ticks": sum(p.cost for p in outcome.picks)}
    out = []
    for a, u, previous in zip(answers, group.units, group.before, strict=True):
        family = dict(a.family, status="OPTIMAL" if outcome.proved else "FEASIBLE",
                      joint=[x.id for x in group.units])
        mine = rules_bound(scenario, u, previous)
        out.append(replace(a, status="OPTIMAL" if proved else "FEASIBLE", family=family,
                           bound=a.value if proved else (mine, a.bound[1]), search=search))
    return tuple(out)


def joint_groups(scenario: Scenario, units: list[str]) -> list[tuple[str, ...]]:
    """The given units (in order) grouped by Combat: groups of 2 to `MAX_JOINT` units of one
    Combat are reformed together; the others alone."""
    found: list[tuple[str, ...]] = []
    for c in combats(scenario.units, contact_tolerance(scenario)):
        mine = tuple(u for u in units if u in c)
        if 2 <= len(mine) <= MAX_JOINT:
            found.append(mine)
    return found
