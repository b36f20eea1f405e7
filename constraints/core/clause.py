"""The clause protocol: one rule clause, every form of itself, on one class.

Like CPMpy's global constraints (`value()` and `decompose()` side by side), a clause owns
- `check`: the exact judgement of one move, the specification;
- `encode`: sound CP-SAT rows (every pose the rows accept passes `check`);
- `masker`: a sound vectorised judge of many end poses (True implies `check` passes);
- `region`: the end centres it leaves an option, relaxed (holds every legal one) or sound
  (holds only legal ones), where the search prunes by regions;
- `bound`: what the clause tells a move family about its own limits (a budget, a window),
  so the family never has to look a clause up.
Shared code composes clauses through these methods and never branches on which clause it
holds.  A profile binds a clause class to an id and parameters (`ClauseSpec`); the registry
of clauses is the union of the registered profiles', keyed by id
(`constraints.core.profile.registered_clauses`).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from enum import IntEnum, StrEnum
from typing import Any, ClassVar

from constraints.core.profile import ClauseSpec, RulesProfile
from constraints.core.verdict import ClauseResult, measurement
from constraints.geometry.plane import Point


class Stage(IntEnum):
    """When a batch mask runs a clause: cheap per-way tests first, paths last."""

    WAY = 0     # depends on the way alone (heading window, Pivot, formation)
    LEGS = 1    # on the way's legs or the centre (distance, centre travel)
    END = 2     # on the end rectangle (table, Valid Final Position, spacing)
    SWEEP = 3   # on the area swept on the way
    PATHS = 4   # on the models' own paths


@dataclass(frozen=True)
class Masker:
    """A clause's vectorised form for one batch judge: `judge(poses, ok)` returns which poses
    in `ok` pass (False outside `ok`); `poses` is the judge's pose batch."""

    clause_id: str
    stage: Stage
    judge: Callable[[Any, Any], Any]


@dataclass(frozen=True)
class RegionPart:
    """What a clause leaves of an option's end centres: inside `keep` (when given) and outside
    `cut` (when given)."""

    keep: Any = None
    cut: Any = None


@dataclass(frozen=True)
class RuleExample:
    """A case taken from the rule text: a scenario and a move (JSON, as the files write
    them), whether this clause breaks, and optionally a measurement (name, value) the rule
    text fixes.  Every clause carries a table of them (`Clause.examples`); the conformance
    suite runs them for every registered clause."""

    why: str
    scenario: Mapping[str, Any]
    move: Mapping[str, Any]
    breaks: bool
    measured: tuple[str, float] | None = None


class Judges(StrEnum):
    """What a clause judges, as a search over ways of several wheels needs to know."""

    END_POSE = "end_pose"   # the end pose alone: `encode` holds whatever way reaches it
    WAY = "way"             # the way too (legs, wheels, Pivot): `encode_ways`
    UNSTATED = "unstated"   # not said: no search over ways runs under it


class Clause(ABC):
    """A rule clause bound to a profile's parameters."""

    examples: ClassVar[tuple[RuleExample, ...]] = ()
    # A search over ways with several wheels encodes a clause that judges the way with
    # `encode_ways` and one that judges the end pose with `encode`; a clause that does not
    # say (a new one, by default) keeps such a search from running, and the answer its bound.
    judges: ClassVar[Judges] = Judges.UNSTATED
    # Whether `region` also gives sound regions (every point left passes the clause); a
    # clause may cut relaxations only, and leave the rest to the checker.
    sound_regions: ClassVar[bool] = True

    def __init__(self, spec: ClauseSpec, profile: RulesProfile) -> None:
        self.id = spec.id
        self.params: dict[str, Any] = {name: profile.param(key) for name, key in spec.bind.items()}

    @abstractmethod
    def check(self, ctx: Any) -> ClauseResult:
        """Measure the move against this clause, exactly."""

    def encode(self, ectx: Any) -> None:
        """Post this clause's CP-SAT rows (sound: every accepted pose passes `check`)."""
        raise NotImplementedError(f"{self.id} has no CP-SAT encoding")

    def encode_ways(self, wctx: Any) -> None:
        """Post this clause's rows on a model of ways with several wheels (sound, as
        `encode`); only clauses that judge the way have them."""
        raise NotImplementedError(f"{self.id} has no encoding over ways of several wheels")

    def masker(self, setting: Any) -> Masker | None:
        """The vectorised sound form of this clause for a batch judge's `setting`, or None
        when it refuses no pose there (nothing in reach, say)."""
        raise NotImplementedError(f"{self.id} has no batch mask")

    def region(self, query: Any) -> RegionPart | None:
        """The end centres this clause leaves one option (`query` says which, and whether
        relaxed or sound); None when it does not judge end centres by a region."""
        return None

    def sweep_cut(self, query: Any) -> Any:
        """End centres of one option (start frame) whose way surely sweeps into a breach of
        this clause, within the extent of `query.base` (the option's whole reach: the shape
        depends on the option alone, shared by its sound and relaxed regions); None when the
        clause gives no such cut (the default)."""
        return None

    def refuses_every_move(self, scenario: Any, unit: Any) -> bool:
        """Whether the clause refuses the manoeuvre whatever the move (it judges the start
        alone, as a march begun near an enemy): a search then answers INFEASIBLE at once,
        proved under the rules (default: no)."""
        return False

    def refuses_turn(self, unit: Any, angle_deg: float) -> bool:
        """Whether the clause refuses every way that begins with a turn on the spot of
        `angle_deg` (0: none) by `unit` (a march may not turn; a turn's new front rank must
        hold the command group); the batch mask skips such ways (default: no)."""
        return False

    def bound(self, unit: Any, limits: Any) -> Any:
        """The move family's limits for `unit`, tightened by this clause (default: as given)."""
        return limits

    def limit_in(self, unit: Any) -> float:
        """The clause's distance limit for `unit`, where it has one (mob_factor x Mob)."""
        return float(self.params["mob_factor"]) * unit.mobility_in

    def result(self, name: str, measured: float, limit: float, legal: bool, message: str,
               witness: tuple[Point, ...] = (), dimension: str = "in") -> ClauseResult:
        """One measurement, and a violation carrying it when the clause is broken."""
        return measurement(self.id, name, measured, limit, legal, message, witness,
                           dimension)
