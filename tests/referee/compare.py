"""Comparing the exact checker with the reference referee, clause by clause.

A clause's verdicts are compared only where the referee is sure of the verdict: the whole
interval [lo, hi] of its `Measure` (its own discretisation plus the checker's stated
approximations, tests/referee/referee.py) lies on one side of the limit.  Cases inside that
band are counted, not compared.  The checker's measurement must also lie in [lo, hi].
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field

import numpy as np

from constraints.core.scenario import Scenario
from constraints.core.verdict import Verdict
from constraints.t9a.checker import check_move
from constraints.t9a.moves import Move
from tests.referee.referee import Measure, Ruling, rule

# The checker's measurement name for each clause (docs/rules.md §9).  Viable formation
# reports the ranks, not a measure of the clause, so only its verdict is compared.
MEASUREMENT = {
    "t9a.valid_final_position": "valid_final_position",
    "t9a.unit_spacing": "clearance",
    "t9a.table_edge.end": "overhang",
    "t9a.pivot.model_distance": "pivot_model_move",
    "t9a.pivot.unit_spacing": "pivot_clearance",
    "t9a.advance.distance": "distance",
    "t9a.advance.heading_window": "heading_change",
    "t9a.march.distance": "distance",
    "t9a.march.heading_window": "heading_change",
    "t9a.snaking.front_spacing": "front_clearance",
    "t9a.table_edge.front": "front_overhang",
    "t9a.reorder.files": "reorder_file_change",
    "t9a.reform.centre_travel": "centre_travel",
    "t9a.reform.file_change": "file_change",
    "t9a.reform.model_path": "model_path",
    "t9a.characters.front_rank": "out_of_front_rank",
}
# The checker reports an overhang as max(0, reach); the referee's reach is signed.
CLAMPED = {"t9a.table_edge.end", "t9a.table_edge.front"}
MEASURE_NOISE = 1e-9
END_CORNER_TOL = 1e-6  # the referee's incremental kinematics against the checker's end pose


@dataclass
class Tally:
    """Per clause: verdicts compared (legal, broken), cases in the band, disagreements."""

    legal: Counter = field(default_factory=Counter)
    broken: Counter = field(default_factory=Counter)
    band: Counter = field(default_factory=Counter)
    problems: list[str] = field(default_factory=list)
    moves: int = 0

    def table(self) -> str:
        rows = [f"{'clause':34} {'legal':>6} {'broken':>6} {'band':>5}"]
        for clause in sorted(set(self.legal) | set(self.broken) | set(self.band)):
            rows.append(f"{clause:34} {self.legal[clause]:6} {self.broken[clause]:6} "
                        f"{self.band[clause]:5}")
        return "\n".join(rows)


def reported_in(measure: Measure, clause: str, reported: float) -> bool:
    """Whether the checker's measurement lies in the referee's interval."""
    lo, hi = measure.lo, measure.hi
    if clause in CLAMPED:
        lo, hi = max(0.0, lo), max(0.0, hi)
    if math.isinf(reported):
        return math.isinf(hi)
    return lo - MEASURE_NOISE <= reported <= hi + MEASURE_NOISE


def judge(scenario: Scenario, move: Move, tally: Tally, only: set[str] | None = None,
          skip: frozenset[str] = frozenset(), label: str = "") -> tuple[Verdict, Ruling]:
    """Run both on one move and add the comparison to `tally`."""
    verdict, ruling = check_move(scenario, move), rule(scenario, move)
    tally.moves += 1
    broken = set(verdict.clauses())
    unknown = broken - set(ruling.measures)
    if unknown:
        tally.problems.append(f"{label}: checker breaks {sorted(unknown)}, unknown to the "
                              "referee")
    for clause, measure in ruling.measures.items():
        if clause in skip or (only is not None and clause not in only):
            continue
        _clause(tally, clause, measure, clause in broken, verdict, label)
    if only is None and not np.allclose(np.asarray(verdict.end_corners), ruling.end_corners,
                                        atol=END_CORNER_TOL):
        tally.problems.append(f"{label}: end corners differ: checker "
                              f"{np.round(verdict.end_corners, 6).tolist()}, referee "
                              f"{np.round(ruling.end_corners, 6).tolist()}")
    return verdict, ruling


def _clause(tally: Tally, clause: str, measure: Measure, checker_broken: bool,
            verdict: Verdict, label: str) -> None:
    name = MEASUREMENT.get(clause)
    reported = verdict.measurements.get(name) if name else None
    if reported is not None and not reported_in(measure, clause, reported):
        tally.problems.append(f"{label}: {clause} checker measures {reported!r}, referee "
                              f"{measure.value!r} in [{measure.lo!r}, {measure.hi!r}]")
    if not measure.settled:
        tally.band[clause] += 1
        return
    (tally.broken if measure.broken else tally.legal)[clause] += 1
    if checker_broken != measure.broken:
        tally.problems.append(f"{label}: {clause} checker says "
                              f"{'broken' if checker_broken else 'kept'}, referee "
                              f"{'broken' if measure.broken else 'kept'} (referee "
                              f"{measure.value!r} vs limit {measure.limit!r}; checker "
                              f"{reported!r})")


@dataclass
class Scan:
    """One clause's verdicts along a one-parameter family of moves."""

    clause: str
    params: list[float] = field(default_factory=list)
    checker: list[bool] = field(default_factory=list)  # broken
    referee: list[bool] = field(default_factory=list)
    settled: list[bool] = field(default_factory=list)


