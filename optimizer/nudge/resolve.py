"""After a round of combat: casualties, unfrozen Unit Boundaries, nudges, combats, No More
Foes (seed 001; docs/rules.md §11).  The recipe: remove the casualties (boundaries frozen,
gaps stay), re-form every unit into a viable formation, then nudge the units that lost
contact, in the order that keeps the most units in combat (`order.best_order`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from constraints.core.scenario import Scenario
from constraints.rank_and_file.combats import combats, engagements
from constraints.rank_and_file.contact import contact_tolerance
from constraints.rank_and_file.unit import Unit
from constraints.t9a.clauses.casualties.removal import (
    is_wiped_out,
    remove_casualties,
    remove_slots,
)
from constraints.t9a.clauses.casualties.unfreeze import unfreeze
from optimizer.dispatch import require
from optimizer.nudge.least import NudgeFound
from optimizer.nudge.losses import Loss, losses_from_json, losses_to_json
from optimizer.nudge.order import best_order, in_combat


@dataclass(frozen=True)
class NudgeResult:
    """Everything `manoeuvre nudge` reports (docs/formats.md, "Nudge result")."""

    status: str                       # OPTIMAL: the order proved best; FEASIBLE: budget hit
    before: Scenario
    after: Scenario
    nudges: tuple[NudgeFound, ...]
    order: tuple[str, ...]
    alternative_orders: tuple[tuple[str, ...], ...]
    combats: tuple[tuple[str, ...], ...]
    no_more_foes: tuple[tuple[str, tuple[str, ...]], ...]
    removed: tuple[str, ...]
    in_combat: int
    solves: int
    losses: tuple[Loss, ...] = ()
    frozen: Scenario | None = None    # after the casualties, before unfreezing

    def changed(self) -> list[Unit]:
        """Units whose formation or position changed, as they now stand."""
        return [u for u in self.after.units if u != self.before.unit(u.id)]


def resolve(scenario: Scenario, losses: Sequence[Loss]) -> NudgeResult:
    """Apply `losses`, unfreeze, nudge; the units' `previous` contacts are read from
    `scenario` (as it stood when the boundaries froze)."""
    require(scenario, "resolve")
    losses = losses_from_json(losses_to_json(tuple(losses)), scenario)  # validated
    previous = engagements(scenario.units, contact_tolerance(scenario))
    reformed, removed, hit = unfrozen(scenario, losses, previous)
    found = best_order(reformed, sides(reformed, previous), previous)
    final = found.scenario
    return NudgeResult("OPTIMAL" if found.proved else "FEASIBLE", scenario, final,
                       found.nudges, found.order, found.alternatives,
                       tuple(combats(final.units, contact_tolerance(final))),
                       _no_more_foes(final, previous),
                       tuple(removed), found.in_combat, found.solves, tuple(losses),
                       replace(scenario, units=tuple(hit)))


def unfrozen(scenario: Scenario, losses: Sequence[Loss],
             previous: Mapping[str, Mapping[str, str]]
             ) -> tuple[Scenario, list[str], list[Unit]]:
    """The units after `losses` and unfreezing, before any nudge: (that scenario, the units
    wiped out, every unit as hit with its boundary still frozen)."""
    by_unit = {loss.unit: loss for loss in losses}
    units, removed, hit = [], [], []
    for unit in scenario.units:
        after = _casualties(scenario, unit, by_unit.get(unit.id), previous)
        hit.append(after)
        if is_wiped_out(after):
            removed.append(unit.id)
        else:
            units.append(unfreeze(after))
    reformed = Scenario(scenario.battlefield, tuple(units), scenario.terrain, scenario.rules,
                        scenario.rule_options, scenario.active_player)
    return reformed, removed, hit


def _casualties(scenario: Scenario, unit: Unit, loss: Loss | None,
                previous: Mapping[str, Mapping[str, str]]) -> Unit:
    if loss is None:
        return unit
    if loss.slots:
        return remove_slots(unit, loss.slots)
    if not loss.outside_melee or unit.id not in previous:
        return remove_casualties(unit, loss.count)
    return _outside_melee(scenario, unit, loss.count, previous)


def _outside_melee(scenario: Scenario, unit: Unit, count: int,
                   previous: Mapping[str, Mapping[str, str]]) -> Unit:
    """RULES §2.7.2: an engaged unit losing front-rank models outside the Melee Phase loses
    them "from the side that keeps engaged units in contact.  If that is impossible, make
    gaps where the most units can be nudged back."  Decision: try the even split and all
    from either side; keep the one leaving the most units in contact after re-forming, then
    the most in combat after the nudges (the even split on a tie, then the right side).
    Gaps in the middle of the front rank are not tried."""
    best: tuple[int, int, int, Unit] | None = None
    for rank, side in enumerate(("both", "right", "left")):
        hit = remove_casualties(unit, count, side)
        if is_wiped_out(hit):
            return hit
        after = scenario.with_unit(unfreeze(hit))
        kept = in_combat(after)
        nudged = best_order(after, sides(after, previous), previous).in_combat
        if best is None or (kept, nudged, -rank) > best[:3]:
            best = (kept, nudged, -rank, hit)
    assert best is not None
    return best[3]


def sides(scenario: Scenario, previous: Mapping[str, Mapping[str, str]]) -> list[list[str]]:
    """The units to nudge, by side, the Active Player's first.  Decision: without an
    `active_player`, the players in the order their first unit appears in the scenario."""
    engaged_now = engagements(scenario.units, contact_tolerance(scenario))
    due = [u for u in scenario.units if u.id in previous and u.id not in engaged_now
           and u.state not in ("fleeing", "pursuing")]
    players = list(dict.fromkeys(u.player for u in scenario.units))
    if scenario.active_player in players:
        players.remove(scenario.active_player)
        players.insert(0, scenario.active_player)
    return [[u.id for u in due if u.player == p] for p in players]


def _no_more_foes(scenario: Scenario, previous: Mapping[str, Mapping[str, str]]
                  ) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """Units engaged before and not now, neither fleeing nor pursuing: a Post-Combat Pivot,
    or an Overrun if charging (RULES §2.8.6)."""
    engaged_now = engagements(scenario.units, contact_tolerance(scenario))
    out = []
    for unit in scenario.units:
        if unit.id in previous and unit.id not in engaged_now \
                and unit.state not in ("fleeing", "pursuing"):
            options = ("post_combat_pivot",) + (("overrun",) if unit.state == "charging"
                                                else ())
            out.append((unit.id, options))
    return tuple(out)
