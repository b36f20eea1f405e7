"""The system registry: each game system registers its readers, checker and profiles.

Like python-chess's `find_variant`, shared code asks the registry for the system a
profile belongs to and never imports a system itself: `constraints/__init__.py` imports the
systems, and each registers on import.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Generic, TypeVar

from constraints.core.profile import RulesProfile, find_profile, register_profile
from constraints.core.scenario import Feature, Scenario
from constraints.errors import InvalidInputError

# A system's own kinds: the pieces of its scenarios (units, troopers), the moves its checker
# judges (a unit's move, a route) and the verdicts it gives.  Each system is built as
# `System[Unit, Move, Verdict](...)`, so mypy checks its readers and checker against them.
U = TypeVar("U")
M = TypeVar("M")
V = TypeVar("V")


@dataclass(frozen=True)
class System(Generic[U, M, V]):
    """What the shared code needs of a game system."""

    name: str
    profiles: tuple[RulesProfile, ...]
    terrain_kinds: tuple[str, ...]
    # One `units[]` entry of a scenario, as its validated model (constraints/schema/units.py)
    # and the JSON path for the checks the model cannot make (slots, geometry).
    read_unit: Callable[[object, str], U]
    unit_to_json: Callable[[U], dict[str, object]]
    named_ids: Callable[[U], list[tuple[str, str]]]  # (JSON path suffix, id) a unit holds
    read_move: Callable[[object], M]                 # a move file's JSON
    check: Callable[[Scenario[U], M], V]             # (scenario, move) -> its verdict
    # A system whose terrain is not flat polygons (Infinity's scenery has heights, levels
    # and ladders) reads and writes its own entries and judges its own placement (troopers
    # on different levels may share x, y); None: the shared readers below.
    read_terrain: Callable[[object, str], Feature] | None = None
    terrain_to_json: Callable[[Feature], dict[str, object]] | None = None
    check_placement: Callable[[Scenario[U]], None] | None = None
    # The class of the values `check` judges (a unit's move; an Infinity trooper's route),
    # and the public queries (optimizer/__init__.py, docs/api.md) that serve its scenarios:
    # a query outside them is bad input for this system, said in one line (`require`).
    move_type: type | None = None
    queries: frozenset[str] = frozenset()
    # Its clauses that are not a Move Manoeuvre's (nudges, Combat Reforms, routes): per kind,
    # the module holding `CLAUSES` and `judge_example` (how a rule example is judged by the
    # clause alone and by the whole checker), imported only by who asks (the conformance
    # suite), so that start-up loads none of them.
    clause_kinds: tuple[str, ...] = ()

    def require(self, query: str, rules: str) -> None:
        """Raise `InvalidInputError` unless `query` serves this system's scenarios."""
        if query not in self.queries:
            served = ", ".join(sorted(self.queries)) or "none"
            raise InvalidInputError(f"{query} is not available for the {self.name} rules "
                                    f"(scenario rules {rules!r}); their queries: {served}",
                                    path="scenario")


SYSTEMS: dict[str, System] = {}


def register_system(system: System) -> None:
    """Make a system and its profiles known."""
    SYSTEMS[system.name] = system
    for profile in system.profiles:
        register_profile(profile)


def find_system(rules: str) -> System:
    """The system of the profile called `rules` (InvalidInputError when unknown)."""
    return SYSTEMS[find_profile(rules).system]
