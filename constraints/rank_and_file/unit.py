"""A rank-and-file unit: models on matching rectangular bases in one formation."""

from __future__ import annotations

import copy
from dataclasses import dataclass, replace
from functools import cached_property

import numpy as np
from shapely.geometry import Polygon

from constraints.core.jsonread import flag, number, point, text, whole
from constraints.core.scenario import Pose
from constraints.core.verdict import ModelPlace
from constraints.errors import InvalidInputError
from constraints.geometry.plane import (
    Point,
    local_to_world,
    mm_to_in,
    normalise_deg,
    rectangle_corners,
    unit_vector,
)
from constraints.rank_and_file.formation import Formation, Slot

# Far beyond any model's base or Mob, and small enough that the searches' grids of end
# positions (Mob x the largest rules factor, on a 0.1" lattice) fit in memory.
MAX_BASE_MM = 1000.0
MAX_MOBILITY_IN = 20.0
MAX_HEIGHT = 5
# What a unit is doing this turn, where the rules treat it apart (nudges, No More Foes):
# broken and about to flee, about to pursue, or charging.  None: none of these.
STATES = ("fleeing", "pursuing", "charging")
# The command group a Warhammer unit may carry: front-rank models (docs/formats.md).
COMMAND = ("champion", "standard", "musician")


@dataclass(frozen=True)
class Base:
    """A rectangular base, frontage x depth in mm as printed."""

    frontage_mm: float
    depth_mm: float

    def __post_init__(self) -> None:
        for name in ("frontage_mm", "depth_mm"):
            object.__setattr__(self, name, number(getattr(self, name), name, positive=True,
                                                  maximum=MAX_BASE_MM))

    @property
    def width_in(self) -> float:
        return mm_to_in(self.frontage_mm)

    @property
    def depth_in(self) -> float:
        return mm_to_in(self.depth_mm)


@dataclass(frozen=True)
class Unit:
    """A unit of models on matching rectangular bases in one formation."""

    id: str
    player: str
    base: Base
    formation: Formation
    pose: Pose
    mobility_in: float
    height: int = 1
    musician: bool = False
    light_troops: bool = False
    state: str | None = None
    command: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        # Only cheap checks here (the slots of characters and empty places are checked
        # where a scenario is read); `with_pose` checks the pose alone.
        for name, kind in (("base", Base), ("formation", Formation), ("pose", Pose)):
            if not isinstance(getattr(self, name), kind):
                raise InvalidInputError(f"expected a {kind.__name__}, got "
                                        f"{type(getattr(self, name)).__name__}", path=name)
        checked = {"id": text(self.id, "id"), "player": text(self.player, "player"),
                   "pose": _pose(self.pose),
                   "mobility_in": number(self.mobility_in, "mobility_in", positive=True,
                                         maximum=MAX_MOBILITY_IN),
                   "height": whole(self.height, "height", minimum=0, maximum=MAX_HEIGHT),
                   "musician": flag(self.musician, "musician"),
                   "light_troops": flag(self.light_troops, "light_troops"),
                   "state": _state(self.state), "command": _command(self.command)}
        for name, value in checked.items():
            object.__setattr__(self, name, value)

    @property
    def files(self) -> int:
        return self.formation.files

    # Cached (the unit is immutable): option building asks for them thousands of times.
    @cached_property
    def width_in(self) -> float:
        return self.formation.files * self.base.width_in

    @cached_property
    def depth_in(self) -> float:
        return self.formation.ranks * self.base.depth_in

    def corners(self) -> tuple[Point, Point, Point, Point]:
        """Front-left, front-right, rear-right, rear-left corners of the Unit Boundary."""
        return rectangle_corners(self.pose.centre, self.pose.facing_deg, self.width_in,
                                 self.depth_in)

    def boundary(self) -> Polygon:
        return Polygon(self.corners())

    def slot_centre(self, slot: Slot) -> Point:
        rank, file = slot
        right = (file + 0.5) * self.base.width_in - self.width_in / 2.0
        fwd = self.depth_in / 2.0 - (rank + 0.5) * self.base.depth_in
        return local_to_world(self.pose.centre, self.pose.facing_deg, right, fwd)

    def model_positions(self) -> np.ndarray:
        """Base centres of every model, in `formation.layout()` order, shape (n, 2)."""
        # slot_centre's arithmetic, in the same order, on every slot at once.
        slots = np.array([slot for _, slot in self.formation.layout()],
                         dtype=float).reshape(-1, 2)
        right = (slots[:, 1] + 0.5) * self.base.width_in - self.width_in / 2.0
        fwd = self.depth_in / 2.0 - (slots[:, 0] + 0.5) * self.base.depth_in
        fx, fy = unit_vector(self.pose.facing_deg)
        cx, cy = self.pose.centre
        return np.stack([cx + right * fy + fwd * fx, cy + right * -fx + fwd * fy], axis=1)

    def model_ids(self) -> tuple[str, ...]:
        chars = {c.id for c in self.formation.characters}
        return tuple(key if key in chars else f"{self.id}.{key}"
                     for key, _ in self.formation.layout())

    def model_places(self) -> tuple[ModelPlace, ...]:
        """Where every model's base stands (id, centre, facing), in `layout()` order: what a
        verdict's `end.models` says."""
        facing = self.pose.facing_deg
        return tuple(ModelPlace(mid, (float(x), float(y)), facing) for mid, (x, y)
                     in zip(self.model_ids(), self.model_positions(), strict=True))

    def with_pose(self, pose: Pose) -> Unit:
        """The unit moved to `pose` (checked as `__post_init__` checks it).  Only the pose is
        checked again: the rest was checked when this unit was made, and a checker moves a
        unit tens of times a move (`replace`, checking every field: 13% of check_move)."""
        if not isinstance(pose, Pose):
            raise InvalidInputError(f"expected a Pose, got {type(pose).__name__}", path="pose")
        moved = copy.copy(self)  # (its cached widths and depths hold: same base, formation)
        object.__setattr__(moved, "pose", _pose(pose))
        return moved

    def with_formation(self, formation: Formation) -> Unit:
        return replace(self, formation=formation)


def _state(state: str | None) -> str | None:
    if state is not None and state not in STATES:
        raise InvalidInputError(f"unknown state {state!r} (known: {', '.join(STATES)})",
                                path="state")
    return state


def _command(command: tuple[str, ...]) -> tuple[str, ...]:
    if isinstance(command, str | bytes) or not hasattr(command, "__len__"):
        raise InvalidInputError("expected a list of command models", path="command")
    found = tuple(command)
    for model in found:
        if model not in COMMAND:
            raise InvalidInputError(f"unknown command model {model!r} (known: "
                                    f"{', '.join(COMMAND)})", path="command")
    if len(set(found)) != len(found):
        raise InvalidInputError("a command model is listed twice", path="command")
    return found


def _pose(pose: Pose) -> Pose:
    """A finite pose, its facing in [0, 360) (so verdicts print 90, not 450)."""
    centre = point(pose.centre, "pose.centre")
    facing = normalise_deg(number(pose.facing_deg, "pose.facing_deg"))
    facing = 0.0 if facing >= 360.0 else facing  # -1e-20 wraps to 360.0 in floats
    if isinstance(pose.centre, tuple) and centre == pose.centre and facing == pose.facing_deg:
        return pose
    return Pose(centre, facing)
