"""Objectives of a best-move search: what the user asks for (`Objective`) and how a search
pursues it (`Goal`, one class per objective, registered by name).

- `target_distance`: the unit's centre as close as possible to a point (the distance in the
  norm of a regular 256-gon, within 0.008% of the Euclidean one, plus 0.07% for its integer
  directions);
- `front_target_distance`: the same for the centre of the Front Facing;
- `face_point`: the point as close as possible to the unit's centre line, ahead of it (the
  lateral offset in ticks; poses whose facing turns more than 90 deg away from the point,
  seen from the start centre, pay a large constant);
- `forward`: as far forward along the start facing as possible;
- `target_pose`: centre close to a point and facing close to a heading (the distance as above
  and 0.1" per degree of facing difference, combined as a hypotenuse by a polygon of
  tangents, as the exact value is).
A goal posts itself on the CP-SAT model, values and bounds options in the unit's start frame
(the search's own terms, for pruning), and measures a judged pose exactly: the value reported
to users is recomputed exactly from the returned pose.
"""

from __future__ import annotations

import math
from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np
import shapely

from constraints.core.jsonread import number
from constraints.core.jsonread import point as checked_point
from constraints.core.verdict import Verdict
from constraints.errors import InvalidInputError
from constraints.geometry.frame import Frame
from constraints.geometry.pieces import ReachPieces
from constraints.geometry.plane import Point
from constraints.sat.encoding import MoveEncoding
from constraints.sat.option import Option

BEHIND_PENALTY = 10**6
DEGREE_WEIGHT_IN = 0.1  # target_pose: a degree of facing counts as this many inches
NORM_SIDES = 256
# Objective units per tick.  The norm's directions are integers at this scale, so they are
# unit vectors to within 0.5 / NORM_SCALE x sqrt(2) (7e-4 relative).
NORM_SCALE = 1_000
SHRINK = math.cos(math.pi / NORM_SIDES)


@dataclass(frozen=True)
class Objective:
    """What to optimise: a name (`GOALS`), and its point and heading where needed."""

    name: str
    point: Point | None = None
    facing_deg: float | None = None

    def __post_init__(self) -> None:
        goal = GOALS.get(self.name) if isinstance(self.name, str) else None
        if goal is None:
            raise InvalidInputError(f"unknown objective {self.name!r} "
                                    f"(known: {', '.join(GOALS)})", path="objective")
        if goal.needs_point and self.point is None:
            raise InvalidInputError(f"objective {self.name!r} needs a point", path="objective")
        if goal.needs_facing and self.facing_deg is None:
            raise InvalidInputError(f"objective {self.name!r} needs a facing",
                                    path="objective")
        # Finite and within MAX_MAGNITUDE, as in files: NaN or 1e300 would reach the model.
        if self.point is not None:
            object.__setattr__(self, "point", checked_point(self.point, "objective.point"))
        if self.facing_deg is not None:
            object.__setattr__(self, "facing_deg", number(self.facing_deg,
                                                          "objective.facing_deg"))

    @property
    def maximise(self) -> bool:
        return GOALS[self.name].maximise

    def goal(self, frame: Frame) -> Goal:
        """How a search of the unit whose start frame is `frame` pursues this objective."""
        return GOALS[self.name](self, frame)


