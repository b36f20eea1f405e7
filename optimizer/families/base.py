"""A manoeuvre's move family: the options a search enumerates, and what only the family knows.

A family turns the rules' limits (constraints.rank_and_file.family_limits) into the
discrete part of a search (options) and, per option, the region of end centres its way can
reach; it writes an option's end pose back as a move, builds pose batches for the batch
mask, and posts its own rows (its way's geometry) on the CP-SAT model.  Systems register
their families per manoeuvre (`register_family`); searches ask `family_for`.
"""

from __future__ import annotations

import math
from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import TYPE_CHECKING, Generic, Protocol, TypeVar

import numpy as np
import shapely
from shapely.geometry import Point

from constraints.core.cache import remembered
from constraints.core.profile import RulesProfile
from constraints.core.scenario import Scenario
from constraints.errors import InvalidInputError
from constraints.geometry.frame import Frame
from constraints.geometry.pieces import Relaxation
from constraints.rank_and_file.family_limits import FamilyLimits, family_limits
from constraints.rank_and_file.unit import Unit
from constraints.sat.encoding import MoveEncoding
from constraints.sat.lattice import Lattice
from constraints.sat.option import Option

if TYPE_CHECKING:
    from constraints.rank_and_file.poses import EndRectangles

M = TypeVar("M")  # the system's move (T9A's Move, Warhammer's WarhammerMove)


class PoseJudge(Protocol):
    """What a family's `mask` asks of a batch judge (optimizer.batch.BatchJudge, or the
    family's own `judge_kind`)."""

    def mask(self, centres: np.ndarray, facings: np.ndarray, *,
             pivots: np.ndarray | None = None,
             files: int | np.ndarray | None = None) -> np.ndarray: ...


class Family(ABC, Generic[M]):
    """One manoeuvre's move family, writing the system's moves `M`."""

    pivots: bool = False  # its ways start with a free Pivot (an Advance)
    # Its clauses have batch masks and regions: a search starts from an incumbent and prunes
    # options with them (optimizer.search.prefilter); otherwise it models every option.
    prefilters: bool = True
    # Its options hold every way the rules allow (on the lattice), or a relaxation bounds
    # the rest; otherwise the solver's OPTIMAL speaks of the family alone (`description`).
    holds_every_way: bool = True
    description: str | None = None  # what the family searches, where it is not every way
    # Its moves follow from an option and an end centre alone, and the checker judges what
    # the regions leave out: the search starts from the best points of the options' sound
    # regions (optimizer.search.geometric).
    answers_by_geometry: bool = False
    # Its options share one bound (a Reform's facings and files, where nothing cuts their
    # regions near the best point): a best point is judged once its value is within a
    # lattice step of the best key left, as the pruning after it forgives a step anyway;
    # otherwise every option's region would be cut before the first point is judged.
    judges_within_step: bool = False
    # Its options come in runs of facings of one formation that a region can bound together
    # (optimizer.search.option_groups): the search bounds the runs before the options.
    groups_facings: bool = False
    # The batch judge of its poses (a class taking scenario, unit id, manoeuvre); None:
    # optimizer.batch.BatchJudge, which reads the clauses' own masks.
    judge_kind: type | None = None
    # Several options may end at one pose (a whfb7 move's turns on the spot, written as the
    # option's pivot): whether a view holds a move is asked of each, whatever its pivot.
    many_ways_per_end: bool = False

    @abstractmethod
    def options(self, unit: Unit, frame: Frame, lattice: Lattice,
                limits: FamilyLimits) -> tuple[list[Option], list[shapely.Geometry]]:
        """The options, and per option every end centre its way allows (frame inches)."""

    @abstractmethod
    def reach(self, option: Option, travel_disc: shapely.Geometry) -> shapely.Geometry:
        """The option's own region of end centres (frame inches); `travel_disc` is the
        centre's travel disc for families that have no way of their own."""

    @abstractmethod
    def move(self, unit_id: str, frame: Frame, option: Option, centre: tuple[float, float]) -> M:
        """The move of `option` ending at a start-frame centre."""

    @abstractmethod
    def poses(self, unit: Unit, centres: np.ndarray, facings: np.ndarray,
              turns: np.ndarray | None, files: np.ndarray | None,
              tol: float) -> tuple[EndRectangles, np.ndarray]:
        """A batch of end poses (world centres and facings, with the family's own part: a
        Pivot per pose, or files) and whether each exists (constraints.rank_and_file.poses)."""

    @abstractmethod
    def mask(self, judge: PoseJudge, world: np.ndarray, chosen: Sequence[Option],
             inverse: np.ndarray) -> np.ndarray:
        """`judge.mask` of world centres, the k-th being an end centre of
        `chosen[inverse[k]]`."""

    @abstractmethod
    def stand_still(self, options: Sequence[Option], unit: Unit) -> int | None:
        """The index of the option that, at the start centre, leaves the unit as it stands
        (None when the family has none)."""

    def post_rows(self, enc: MoveEncoding, limits: FamilyLimits) -> None:
        """The family's own rows on the model (default: none)."""
        return None

    def holds_ways(self, wheels: int, lattice: Lattice) -> bool:
        """Whether the options already hold every way of up to `wheels` wheels on the
        lattice (then no model of ways is needed)."""
        return True

    def relaxation(self, unit: Unit, limits: FamilyLimits) -> Relaxation | None:
        """Where every way the rules allow can end, when the family searches fewer of them
        (optimizer.search.certify bounds the objective over it); None when the family holds
        every way (on the lattice) or no sound relaxation is known."""
        return None


FAMILIES: dict[tuple[str, str], Family[object]] = {}
def register_family(system: str, manoeuvre: str, family: Family[object]) -> None:
    FAMILIES[(system, str(manoeuvre))] = family


def family_for(profile: RulesProfile, manoeuvre: str) -> Family[object]:
    found = FAMILIES.get((profile.system, manoeuvre))
    if found is None:  # a manoeuvre with no family of end poses (a Post-Combat Pivot)
        raise InvalidInputError(f"no view of legal end positions for {manoeuvre!s} (searched "
                                "by best_move; judged by check_move)", path="manoeuvre")
    return found


def options_for(scenario: Scenario, unit: Unit, manoeuvre: str,
                lattice: Lattice) -> tuple[list[Option], list[shapely.Geometry]]:
    """The manoeuvre's options and, per option, every end centre it allows (frame inches).

    Budgets and windows come from the profile's clauses (each through `Clause.bound`).  Built
    once per (scenario, unit, manoeuvre, lattice) (constraints.core.cache): an AI querying the
    same position again pays nothing."""
    def build() -> tuple[list[Option], list[shapely.Geometry]]:
        limits = family_limits(scenario.profile.clauses(manoeuvre), unit)
        frame = Frame(unit.pose.centre, unit.pose.facing_deg)
        return family_for(scenario.profile, manoeuvre).options(unit, frame, lattice, limits)
    options, regions = remembered(scenario, ("options", unit.id, manoeuvre, lattice), build)
    return list(options), list(regions)


def bound_in(regions: list[shapely.Geometry]) -> float:
    """Largest distance of any allowed centre from the start centre."""
    origin = Point(0.0, 0.0)
    return max((shapely.hausdorff_distance(origin, r) for r in regions), default=0.0) + \
        math.ulp(1.0)
