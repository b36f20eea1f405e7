"""Two units of one player reformed jointly (seed 002): "after a player has completed all their
Combat Reforms, all enemy models that were in base contact ... must still be", so an enemy
model one unit leaves may be kept by the other, which couples them.

Both units are placed flush against the same enemy line (docs/rules.md §12.3).  The first is
judged with the second where it stood, the second with the first where it now stands (the
reforms are made one at a time): on the line that is one more condition, that their offsets'
intervals do not overlap.  That condition has vertices where one unit's edge meets the
other's, so each unit's offsets are closed under the other's ends (x + width): with two units
no joint placement of the family is missed.  One CP-SAT model: each unit's formations,
offsets and assignments (`model.add_unit`), their order along the line, every enemy model
touched before touched by one of them, the sum of their models in contact, then the enemy
models touched.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from ortools.sat.python import cp_model

from constraints.core.scenario import Scenario
from constraints.rank_and_file.combats import combats
from optimizer.combat_reform.answer import ReformAnswer, answer_of, solve
from optimizer.combat_reform.model import ReformModel, add_unit
from optimizer.combat_reform.placement import FlushLine, flush_line
from optimizer.combat_reform.prepare import (
    Asks,
    Prepared,
    prepare,
    previous_enemies,
    rules_bound,
)

TICKS = 1_000_000  # offsets in millionths of an inch for the order along the line


@dataclass(frozen=True)
class JointLine:
    """A line two units can share: the first unit's enemy line, and each unit's spans."""

    lines: tuple[FlushLine, FlushLine]


def shared_line(scenario: Scenario, first: str, second: str) -> JointLine | None:
    """The line both units' enemies lie on (every enemy each touched before), or None."""
    lines = {}
    for uid in (first, second):
        previous = previous_enemies(scenario, scenario.unit(uid))
        lines[uid] = [flush_line(scenario.unit(e), f) for e, f in sorted(previous.items())]
    base = lines[first][0]
    placed = []
    for uid in (first, second):
        spans = [s for line in lines[uid] for s in base.span_of(line)]
        if len(spans) != len(lines[uid]):
            return None
        placed.append(replace(base, enemy=spans[0][0], facing=spans[0][1], spans=tuple(spans)))
    return JointLine((placed[0], placed[1]))


# CP-SAT's presolve expands each offset element into a Boolean per allowed offset: past this
# many in all, a joint model ran for minutes and took tens of GiB (two 16-model units in
# benchmarks/bench_reform.py), so larger pairs are reformed one at a time.
MAX_JOINT_OFFSETS = 20_000


def joint_reform(scenario: Scenario, first: str, second: str, shared: JointLine,
                 effort: float, asks: Asks) -> tuple[ReformAnswer, ReformAnswer] | None:
    """The pair's joint reform, or None when the model would be too large (see above)."""
    units = (scenario.unit(first), scenario.unit(second))
    combat = next(frozenset(c) for c in combats(scenario.units) if first in c)
    views = (scenario, Scenario(scenario.battlefield,
                                tuple(u for u in scenario.units if u.id != first),
                                scenario.terrain, scenario.rules, scenario.rule_options,
                                scenario.active_player))
    before = [previous_enemies(scenario, u) for u in units]
    ready = [prepare(views[i], units[i], before[i], shared.lines[i], asks, combat)
             for i in range(2)]
    ready = [prepare(views[i], units[i], before[i], shared.lines[i], asks, combat,
                     _closure(ready[1 - i], ready[i])) for i in range(2)]
    if sum(int(lay.allowed.sum()) for r in ready for lay in r.layouts) > MAX_JOINT_OFFSETS:
        return None
    sat_model = cp_model.CpModel()
    parts = [add_unit(sat_model, r.layouts, r.ids, r.characters, r.demands) for r in ready]
    _ordered(sat_model, parts)
    _objective(sat_model, parts, ready)
    sat_model.add(sum(sum(p.own.values()) for p in parts) <= _pair_bound(scenario, units))
    solved = solve(parts[0], effort)
    answers = [answer_of(parts[i], units[i], shared.lines[i], solved, ready[i].demands)
               for i in range(2)]
    return _joint_status(scenario, answers, solved[1])