class Goal(ABC):
    """One objective in a unit's start frame: `point` (frame inches) and `facing` (relative
    to the start facing, 90 = unchanged), where the objective has them."""

    name: ClassVar[str]
    maximise: ClassVar[bool] = False
    needs_point: ClassVar[bool] = True
    needs_facing: ClassVar[bool] = False
    distance: ClassVar[bool] = False  # a distance to a target point (pruned by discs)
    # The least value `exact` can take, where there is one (no pose does better)
    floor: ClassVar[float | None] = None
    # Whether `exact` orders answers as the search does (face_point's does not: it leaves
    # out the penalty of facing away from the point); optimizer.search.simplest needs it.
    exact_orders: ClassVar[bool] = True
    # Whether `values` and `bounds` read the end centre alone, whatever the option's facing
    # and files (a group of options then shares one bound: optimizer.search.option_groups).
    centre_only: ClassVar[bool] = False

    def __init__(self, objective: Objective, frame: Frame) -> None:
        self.objective, self.frame = objective, frame
        self.point = frame.point(objective.point) if objective.point is not None else None
        self.facing = None if objective.facing_deg is None else \
            90.0 + objective.facing_deg - frame.heading_deg

    @abstractmethod
    def post(self, enc: MoveEncoding, regions: list[shapely.Geometry],
             worst: float | None = None) -> None:
        """Add the objective to the model, with a bound per option from its region of
        centres (ignoring every clause): once a solution is known, options that cannot beat
        it are dropped at once.  `worst` (the goal's own terms, as `values`): the model
        need only hold centres that might do better, so those that cannot are cut off (a
        legal answer of that value is known; generous by the norm's rounding and a tick)."""

    @abstractmethod
    def values(self, option: Option, centres: np.ndarray) -> np.ndarray:
        """The objective as the model counts it, at frame centres (N, 2) of one option."""

    @abstractmethod
    def bounds(self, options: list[Option], regions: list) -> np.ndarray:
        """Per option, a bound on `values` over its region (lower when minimising, upper when
        maximising); NaN where none is known."""

    @abstractmethod
    def clip(self, option: Option, worst: float) -> shapely.Geometry:
        """The frame centres of the option where `values` could be no worse than `worst`
        (every centre outside it is worse; a relaxation: circumscribed)."""

    @abstractmethod
    def exact(self, verdict: Verdict) -> float:
        """The objective of a judged end pose, exactly (inches, or inches forward)."""

    @abstractmethod
    def piece_values(self, pieces: ReachPieces) -> np.ndarray:
        """Per piece of end poses (world terms), a bound on `exact` over every pose in it
        (lower when minimising, upper when maximising; +-inf for an empty piece)."""

    def target_discs(self, options: list[Option],
                     worst: float) -> tuple[np.ndarray, np.ndarray] | None:
        """Per option, a disc (frame centre, radius; negative: none) holding every centre
        where it could beat `worst`; None when the goal is not a distance."""
        return None

    def best_point(self, option: Option, region: shapely.Geometry) -> np.ndarray | None:
        """A best frame centre of the option in a non-empty region of its centres, in
        continuous coordinates (None: the goal does not say)."""
        return None

    def near_target(self, option: Option, tick: float) -> np.ndarray | None:
        """Lattice centres of the option to try first (its best, if legal), or None."""
        return None

    def at_lattice_floor(self, option: Option, centre: Point, tick: float) -> bool:
        """Whether a lattice centre of `option` already has the least value any lattice
        centre of any option can have, in the model's own integer terms."""
        return False

    def better(self, value: float, than: float) -> bool:
        return value > than if self.maximise else value < than

    def ranked(self, verdict: Verdict) -> float:
        """A judged end pose's value in the order the search keeps (`exact`, but for
        face_point's penalty of facing away): which of two answers is better."""
        return self.exact(verdict)

    def bounding(self, verdict: Verdict | None) -> Goal:
        """The goal whose `piece_values` bound every way that could beat this answer (the
        certificate's: optimizer.search.more_wheels); itself but for face_point."""
        return self


GOALS: dict[str, type[Goal]] = {}


def register_goal(goal: type[Goal]) -> type[Goal]:
    """Make a goal class known by its objective name."""
    GOALS[goal.name] = goal
    return goal


def option_rows(enc: MoveEncoding, var: Any, bounds: list[int], lower: bool = True) -> None:
    """var >= (or <=) the option's bound, as one row linear in the option Booleans (exactly
    one is true), so that the LP relaxation sees every bound."""
    total = sum(b * lit for b, lit in zip(bounds, enc.option_vars, strict=True))
    enc.sat_model.add(var >= total if lower else var <= total)
