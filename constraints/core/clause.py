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
holds.  Every clause class names its own stable id (`id`, a class attribute, for every kind
of clause); a profile binds clause classes to its parameters (`ClauseSpec`); the registry of
clauses is the union of the registered profiles', keyed by id
(`constraints.core.profile.registered_clauses`).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from enum import IntEnum, StrEnum
from typing import TYPE_CHECKING, ClassVar, Generic, TypeVar

import numpy as np
import shapely

from constraints.core.profile import ClauseSpec, ParamValue, RulesProfile
from constraints.core.verdict import ClauseResult, measurement
from constraints.geometry.plane import Point

if TYPE_CHECKING:  # the shared layers above the core, for annotations only
    from constraints.core.scenario import Scenario
    from constraints.rank_and_file.family_limits import FamilyLimits
    from constraints.rank_and_file.poses import EndRectangles, MaskSetting
    from constraints.rank_and_file.regions import RegionQuery
    from constraints.rank_and_file.unit import Unit
    from constraints.sat.context import EncodeContext

# What a system's checker hands its clauses (a move's context: T9A's MoveContext, Warhammer's,
# an Infinity route's), and what its search over ways of several wheels hands `encode_ways`.
Ctx = TypeVar("Ctx")
WayCtx = TypeVar("WayCtx")
Poses = TypeVar("Poses", bound="EndRectangles")


class Stage(IntEnum):
    """When a batch mask runs a clause: cheap per-way tests first, paths last."""

    WAY = 0     # depends on the way alone (heading window, Pivot, formation)
    LEGS = 1    # on the way's legs or the centre (distance, centre travel)
    END = 2     # on the end rectangle (table, Valid Final Position, spacing)
    SWEEP = 3   # on the area swept on the way
    PATHS = 4   # on the models' own paths


@dataclass(frozen=True)
class Masker(Generic[Poses]):
    """A clause's vectorised form for one batch judge: `judge(poses, ok)` returns which poses
    in `ok` pass (False outside `ok`); `poses` is the judge's pose batch (its family's kind:
    the end rectangles of Snaking ways, of Reforms, ...)."""

    clause_id: str
    stage: Stage
    judge: Callable[[Poses, np.ndarray], np.ndarray]


@dataclass(frozen=True)
class RegionPart:
    """What a clause leaves of an option's end centres: inside `keep` (when given) and outside
    `cut` (when given)."""

    keep: shapely.Geometry | None = None
    cut: shapely.Geometry | None = None


@dataclass(frozen=True)
class RuleExample:
    """A case taken from the rule text: a scenario and a move (JSON, as the files write
    them), whether this clause breaks, and optionally a measurement (name, value) the rule
    text fixes.  Every clause carries a table of them (`Clause.examples`); the conformance
    suite runs them for every registered clause."""

    why: str
    scenario: Mapping[str, object]  # JSON, as a scenario file writes it
    move: Mapping[str, object]
    breaks: bool
    measured: tuple[str, float] | None = None


class Judges(StrEnum):
    """What a clause judges, as a search over ways of several wheels needs to know."""

    END_POSE = "end_pose"   # the end pose alone: `encode` holds whatever way reaches it
    WAY = "way"             # the way too (legs, wheels, Pivot): `encode_ways`
    UNSTATED = "unstated"   # not said: no search over ways runs under it


class KeepsClear(StrEnum):
    """What part of a move a clause keeps more than its `spacing_in` from other units and
    Impassable Terrain (objects the unit starts close to take their start distance, A20), so
    that a search may cut its relaxations by it without naming the clause."""

    PIVOT = "pivot"              # the unit's boundary right after its Pivot
    FRONT_SWEEP = "front_sweep"  # the area the Front Facing sweeps while snaking


def keeping_clear(clauses: Sequence[Clause], part: KeepsClear) -> Clause | None:
    """The clause among `clauses` that keeps `part` clear, if any."""
    return next((c for c in clauses if c.keeps_clear == part), None)


class RuleClause(ABC, Generic[Ctx]):
    """One rule clause of any kind (a move's, a nudge's, a Combat Reform's, a route's): its
    exact `check` on the context its checker hands it (`Ctx`), naming itself (`id`) in every
    violation, and its table of examples taken from the rule text (`examples`, run for every
    clause of every registered system by tests/conformance/test_rule_examples.py)."""

    id: ClassVar[str]  # stable, dotted: in files, verdicts and outputs
    examples: ClassVar[Sequence[object]] = ()

    @abstractmethod
    def check(self, ctx: Ctx) -> ClauseResult:
        """Measure what `ctx` holds against this clause, exactly."""

    def result(self, name: str, measured: float, limit: float, legal: bool, message: str,
               witness: tuple[Point, ...] = (), dimension: str = "in") -> ClauseResult:
        """One measurement, and a violation carrying it when the clause is broken."""
        return measurement(self.id, name, measured, limit, legal, message, witness,
                           dimension)