def _closure(other: Prepared, own: Prepared) -> tuple[float, ...]:
    """Where this unit may end against the other: the other's offsets plus the other's
    widths (this one to its right) and minus this one's widths (to its left)."""
    theirs = {(float(x), lay.option.along_in) for lay in other.layouts for x in lay.xs}
    mine = {lay.option.along_in for lay in own.layouts}
    found = {x + w for x, w in theirs} | {x - w for x, _ in theirs for w in mine}
    return tuple(sorted(found))


def _ordered(sat_model: cp_model.CpModel, parts: list[ReformModel]) -> None:
    """The two units' front edges do not overlap along the line (touching is allowed: units
    of the same combat set no distance)."""
    xs, widths = [], []
    for p in parts:
        x = sat_model.new_int_var(-10**9, 10**9, "")
        for k, lay in enumerate(p.layouts):
            ticks = [round(float(v) * TICKS) for v in lay.xs]
            xk = sat_model.new_int_var(min(ticks), max(ticks), "")
            sat_model.add_element(p.at[k], ticks, xk)
            sat_model.add(x == xk).only_enforce_if(p.use[k])
        xs.append(x)
        widths.append(sum(round(lay.option.along_in * TICKS) * u
                          for lay, u in zip(p.layouts, p.use, strict=True)))
    left = sat_model.new_bool_var("first_left")
    sat_model.add(xs[1] >= xs[0] + widths[0] - 1).only_enforce_if(left)
    sat_model.add(xs[0] >= xs[1] + widths[1] - 1).only_enforce_if(~left)


def _objective(sat_model: cp_model.CpModel, parts: list[ReformModel],
               ready: list[Prepared]) -> int:
    """Every enemy model either touched before still touched by one of them; the sum of
    their models in contact, then the enemy models touched."""
    enemies = sorted({e for p in parts for e, _ in p.theirs})
    touched = {}
    for e in enemies:
        t = sat_model.new_bool_var(f"touched[{e}]")
        sat_model.add(t <= sum(v for p in parts for (ee, _), v in p.theirs.items() if ee == e))
        touched[e] = t
    for e in set().union(*(r.demands.keep_enemy for r in ready)):
        if e in touched:
            sat_model.add(touched[e] == 1)
    weight = 1 + max(1, len(enemies))
    sat_model.maximize(sum(sum(p.own.values()) for p in parts) * weight + sum(touched.values()))
    return weight


def _joint_status(scenario: Scenario, answers: list[ReformAnswer], status: Any
                  ) -> tuple[ReformAnswer, ReformAnswer]:
    """OPTIMAL when the family's joint optimum meets the rules' bound for the two: each unit's
    own (`rules_bound`), and, models of both side by side along an enemy edge being at least
    b wide each, at most floor(L / b) + 2 of them on each edge either touches."""
    family_status = answers[0].status
    units = [scenario.unit(a.unit) for a in answers]
    bound = _pair_bound(scenario, units)
    total = sum(a.value[0] for a in answers)
    proved = family_status == "OPTIMAL" and status == cp_model.OPTIMAL and total >= bound
    out = []
    for a, u in zip(answers, units, strict=True):
        family = dict(a.family, status=family_status, joint=[x.unit for x in answers])
        mine = rules_bound(scenario, u, previous_enemies(scenario, u))
        out.append(replace(a, status="OPTIMAL" if proved else
                           ("FEASIBLE" if a.reformed is not None else a.status), family=family,
                           bound=a.value if proved else (mine, a.bound[1])))
    return out[0], out[1]


def _pair_bound(scenario: Scenario, units: Any) -> int:
    """At most how many of the two units' models can touch enemy models: each unit's own
    bound, and floor(L / b) + 2 per enemy edge either touches, for both together."""
    edges = {(e, f) for u in units for e, f in previous_enemies(scenario, u).items()}
    b = min(min(u.base.width_in, u.base.depth_in) for u in units)
    shared = 0
    for e, f in edges:
        line = flush_line(scenario.unit(e), f)
        shared += int((line.hi - line.lo) / b + 1e-9) + 2
    return min(shared, sum(rules_bound(scenario, u, previous_enemies(scenario, u)) for u in units))


def pairs_on_one_line(scenario: Scenario, units: list[str]) -> list[tuple[str, str]]:
    """Pairs of the given units whose enemies all lie on one line, greedily in order."""
    found: list[tuple[str, str]] = []
    used: set[str] = set()
    for i, a in enumerate(units):
        for b in units[i + 1:]:
            if a in used or b in used:
                continue
            if shared_line(scenario, a, b) is not None:
                found.append((a, b))
                used.update((a, b))
    return found

