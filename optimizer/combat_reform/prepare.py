"""What the search of a unit's best Combat Reform starts from (seed 002): the enemy Facings it
touched, the formations it may take, and, per flush line, every formation's layout and what
the reform must keep (docs/rules.md §12.2)."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from constraints.core.scenario import Scenario
from constraints.rank_and_file.combats import engagements
from constraints.rank_and_file.contact import (
    CONTACT_IN,
    contact_tolerance,
    model_bases,
    model_contacts,
    named_facing,
    touched_facings,
)
from constraints.rank_and_file.formation import Formation
from constraints.rank_and_file.unit import Unit
from constraints.t9a.clauses.movement.reform_viable_formation import formation_problem
from optimizer.combat_reform.intervals import unit_rules
from optimizer.combat_reform.model import ACROSS_IN, Demands, Layout, layout
from optimizer.combat_reform.placement import OWN_TURN, FlushLine, Interval, Option, flush_line
from optimizer.combat_reform.roles import Role, roles


@dataclass(frozen=True)
class Asks:
    """What the player asks of a reform beyond the default objective: the widest frontage
    first; a character of the unit kept in contact with a named enemy unit."""

    widest: bool = False
    character_with: tuple[tuple[str, str], ...] = ()


def previous_enemies(scenario: Scenario, unit: Unit) -> dict[str, str]:
    """Enemy id -> the enemy's Facing the unit touches."""
    mine = engagements(scenario.units, contact_tolerance(scenario)).get(unit.id, {})
    found = {}
    for enemy_id in mine:
        enemy = scenario.unit(enemy_id)
        facing = named_facing(enemy, unit.boundary(), touched_facings(enemy, unit.boundary()))
        if facing is not None:
            found[enemy_id] = facing
    return found


def rules_bound(scenario: Scenario, unit: Unit, previous: dict[str, str]) -> int:
    """At most how many of the unit's models can touch enemy models, placed anyhow.

    Models touching one straight edge of length L stand along one side of the unit, side by
    side, each at least b = min(base width, base depth) wide, so at most floor(L / b) + 2 of
    them touch it (the two at the ends may touch a corner); a unit not flush with the edge
    touches it at one point, so at most two of its models.  Summed over the enemy Facings it
    must touch, and no more than its models.  A side of the unit holds at most as many
    models as its widest allowed formation has files or ranks (profile `t9a-2025` limits the
    files' change), so no more touch one edge."""
    b = min(unit.base.width_in, unit.base.depth_in)
    n = unit.formation.model_count
    side = max((max(f, math.ceil(n / f)) for f in allowed_files(scenario, unit)), default=n)
    total = 0
    for enemy_id, facing in previous.items():
        line = flush_line(scenario.unit(enemy_id), facing)
        total += min(side, int(math.floor((line.hi - line.lo) / b + 1e-9)) + 2)
    return min(total, n)


@dataclass(frozen=True)
class Prepared:
    """A unit's data on one flush line: its formations' layouts, model ids, which are
    characters, and what the reform must keep."""

    layouts: list[Layout]
    ids: tuple[str, ...]
    characters: frozenset[int]
    demands: Demands
    line: FlushLine


def prepare(scenario: Scenario, unit: Unit, previous: dict[str, str], line: FlushLine,
            asks: Asks, combat: frozenset[str], extra: tuple[float, ...] = ()) -> Prepared:
    """The layouts of `unit` flush on `line`, every other unit of `scenario` standing where
    it stands; `extra` offsets are tried too."""
    on_line = [scenario.unit(e) for e, _, _ in line.spans]
    pairs = set().union(*(model_contacts(unit, scenario.unit(e)) for e in previous))
    chars = {c.id for c in unit.formation.characters}
    ids = unit.model_ids()
    demands = Demands(own_before=len({a for a, _ in pairs}),
                      keep_enemy=frozenset(b for e in on_line for _, b in model_contacts(unit, e)),
                      keep_characters=frozenset(a for a, _ in pairs if a in chars),
                      reach_in=_march_rate(scenario, unit), widest=asks.widest,
                      own_most=rules_bound(scenario, unit, previous),
                      character_with=tuple((c, _span_of(line, e)) for c, e in
                                           asks.character_with))
    layouts = layouts_of(scenario, unit, previous, combat, _options(scenario, unit, line),
                         extra)
    characters = frozenset(i for i, m in enumerate(ids) if m in chars)
    return Prepared(layouts, ids, characters, demands, line)


def layouts_of(scenario: Scenario, unit: Unit, previous: dict[str, str],
               combat: frozenset[str], options: list[Option],
               extra: tuple[float, ...] = (), across: float = ACROSS_IN) -> list[Layout]:
    """Each option's layout (all on one line), every other unit standing where it stands;
    `across` as in `line_models`."""
    if not options:
        return []
    starts = unit.model_positions()
    models = line_models(scenario, options[0].line, across)
    reach_in = _march_rate(scenario, unit)
    return [layout(option, starts,
                   unit_rules(option, scenario, previous, combat, _spacing(scenario)),
                   models, reach_in, extra) for option in options]