class Clause(RuleClause[Ctx], Generic[Ctx, WayCtx]):
    """A Move Manoeuvre's rule clause, bound to a profile's parameters (one class an id: a
    rule applied under two ids, as an Advance's and a March's distance, is a subclass per
    id), judging moves of the context `Ctx` and searched through its
    encodings, masks and regions (and, where it judges ways of several wheels, encoding on
    `WayCtx`)."""

    examples: ClassVar[Sequence[RuleExample]] = ()
    # A search over ways with several wheels encodes a clause that judges the way with
    # `encode_ways` and one that judges the end pose with `encode`; a clause that does not
    # say (a new one, by default) keeps such a search from running, and the answer its bound.
    judges: ClassVar[Judges] = Judges.UNSTATED
    # Whether `region` also gives sound regions (every point left passes the clause); a
    # clause may cut relaxations only, and leave the rest to the checker.
    sound_regions: ClassVar[bool] = True
    # Whether its region, asked for a shape inside the unit's end rectangle, holds every end
    # centre the clause lets the rectangle take (a shape inside a legal rectangle passes too,
    # or the clause reads only the centre or the files): a Reform's run of facings is then
    # bounded by one region of a shape every member holds (optimizer.search.option_groups).
    monotone_in_shape: ClassVar[bool] = False
    # What part of the move it keeps clear of objects by its `spacing_in` (KeepsClear).
    keeps_clear: ClassVar[KeepsClear | None] = None

    def __init__(self, spec: ClauseSpec, profile: RulesProfile) -> None:
        self.params: dict[str, ParamValue] = {name: profile.param(key)
                                              for name, key in spec.bind.items()}

    def encode(self, ectx: EncodeContext) -> None:
        """Post this clause's CP-SAT rows (sound: every accepted pose passes `check`)."""
        raise NotImplementedError(f"{self.id} has no CP-SAT encoding")

    def encode_ways(self, wctx: WayCtx) -> None:
        """Post this clause's rows on a model of ways with several wheels (sound, as
        `encode`); only clauses that judge the way have them."""
        raise NotImplementedError(f"{self.id} has no encoding over ways of several wheels")

    def masker(self, setting: MaskSetting) -> Masker[EndRectangles] | None:
        """The vectorised sound form of this clause for a batch judge's `setting`, or None
        when it refuses no pose there (nothing in reach, say)."""
        raise NotImplementedError(f"{self.id} has no batch mask")

    def region(self, query: RegionQuery) -> RegionPart | None:
        """The end centres this clause leaves one option (`query` says which, and whether
        relaxed or sound); None when it does not judge end centres by a region."""
        return None

    def sweep_cut(self, query: RegionQuery) -> shapely.Geometry | None:
        """End centres of one option (start frame) whose way surely sweeps into a breach of
        this clause, within the extent of `query.base` (the option's whole reach: the shape
        depends on the option alone, shared by its sound and relaxed regions); None when the
        clause gives no such cut (the default)."""
        return None

    def refuses_every_move(self, scenario: Scenario, unit: Unit) -> bool:
        """Whether the clause refuses the manoeuvre whatever the move (it judges the start
        alone, as a march begun near an enemy): a search then answers INFEASIBLE at once,
        proved under the rules (default: no)."""
        return False

    def refuses_turn(self, unit: Unit, angle_deg: float) -> bool:
        """Whether the clause refuses every way that begins with a turn on the spot of
        `angle_deg` (0: none) by `unit` (a march may not turn; a turn's new front rank must
        hold the command group); the batch mask skips such ways (default: no)."""
        return False

    def bound(self, unit: Unit, limits: FamilyLimits) -> FamilyLimits:
        """The move family's limits for `unit`, tightened by this clause (default: as given)."""
        return limits

    def number(self, name: str) -> float:
        """A number the clause reads (inches, degrees, a factor of Mob)."""
        value = self.params[name]
        if isinstance(value, tuple):
            raise TypeError(f"{self.id}: parameter {name} is a tuple, not a number")
        return float(value)

    def whole(self, name: str) -> int:
        """A count the clause reads (files, ranks)."""
        value = self.params[name]
        if isinstance(value, tuple) or value != int(value):
            raise TypeError(f"{self.id}: parameter {name} is not a whole number")
        return int(value)

    def counts(self, name: str) -> tuple[int, ...]:
        """A table of counts the clause reads (e.g. widths by height)."""
        value = self.params[name]
        if not isinstance(value, tuple):
            raise TypeError(f"{self.id}: parameter {name} is not a tuple")
        return value

    def limit_in(self, unit: Unit) -> float:
        """The clause's distance limit for `unit`, where it has one (mob_factor x Mob)."""
        return self.number("mob_factor") * unit.mobility_in

