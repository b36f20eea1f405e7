"""A route query, validated once: the trooper as it moves, where it starts, the target."""

from __future__ import annotations

import math
from dataclasses import dataclass

from constraints.core.jsonread import number
from constraints.core.scenario import Scenario
from constraints.core.system import find_system
from constraints.errors import InvalidInputError
from constraints.infinity.route import DODGE_IN, SKILLS, Route
from constraints.infinity.scenery import Point3
from constraints.infinity.surfaces import Surfaces
from constraints.infinity.trooper import Trooper

MAX_TOLERANCE_IN = 1.0


@dataclass(frozen=True)
class RouteRequest:
    scenario: Scenario
    trooper: Trooper
    skill: str
    start: Point3
    target: Point3
    tolerance_in: float
    prone: bool | None = None   # entered (True) or left (False) at the start; None: as it is

    @classmethod
    def build(cls, scenario: Scenario, unit: str, target: tuple[float, ...], skill: str,
              prone: bool | None, tolerance_in: float) -> RouteRequest:
        if not isinstance(scenario, Scenario) or find_system(scenario.rules).move_type is not Route:
            raise InvalidInputError("expected a scenario of troopers moving by routes (rules "
                                    "'infinity-n4')", path="scenario")
        trooper = _trooper(scenario, unit)
        if skill not in SKILLS:
            raise InvalidInputError(f"unknown skill {skill!r} (known: {', '.join(SKILLS)})",
                                    path="skill")
        if prone is not None and not isinstance(prone, bool):
            raise InvalidInputError("expected true or false", path="prone")
        tolerance = number(tolerance_in, "tolerance", positive=True, maximum=MAX_TOLERANCE_IN)
        mover = trooper if prone is None else trooper.with_prone(prone)
        goal = _target(scenario, target)
        return cls(scenario, mover, skill, (*trooper.centre, trooper.level_in), goal, tolerance,
                   prone)

    @property
    def allowance_in(self) -> float:
        """The most the route may cover: both MOV values for Move + Move, 2" for a Dodge
        (halved Prone), else the first MOV value."""
        first = self.trooper.move_allowance_in(0)
        if self.skill == "move_move":
            return first + self.trooper.move_allowance_in(1)
        if self.skill == "dodge":
            return DODGE_IN / (2.0 if self.trooper.prone else 1.0)
        return first

    def why_none(self) -> str:
        return (f"no route for {self.trooper.id!r} reaches ({self.target[0]:g}, "
                f"{self.target[1]:g}) at level {self.target[2]:g} in without Jump or Climb, "
                f"or the base cannot stand there: it performs Idle")

    @property
    def prone_at_start(self) -> bool:
        """Whether the trooper stands Prone before the skill (before entering or leaving)."""
        found: Trooper = self.scenario.unit(self.trooper.id)
        return found.prone


def _trooper(scenario: Scenario, unit: str) -> Trooper:
    if not isinstance(unit, str) or not scenario.has_unit(unit):
        known = ", ".join(u.id for u in scenario.units)
        raise InvalidInputError(f"unknown unit {unit!r} (units: {known})", path="unit")
    found: Trooper = scenario.unit(unit)
    if found.marker:
        raise InvalidInputError(f"{unit!r} is a marker: it does not move", path="unit")
    return found


def _target(scenario: Scenario, target: tuple[float, ...]) -> Point3:
    if isinstance(target, str | bytes) or not hasattr(target, "__len__") \
            or len(target) not in (2, 3):
        raise InvalidInputError("expected X,Y or X,Y,LEVEL", path="target")
    values = [number(v, f"target[{i}]") for i, v in enumerate(target)]
    x, y = values[0], values[1]
    if not (0.0 <= x <= scenario.battlefield.width_in
            and 0.0 <= y <= scenario.battlefield.depth_in):
        raise InvalidInputError(f"target ({x:g}, {y:g}) is off the battlefield", path="target")
    if len(values) == 3:
        level = values[2]
        if not math.isfinite(level) or level < 0:
            raise InvalidInputError("a level is a height of 0 in or more", path="target[2]")
    else:
        level = Surfaces(scenario, 0.0).top_under(x, y).top_in
    return (x, y, level)