def line_models(scenario: Scenario, line: FlushLine,
                across: float = ACROSS_IN) -> dict[str, Interval]:
    """The enemy models a unit flush on `line` can touch at all (`_edge_models` of every
    enemy Facing on it): no placement of any kind touches another of theirs.  `across`: the
    shared width counted as contact across the enemy's gaps (the family's ACROSS_IN, a margin
    over the checker's LINE_IN; the bounds of `outside.py` take LINE_IN itself)."""
    models: dict[str, Interval] = {}
    for e, facing, _ in line.spans:
        models.update(_edge_models(scenario.unit(e), flush_line(scenario.unit(e), facing), line,
                                   across))
    return models


def _span_of(line: FlushLine, enemy: str) -> int:
    """The index of `enemy`'s span on the line; -1 (no offset touches it) when it is not
    on this line."""
    return next((i for i, (e, _, _) in enumerate(line.spans) if e == enemy), -1)


def _march_rate(scenario: Scenario, unit: Unit) -> float:
    """How far a model may move: its March Rate where a clause limits it (not in variant A,
    profile `t9a-2025`, RULES §2.12 (A))."""
    if Role.MARCH_RATE not in roles(scenario):
        return math.inf
    return float(scenario.profile.param("march_mob")) * unit.mobility_in


def _spacing(scenario: Scenario) -> float | None:
    """The Unit Spacing a reform keeps, where a clause keeps it (variant A ignores it)."""
    if Role.SPACING not in roles(scenario):
        return None
    return float(scenario.profile.param("end_spacing_in"))


def _options(scenario: Scenario, unit: Unit, line: FlushLine) -> list[Option]:
    """Every legal number of files, with each of the unit's Facings flush against the line
    (variant A: aligned means its Facing in contact stays flush, any of the four).  A single
    rank's Rear is its Front turned round, a single file's flanks are alike: those are left
    out (the same placements, the same contacts).  Decision: a Rear or flank against the
    enemy is searched only with a full rear rank; with a gap there, the model's lanes counted
    contacts across it that the checker's corridor refuses (benchmarks/README.md), so those
    placements are left out until the lanes follow the corridor."""
    return [Option(unit, line, files, own) for files in allowed_files(scenario, unit)
            for own in OWN_TURN if kind(unit, files, own) == SEARCHED]


SEARCHED, SAME, LEFT_OUT = "searched", "the same placements", "left out"


def kind(unit: Unit, files: int, own: str) -> str:
    """Whether the formation of `files` files, its Facing `own` flush against the line, is
    searched, has the placements of one searched (a single rank's Rear, a single file's left
    Flank when no character tells its ends apart), or is left out of the family (a Rear or
    flank against the line with an incomplete rear rank; a single file's left Flank with a
    character: the placements of its right Flank turned round, the character's front rank
    at the other end), which `outside.py` bounds instead."""
    n = unit.formation.model_count
    ranks = math.ceil(n / files)
    if own == "rear" and ranks == 1:
        return SAME
    if own == "left" and files == 1:
        return LEFT_OUT if unit.formation.characters else SAME
    if own != "front" and ranks > 1 and n % files:
        return LEFT_OUT
    return SEARCHED


def allowed_files(scenario: Scenario, unit: Unit) -> list[int]:
    """The numbers of files of a legal formation for the reformed unit."""
    widths = scenario.profile.param("proper_rank_width")
    proper = int(widths[min(unit.height, len(widths) - 1)])
    change = scenario.profile.param("max_file_change_musician" if unit.musician
                                    else "max_file_change")
    limited = Role.FILE_CHANGE in roles(scenario)  # variant A: by at most `change`
    n = unit.formation.model_count
    found = []
    for files in range(1, n + 1):
        if limited and abs(files - unit.files) > int(change):
            continue
        if formation_problem(Formation(files, n), proper, unit.files)[0] == "" \
                and len(unit.formation.characters) <= files:
            found.append(files)
    return found


def _edge_models(enemy: Unit, own: FlushLine, line: FlushLine,
                 across: float = ACROSS_IN) -> dict[str, Interval]:
    """The enemy models a unit flush on its Facing's edge (`own`) can touch, as the offsets'
    intervals along `line` (the line searched) over which their bases lie: in each lane
    across the edge, the model nearest it; one standing back from the edge (behind an empty
    slot) is touched only across the gap, which needs a shared width, not a corner
    (RULES §2.6.2), so its interval is narrowed by the checker's line tolerance."""
    nearest: dict[tuple[float, float], tuple[float, str, Interval]] = {}
    for mid, base in zip(enemy.model_ids(), model_bases(enemy), strict=True):
        corners = np.asarray(base.exterior.coords[:-1])
        back = -float(((corners - own.a) @ own.out).max())  # how far behind the edge line
        along = (corners - line.a) @ line.right
        exact = (float(along.min()), float(along.max()))
        lane = (round(exact[0], 6), round(exact[1], 6))  # the lane, to group its models
        if lane not in nearest or back < nearest[lane][0]:
            nearest[lane] = (back, mid, exact)
    found = {}
    for back, mid, (lo, hi) in nearest.values():
        if abs(back) <= CONTACT_IN:
            found[mid] = (lo, hi)
        elif hi - lo > 2 * across:
            found[mid] = (lo + across, hi - across)
    return found
