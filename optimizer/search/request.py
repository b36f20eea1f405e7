"""One search request: a frozen value built and validated once, carried through validation,
options, incumbent, pruning, model, solve, decode and recheck.

Everything derived from it (the unit, its start frame, the goal, the family, the clauses and
the limits they set) is computed once, on the request; the options are kept beside the
scenario (constraints.core.cache), so a second request about the same position reuses them.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

import shapely

from constraints.core.clause import Clause
from constraints.core.scenario import Scenario, validate_manoeuvre
from constraints.errors import InvalidInputError
from constraints.geometry.frame import Frame
from constraints.geometry.pieces import Relaxation
from constraints.rank_and_file.family_limits import FamilyLimits, family_limits
from constraints.sat.lattice import Lattice
from constraints.sat.option import Option
from optimizer.families.base import Family, family_for, options_for
from optimizer.search.objectives import Goal, Objective
from optimizer.search.regions import CentreRegions

DEFAULT_TIME_LIMIT_S = 10.0
# The search's deterministic work budget: CP-SAT's deterministic time (its own unit, about a
# second of work on a typical core).  Every bench case needs well under 1; the default leaves
# room for hard Reforms.  The answer depends on it, never on the machine's load.
DEFAULT_EFFORT = 20.0
MAX_EFFORT = 1e5
# Building the model is bounded by the same effort, counted in rows posted (about 10,000 a
# second on a typical core; the largest model of benchmarks/bench_solve.py's cases has 13,092
# rows, crowded-reform, and issue 22's Advance 16,799 once pruned, over 200,000 when not), never
# fewer than MIN_MODEL_ROWS: a search whose model would be larger stops building it
# (`stopped_by: "deterministic_time"`) and answers from what it found before.
ROWS_PER_EFFORT = 10_000
MIN_MODEL_ROWS = 50_000
# OPTIMAL: the answer within this of a bound over every way the rules allow (inches, or the
# objective's own units); the answers state it.
DEFAULT_TOLERANCE = 0.01
# Ways of an Advance or March searched with up to this many wheels (benchmarks/README.md).
DEFAULT_MAX_WHEELS = 3
MAX_WHEELS = 8


def time_limit(given: float | None) -> float:
    """A search's wall-clock limit: `given`, or DEFAULT_TIME_LIMIT_S read when called (the
    test suite raises it, so that its answers depend on the work budget alone)."""
    return DEFAULT_TIME_LIMIT_S if given is None else given


@dataclass(frozen=True, eq=False)
class SearchRequest:
    """The best `manoeuvre` of one unit for `objective`, on `lattice`, within limits."""

    scenario: Scenario
    unit_id: str
    manoeuvre: str
    objective: Objective
    lattice: Lattice = field(default_factory=Lattice)
    time_limit_s: float = DEFAULT_TIME_LIMIT_S
    workers: int = 1
    effort: float = DEFAULT_EFFORT
    tolerance: float = DEFAULT_TOLERANCE
    max_wheels: int = DEFAULT_MAX_WHEELS

    def __post_init__(self) -> None:
        validate_manoeuvre(self.scenario, self.unit_id, self.manoeuvre, "unit_id", "manoeuvre")
        if not isinstance(self.objective, Objective):
            raise InvalidInputError(f"expected an Objective, got {self.objective!r}",
                                    path="objective")
        if not (isinstance(self.time_limit_s, int | float) and math.isfinite(self.time_limit_s)
                and self.time_limit_s > 0):
            raise InvalidInputError(f"expected a time limit > 0 seconds, got "
                                    f"{self.time_limit_s!r}", path="time_limit_s")
        if not (isinstance(self.effort, int | float) and 0 < self.effort <= MAX_EFFORT):
            raise InvalidInputError(f"expected 0 < effort <= {MAX_EFFORT:g}, got "
                                    f"{self.effort!r}", path="effort")
        if isinstance(self.tolerance, bool) or not (isinstance(self.tolerance, int | float)
                                                    and 0 < self.tolerance <= 1e3):
            raise InvalidInputError(f"expected 0 < tolerance <= 1000, got {self.tolerance!r}",
                                    path="tolerance")
        if isinstance(self.max_wheels, bool) or not (isinstance(self.max_wheels, int)
                                                     and 1 <= self.max_wheels <= MAX_WHEELS):
            raise InvalidInputError(f"expected 1 <= max_wheels <= {MAX_WHEELS}, got "
                                    f"{self.max_wheels!r}", path="max_wheels")
        if not (isinstance(self.workers, int) and self.workers >= 1):
            raise InvalidInputError(f"expected workers >= 1, got {self.workers!r}",
                                    path="workers")

    @property
    def model_rows(self) -> int:
        """The most rows a model of this search may have (ROWS_PER_EFFORT)."""
        return int(max(MIN_MODEL_ROWS, ROWS_PER_EFFORT * self.effort))

    @cached_property
    def unit(self) -> Any:
        return self.scenario.unit(self.unit_id)

    @cached_property
    def frame(self) -> Frame:
        """The unit's start frame: every option and centre of the search lives in it."""
        return Frame(self.unit.pose.centre, self.unit.pose.facing_deg)

    @cached_property
    def goal(self) -> Goal:
        return self.objective.goal(self.frame)

    @cached_property
    def family(self) -> Family:
        return family_for(self.scenario.profile, self.manoeuvre)

    @cached_property
    def clauses(self) -> list[Clause]:
        return self.scenario.profile.clauses(self.manoeuvre)

    @cached_property
    def limits(self) -> FamilyLimits:
        return family_limits(self.clauses, self.unit)

    @cached_property
    def relaxation(self) -> Relaxation | None:
        """Where every way the rules allow can end, when the family searches fewer of them
        (optimizer.search.certify bounds the objective over it)."""
        return self.family.relaxation(self.unit, self.limits)

    # The option's regions of end centres, built once per request and shared by every stage
    # of its search (prefilter, geometry, unproved, templates, candidates): each set caches
    # its clauses' settings and sweep cuts.
    @cached_property
    def relaxed_regions(self) -> CentreRegions:
        """Regions holding every legal end centre of an option (outer)."""
        return CentreRegions(self.scenario, self.unit, self.manoeuvre, outer=True)

    @cached_property
    def sound_regions(self) -> CentreRegions:
        """Regions of end centres that pass the end-position rules (inner)."""
        return CentreRegions(self.scenario, self.unit, self.manoeuvre, outer=False)

    def options(self) -> tuple[list[Option], list[shapely.Geometry]]:
        """The family's options and, per option, every end centre it allows."""
        return options_for(self.scenario, self.unit, self.manoeuvre, self.lattice)