def scan(clause: str, cases: list[tuple[float, Scenario, Move]]) -> Scan:
    return scan_all(cases, {clause})[clause]


def scan_all(cases: list[tuple[float, Scenario, Move]],
             clauses: set[str] | None = None) -> dict[str, Scan]:
    """Every clause's scan along one family (both judges run once per move)."""
    out: dict[str, Scan] = {}
    for param, scenario, move in cases:
        broken = set(check_move(scenario, move).clauses())
        for clause, measure in rule(scenario, move).measures.items():
            if clauses is not None and clause not in clauses:
                continue
            found = out.setdefault(clause, Scan(clause))
            found.params.append(param)
            found.checker.append(clause in broken)
            found.referee.append(measure.broken)
            found.settled.append(measure.settled)
    return out


def switches(broken: list[bool]) -> int:
    return sum(a != b for a, b in zip(broken, broken[1:], strict=False))


def switch(params: list[float], broken: list[bool]) -> float:
    """The parameter where the verdict first changes; the family must change it once."""
    changes = [k for k in range(1, len(broken)) if broken[k] != broken[k - 1]]
    assert len(changes) == 1, f"expected one switch, found them at {[params[k] for k in changes]}"
    return params[changes[0]]


def assert_switch_together(found: Scan, max_shift: float, max_band: float | None = None,
                           least: int = 3) -> None:
    """Both switch once, the same way, within `max_shift` of each other, agree wherever the
    referee is sure, and the band where it is not is no wider than `max_band` (by default
    `max_shift`: a band on one side of the switch)."""
    max_band = max_shift if max_band is None else max_band
    assert sum(found.referee) >= least and len(found.referee) - sum(found.referee) >= least, \
        f"{found.clause}: the scan does not cross the limit"
    assert found.referee[0] == found.checker[0], f"{found.clause}: they start apart"
    at_ref, at_chk = switch(found.params, found.referee), switch(found.params, found.checker)
    assert abs(at_ref - at_chk) <= max_shift + 1e-12, \
        f"{found.clause}: referee switches at {at_ref}, checker at {at_chk}"
    unsure = [p for p, ok in zip(found.params, found.settled, strict=True) if not ok]
    if unsure:
        assert max(unsure) - min(unsure) <= max_band + 1e-12, \
            f"{found.clause}: band {min(unsure)}..{max(unsure)} wider than {max_band}"
    assert_agree_where_settled(found)


def assert_agree_where_settled(found: Scan) -> None:
    apart = [p for p, a, b, ok in zip(found.params, found.checker, found.referee, found.settled,
                                      strict=True) if ok and a != b]
    assert not apart, f"{found.clause}: checker and referee disagree at {apart}"
