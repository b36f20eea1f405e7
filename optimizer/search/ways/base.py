"""A family's way search: how the search looks past a family's options (docs/architecture.md §3).

A family (optimizer.families) is geometry: its options, their end centres, its moves and its
relaxation.  How a search starts from exact geometry, which candidate ways and templates of
several wheels it tries and how it models them is the family's way search, kept here so that
the search uses the families and never the reverse.  Each is registered for one family class
(`register_ways`); a family with none gets `WaySearchStrategy`'s defaults: the shared
prefilter, no model of ways.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Generic, Protocol, TypeVar, cast

import numpy as np
import shapely
from ortools.sat.python import cp_model

from constraints.core.clause import Judges
from constraints.core.profile import RulesProfile
from constraints.core.scenario import Scenario
from constraints.sat.encoding import MoveEncoding
from constraints.sat.option import Option
from optimizer.families.base import Family

if TYPE_CHECKING:
    from constraints.core.verdict import Verdict
    from optimizer.search.clock import Clock
    from optimizer.search.incumbent import Incumbent
    from optimizer.search.objectives import Objective
    from optimizer.search.request import SearchRequest
    from optimizer.search.result import SearchResult

M = TypeVar("M")  # the system's move
M_co = TypeVar("M_co", covariant=True)

# The start of a search: a legal answer, the options that might beat it, their relaxed
# regions (by option index).
Start = tuple["Incumbent | None", list[int], dict[int, shapely.Geometry]]


class WayModel(Protocol[M_co]):
    """A model of some of a family's ways (optimizer.search.more_wheels solves it)."""

    whole: bool  # every way of up to its wheels, not a few (a template, a neighbourhood)

    @property
    def enc(self) -> MoveEncoding: ...

    def solve(self, solver: cp_model.CpSolver) -> tuple[int, M_co | None]:
        """(CP-SAT status, the move as the model decodes it, None without a solution)."""
        ...


class OwnSearch(Protocol):
    """The search of a manoeuvre with no family of end poses (a Post-Combat Pivot)."""

    def __call__(self, scenario: Scenario, unit_id: str, objective: Objective, *,
                 time_limit_s: float) -> SearchResult: ...


class WaySearchStrategy(Generic[M]):
    """A family's way search; every method has the default of a family with no ways."""

    # Its way templates are drawn from the relaxation's lattice points (optimizer.search.
    # more_wheels), or from its own (False: whfb7's prefixes).
    template_points: bool = True

    def starting_answer(self, request: SearchRequest, options: list[Option],
                        reach: list[shapely.Geometry], clock: Clock) -> Start | None:
        """The family's own start of a search, or None: the shared prefilter's
        (optimizer.search.prefilter), where the family `prefilters`."""
        return None

    def models_ways(self, request: SearchRequest) -> bool:
        """Whether `way_search` models ways under the request's clauses (default: yes)."""
        return True

    def way_search(self, request: SearchRequest, wheels: int, deadline: float,
                   around: Sequence[Sequence[int]] | None = None, margin: int = 0,
                   start: M | None = None) -> WayModel[M] | None:
        """A model of the family's ways with up to `wheels` wheels (optimizer.search.
        more_wheels), or of those within `margin` lattice steps of some ways' stage headings
        (and of the `start` move's, its hint), where the family has ways (default: none)."""
        return None

    def way_candidates(self, request: SearchRequest, wheels: int, value: float | None,
                       deadline: float) -> tuple[M, Verdict, dict[str, object]] | None:
        """A legal way of several wheels better than `value`, found by exact geometry before
        any model, with the checker's verdict and what was looked at (default: none)."""
        return None

    def refine_wheel(self, request: SearchRequest, move: M,
                     clock: Clock | None = None) -> tuple[M, Verdict] | None:
        """The answer `move` with its wheel refined on the lattice's degree by exact
        geometry, with the checker's verdict, within the `clock`'s limit (default: none)."""
        return None

    def way_template_reach(self, request: SearchRequest, wheels: int, headings: Sequence[int]
                           ) -> tuple[Option | None, shapely.Geometry | None] | None:
        """A template's end facing and a region holding every end centre of its ways; None
        when no legal way follows it; (None, None) when it is not drawn (the default: its
        model is built)."""
        return None, None

    def way_templates(self, request: SearchRequest, wheels: int, points: np.ndarray, count: int,
                      spread: int) -> list[list[int]]:
        """Stage headings of promising ways through the relaxation's best points (lattice
        steps), each solved on its own before the whole model (default: none)."""
        return []


def states_what_it_judges(request: SearchRequest) -> bool:
    """Whether every clause of the request says what it judges (the end pose, the way): a
    model of ways may then post each clause's rows on the way."""
    return not any(clause.judges == Judges.UNSTATED for clause in request.clauses)


# One registry over every system's moves: each entry writes its own family's moves (the
# casts in and out name that; the family's class is the key).
WAYS: dict[type, WaySearchStrategy[object]] = {}
NO_WAYS: WaySearchStrategy[object] = WaySearchStrategy()


def register_ways(family: type, ways: WaySearchStrategy[M]) -> None:
    """`ways` is the way search of every family of exactly this class."""
    WAYS[family] = cast("WaySearchStrategy[object]", ways)


def ways_of(family: Family[M]) -> WaySearchStrategy[M]:
    """The family's way search (its class's own, not a base class's: a subclass moves and
    costs otherwise)."""
    return cast("WaySearchStrategy[M]", WAYS.get(type(family), NO_WAYS))


# Manoeuvres with no family of end poses, searched by a search of their own: a Post-Combat
# Pivot is one number.
OWN_SEARCHES: dict[tuple[str, str], OwnSearch] = {}


def register_search(system: str, manoeuvre: str, search: OwnSearch) -> None:
    OWN_SEARCHES[(system, str(manoeuvre))] = search


def own_search(profile: RulesProfile, manoeuvre: str) -> OwnSearch | None:
    """The manoeuvre's own search, when it has no family (None: it has one, or is unknown)."""
    return OWN_SEARCHES.get((profile.system, str(manoeuvre)))
