"""A unit's Combat Reform data on one flush line, and its CP-SAT model over the formation
(files), the offset along the enemy Facing it is placed flush against, and which model
stands in which slot (docs/rules.md §12).  The data (`Layout`) feed the best-first search
(`search.py`, and the joint search of `joint.py`); the model serves as the fallback past the
search's budget (`fallback.py`).

Data: per formation (`Option`) the offsets worth trying (`placement.offsets`), the whole
unit's allowed ones (`intervals.unit_rules`), and per (model, slot) the offsets keeping the
model within its March Rate.  Variables: `use[k]` (formation k is chosen), `at[k]` (the
index of its offset), `put[m, s, k]` (model m stands in slot s), `own[s, k]` (the model in
front-rank slot s touches the enemy), `theirs[e, k]` (enemy model e touches the unit).
Objective: the most own models in contact, then the most enemy models in contact.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cached_property

import numpy as np
from ortools.sat.python import cp_model

from constraints.rank_and_file.formation import Slot
from optimizer.combat_reform.intervals import Rule
from optimizer.combat_reform.placement import Interval, Option, cells, interval_ends, merged

Var = cp_model.IntVar
# Contact across a gap needs more than this of shared width (the checker's LINE_IN).
ACROSS_IN = 2e-5
# Contacts are judged with this hair of the checker's contact tolerance (CONTACT_IN, 1e-6):
# interval ends computed apart that coincide in exact arithmetic (a unit exactly two lanes
# wider than the enemy, touching both its corners) then meet in floating point too.  Without
# it the family missed such placements (a random combat: 6 own models in contact where the
# baseline placed 7).  The offsets stay the exact ends: at the other end the bases stand a
# rounding apart, which the checker counts as contact.
TOUCH_IN = 1e-9


@dataclass(frozen=True)
class Demands:
    """What the reform must keep: own models in contact at least `own_before`; the enemy
    models in `keep_enemy` still touched; the characters in `keep_characters` still in
    contact; models within `reach_in` of where they stood."""

    own_before: int
    keep_enemy: frozenset[str]
    keep_characters: frozenset[str]
    reach_in: float
    # The player's own asks: the widest frontage first; a character (id) in contact with
    # the enemy Facing of `line.spans[i]` (index i).
    widest: bool = False
    character_with: tuple[tuple[str, int], ...] = ()
    # A proved upper bound on its models in contact (the rules' bound): a row that lets the
    # solver stop as soon as an answer meets it.
    own_most: int | None = None


@dataclass(frozen=True)
class Layout:
    """One formation's data: its offsets, the allowed ones, and the intervals of offsets
    for each (model, slot), each front-rank slot's contact and each enemy model's."""

    option: Option
    xs: np.ndarray
    allowed: np.ndarray
    front: dict[int, list[Interval]]
    enemy: dict[str, Interval]
    by_span: dict[int, list[Interval]]  # per lane, its contact with each enemy's edge
    # The offsets keeping each model within its March Rate of each slot, as (models, slots)
    # arrays in `option.slots()` order, NaN where none does: exactly (`reach_lo`, `reach_hi`;
    # the search then measures each move as the checker does), and a hair inside (`safe_lo`,
    # `safe_hi`; the CP-SAT model, whose offset at a window's end may measure a rounding
    # over the March Rate).
    reach_lo: np.ndarray
    reach_hi: np.ndarray
    safe_lo: np.ndarray
    safe_hi: np.ndarray
    # The distinct interval ends `xs` was made of, and the whole unit's rules `allowed` was
    # judged by: kept so that more offsets can be added without computing them again
    # (`more_offsets`, the joint search's closure).
    ends: np.ndarray
    rules: tuple[Rule, ...]

    @cached_property
    def reach(self) -> dict[tuple[int, Slot], Interval]:
        """The safe windows by (model, slot), for the CP-SAT model (built only when asked:
        the best-first search reads the arrays)."""
        slots = self.option.slots()
        return {(int(m), slots[s]): (float(self.safe_lo[m, s]), float(self.safe_hi[m, s]))
                for m, s in zip(*np.nonzero(np.isfinite(self.safe_lo)), strict=True)}

    def indices(self, interval: Interval) -> tuple[int, int]:
        lo = int(np.searchsorted(self.xs, interval[0], side="left"))
        hi = int(np.searchsorted(self.xs, interval[1], side="right")) - 1
        return lo, hi


def layout(option: Option, starts: np.ndarray, rules: list[Rule],
           enemy_models: dict[str, Interval], reach_in: float,
           extra: tuple[float, ...] = ()) -> Layout:
    """`extra`: more offsets worth trying (where another unit placed with it may end)."""
    reach_lo, reach_hi = option.reach_windows(starts, reach_in)
    # A lane touches the enemy where it touches one of its models: the enemy's touchable
    # models merged into runs (those behind the enemy's own gaps come narrowed by the shared
    # width contact across a gap needs, so they stand apart from their neighbours).
    runs = _runs(list(enemy_models.values()))
    front = {lane: [option.lane_contact(lane, s) for s in runs]
             for lane in range(len(option.lanes()))}
    by_span = {lane: [option.lane_contact(lane, s) for _, _, s in option.line.spans]
               for lane in range(len(option.lanes()))}
    enemy = {e: (iv[0] - option.along_in, iv[1]) for e, iv in enemy_models.items()}
    across = [(lo + ACROSS_IN, hi - ACROSS_IN) for ivs in front.values() for lo, hi in ivs]
    # The offsets are the exact ends (a unit placed where it touches exactly); only the
    # contacts are judged with the hair `TOUCH_IN`.
    listed = [iv for ivs in front.values() for iv in ivs] + across \
        + list(enemy.values()) + [r.interval for r in rules if np.isfinite(r.interval[0])]
    ends = interval_ends(listed, option.touching,
                         np.concatenate([reach_lo.ravel(), reach_hi.ravel(),
                                         np.asarray(extra, dtype=float)]))
    xs = cells(ends)
    return Layout(option, xs, _allowed(xs, rules), _grown(front), _grown(enemy),
                  _grown(by_span), reach_lo, reach_hi,
                  *option.reach_windows(starts, reach_in - 1e-9), ends, tuple(rules))


def more_offsets(lay: Layout, extra: np.ndarray) -> Layout:
    """The layout with the offsets `extra` tried too: the same as `layout` given them, the
    geometry not computed again (only the cells and the whole unit's rules on them)."""
    window = lay.option.touching
    extra = np.asarray(extra, dtype=float)
    ends = merged(lay.ends, np.sort(extra[(extra >= window[0]) & (extra <= window[1])]))
    xs = cells(ends)
    return replace(lay, xs=xs, allowed=_allowed(xs, lay.rules), ends=ends)


def _allowed(xs: np.ndarray, rules: list[Rule] | tuple[Rule, ...]) -> np.ndarray:
    allowed = np.ones(len(xs), dtype=bool)
    for rule in rules:
        allowed &= rule.holds(xs)
    return allowed


@dataclass
class ReformModel:
    layouts: list[Layout]
    model_ids: tuple[str, ...]
    characters: frozenset[int]
    demands: Demands
    sat_model: cp_model.CpModel
    use: list[Var]
    at: list[Var]
    put: dict[tuple[int, Slot, int], Var]
    own: dict[tuple[int, int], Var]
    theirs: dict[tuple[str, int], Var]


def add_unit(sat_model: cp_model.CpModel, layouts: list[Layout], model_ids: tuple[str, ...],
             characters: frozenset[int], demands: Demands) -> ReformModel:
    """One unit's variables and rows on `sat_model`: one formation, every model placed once,
    at least as many of its models in contact as before."""
    rm = ReformModel(layouts, model_ids, characters, demands, sat_model, [], [], {}, {}, {})
    for k, lay in enumerate(layouts):
        _option(rm, k, lay)
    sat_model.add_exactly_one(rm.use)
    for m in range(len(model_ids)):
        sat_model.add_exactly_one([v for (mm, _, _), v in rm.put.items() if mm == m])
    sat_model.add(sum(rm.own.values()) >= demands.own_before)
    if demands.own_most is not None:
        sat_model.add(sum(rm.own.values()) <= demands.own_most)
    return rm


def build(layouts: list[Layout], model_ids: tuple[str, ...], characters: frozenset[int],
          demands: Demands) -> ReformModel:
    sat_model = cp_model.CpModel()
    rm = add_unit(sat_model, layouts, model_ids, characters, demands)
    own = sum(rm.own.values())
    enemy = sum(rm.theirs.values())
    for e in demands.keep_enemy:
        sat_model.add(sum(v for (ee, _), v in rm.theirs.items() if ee == e) == 1)
    weight = 1 + max(1, len({e for e, _ in rm.theirs}))
    score = own * weight + enemy
    if demands.widest:  # files first: above any count of contacts
        top = (len(model_ids) + 1) * weight
        score += top * sum(lay.option.files * use for lay, use in zip(layouts, rm.use,
                                                                       strict=True))
    sat_model.maximize(score)
    return rm


def _option(rm: ReformModel, k: int, lay: Layout) -> None:
    """Formation k's variables and rows (all off unless `use[k]`)."""
    m_ = rm.sat_model
    use = m_.new_bool_var(f"use[{k}]")
    rm.use.append(use)
    allowed = np.flatnonzero(lay.allowed)
    if len(allowed) == 0:
        m_.add(use == 0)
        rm.at.append(m_.new_constant(0))
        return
    at = m_.new_int_var_from_domain(cp_model.Domain.from_values(allowed.tolist()), f"at[{k}]")
    rm.at.append(at)
    option = lay.option
    rear = option.ranks - 1
    for slot in option.slots():
        here = []
        for m in range(len(rm.model_ids)):
            if (m, slot) not in lay.reach or (m in rm.characters and slot[0] != 0) \
                    or not _meets(allowed, lay.indices(lay.reach[(m, slot)])):
                continue  # the model cannot reach the slot at any offset the unit may take
            var = m_.new_bool_var(f"put[{m},{slot},{k}]")
            _within(m_, at, lay.indices(lay.reach[(m, slot)]), var)
            m_.add_implication(var, use)
            lane = option.lane_of(slot)
            if m in rm.characters and rm.model_ids[m] in rm.demands.keep_characters:
                _within_any(m_, at, [lay.indices(iv) for iv in lay.front[lane]]
                            if lane is not None else [(1, 0)], var)
            for char, span in rm.demands.character_with:
                if rm.model_ids[m] == char:
                    _within(m_, at, lay.indices(lay.by_span[lane][span])
                            if span >= 0 and lane is not None else (1, 0), var)
            rm.put[(m, slot, k)] = var
            here.append(var)
        if slot[0] < rear:
            m_.add(sum(here) == use)  # every rank but the rear one is full
        else:
            m_.add(sum(here) <= 1)
    for f, intervals in lay.front.items():  # one per lane facing the line
        var = m_.new_bool_var(f"own[{f},{k}]")
        m_.add_implication(var, use)
        rm.own[(f, k)] = var
        slot = option.lane_slot(f)
        if slot[0] < rear or option.ranks == 1:  # always occupied: touching at a corner counts
            _within_any(m_, at, [lay.indices(iv) for iv in intervals], var)
            continue
        # The rear rank may leave the lane's slot next to the line empty: then only across
        # the gap, which needs a shared width (the checker's corridor), not a corner.
        direct, gap = m_.new_bool_var(""), m_.new_bool_var("")
        _within_any(m_, at, [lay.indices(iv) for iv in intervals], direct)
        m_.add(direct <= sum(v for (mm, s, kk), v in rm.put.items() if kk == k and s == slot))
        _within_any(m_, at, [lay.indices((lo + ACROSS_IN, hi - ACROSS_IN))
                             for lo, hi in intervals], gap)
        m_.add(var <= direct + gap)
    for e, interval in lay.enemy.items():
        var = m_.new_bool_var(f"theirs[{e},{k}]")
        m_.add_implication(var, use)
        _within(m_, at, lay.indices(interval), var)
        rm.theirs[(e, k)] = var


def _grown(intervals: dict) -> dict:
    """Contact intervals (by lane, or by enemy model) grown by `TOUCH_IN` at both ends."""
    return {key: [(lo - TOUCH_IN, hi + TOUCH_IN) for lo, hi in ivs] if isinstance(ivs, list)
            else (ivs[0] - TOUCH_IN, ivs[1] + TOUCH_IN) for key, ivs in intervals.items()}


def _runs(intervals: list[Interval]) -> list[Interval]:
    """Intervals merged where they touch or overlap (within a rounding's width)."""
    merged: list[Interval] = []
    for lo, hi in sorted(intervals):
        if merged and lo <= merged[-1][1] + 1e-9:
            merged[-1] = (merged[-1][0], max(merged[-1][1], hi))
        else:
            merged.append((lo, hi))
    return merged


def _meets(allowed: np.ndarray, bounds: tuple[int, int]) -> bool:
    """Whether some allowed offset index lies in [lo, hi] (`allowed` sorted)."""
    lo, hi = bounds
    i = int(np.searchsorted(allowed, lo, side="left"))
    return i < len(allowed) and int(allowed[i]) <= hi


def _within_any(m_: cp_model.CpModel, at: Var, bounds: list[tuple[int, int]],
                var: Var) -> None:
    """`var` implies `at` lies in one of the index ranges (one Boolean per range)."""
    if len(bounds) == 1:
        _within(m_, at, bounds[0], var)
        return
    picks = []
    for lo, hi in bounds:
        pick = m_.new_bool_var("")
        _within(m_, at, (lo, hi), pick)
        picks.append(pick)
    m_.add_bool_or(picks).only_enforce_if(var)


def _within(m_: cp_model.CpModel, at: Var, bounds: tuple[int, int], var: Var) -> None:
    lo, hi = bounds
    if lo > hi:
        m_.add(var == 0)
        return
    m_.add(at >= lo).only_enforce_if(var)
    m_.add(at <= hi).only_enforce_if(var)
