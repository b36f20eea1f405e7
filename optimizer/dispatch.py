"""How a public query serves every game system: it asks the system registry
(constraints.core.system) for the scenario's system, the system says whether it answers the
query (`System.queries`), and a move built in another system's terms is read again as the
scenario's own (through the move file format, docs/formats.md, whose readers check it).

Light on purpose: `optimizer.check_move` must not load the solver or the plotting library.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from constraints.core.scenario import Scenario
from constraints.core.system import SYSTEMS, System, find_system
from constraints.errors import InvalidInputError


def system_of(scenario: object) -> System:
    """The system of a scenario's rules (InvalidInputError for anything but a Scenario)."""
    if not isinstance(scenario, Scenario):
        raise InvalidInputError(f"expected a Scenario, got {type(scenario).__name__}",
                                path="scenario")
    return find_system(scenario.rules)


def require(scenario: object, query: str) -> System:
    """The scenario's system, when it answers `query`; else InvalidInputError naming both."""
    system = system_of(scenario)
    assert isinstance(scenario, Scenario)
    system.require(query, scenario.rules)
    return system


def _move_systems() -> Iterator[System]:
    """The systems whose moves a `Move` builds: those with Move Manoeuvres, in the order
    they registered (The Ninth Age before Warhammer: a March of forward steps is first
    built as T9A's, and read again as Warhammer's by a whfb7 scenario's query)."""
    for system in SYSTEMS.values():
        if system.move_type is not None and any(p.manoeuvres for p in system.profiles):
            yield system


def _manoeuvres(system: System) -> set[str]:
    return {str(m) for profile in system.profiles for m in profile.manoeuvres}


class _AnySystemsMove(type):
    """`isinstance(x, Move)` holds for the move of any system a `Move` can build."""

    def __instancecheck__(cls, obj: object) -> bool:
        return any(isinstance(obj, s.move_type) for s in _move_systems()
                   if s.move_type is not None)

    def __subclasscheck__(cls, sub: type) -> bool:
        return any(issubclass(sub, s.move_type) for s in _move_systems()
                   if s.move_type is not None)


class Move(metaclass=_AnySystemsMove):
    """A proposed move of one unit, in the terms of the first registered system that takes
    its manoeuvre, steps and fields: `Move("spears", "march", steps=(forward(2),))` is The
    Ninth Age's March (`constraints.t9a.moves.Move`), `Move("goblins", "move",
    steps=(turn(90), forward(3)))` a Warhammer move (`constraints.whfb7.moves.WarhammerMove`).
    Every query reads a move again as its scenario's system's own (a T9A March of forward
    steps and wheels is a whfb7 March too), or says in one line why it cannot.

    Fields as the systems' move values: `steps`, `pivot_deg` (T9A Advance), `files`,
    `centre` (T9A), `facing_deg`, `assignment`.
    """

    def __new__(cls, unit: Any, manoeuvre: Any, steps: Any = (), **fields: Any) -> Any:
        refused: InvalidInputError | None = None
        for system in _move_systems():
            if str(manoeuvre) not in _manoeuvres(system):
                continue
            assert system.move_type is not None
            try:
                return system.move_type(unit, manoeuvre, steps, **fields)
            except TypeError:  # a field this system's moves do not have
                unknown = sorted(set(fields) - _fields(system.move_type))
                refused = refused or InvalidInputError(
                    f"a {system.name} {manoeuvre} has no {', '.join(unknown) or 'such field'}",
                    path=unknown[0] if unknown else "move")
            except InvalidInputError as exc:
                refused = refused or exc
        if refused is not None:
            raise refused
        known = sorted(set().union(*(_manoeuvres(s) for s in _move_systems())))
        raise InvalidInputError(f"unknown manoeuvre {manoeuvre!r} (known: {', '.join(known)})",
                                path="manoeuvre")


def _fields(move_type: type) -> set[str]:
    return set(getattr(move_type, "__dataclass_fields__", {}))


def own_move(system: System, move: object) -> Any:
    """`move` as `system`'s own move value: itself, or another system's move read again from
    its JSON by `system`'s reader (InvalidInputError, naming the system, when it is no move
    of that system's rules)."""
    if system.move_type is not None and isinstance(move, system.move_type):
        return move
    others = [s for s in SYSTEMS.values() if s.move_type is not None
              and isinstance(move, s.move_type)]
    if not others:
        raise InvalidInputError(f"expected a Move, got {type(move).__name__}", path="move")
    foreign: Any = move  # a move value of another system: every one writes its JSON
    try:
        return system.read_move(foreign.to_json())
    except InvalidInputError as exc:
        raise InvalidInputError(f"not a move of the {system.name} rules: {exc.problem}",
                                path=f"move.{exc.path.removeprefix('$').lstrip('.')}"
                                .rstrip(".")) from None


def check_move(scenario: Scenario, move: Any, referee: float | None = None) -> Any:
    """The scenario's system's exact checker on `move` (a unit's Move; for Infinity, a
    trooper's Route), with the referee's reading at `referee` inches when given (A21).

    Returns the system's verdict (`Verdict`; `RouteVerdict` for a route): `legal`, and the
    broken clauses (`violations`, each naming its clause), never an exception for an
    illegal move."""
    system = require(scenario, "check_move")
    return system.check(scenario, own_move(system, move)).refereed(referee)


def is_legal(scenario: Scenario, move: Any) -> bool:
    """Whether the scenario's system's exact checker finds no broken clause."""
    return bool(check_move(scenario, move).legal)


def check_route(scenario: Scenario, route: Any, referee: float | None = None) -> Any:
    """An Infinity trooper's declared route, judged exactly (`RouteVerdict`)."""
    require(scenario, "check_route")
    from constraints.infinity.checker import check_route as check

    return check(scenario, route, referee)


def check_combat_reform(scenario: Scenario, reforms: Any, result: Any = None,
                        player_done: bool = True, referee: float | None = None) -> Any:
    """One player's Combat Reforms, judged exactly by every clause of the scenario's profile
    (constraints.t9a.clauses.combat_reform.checker)."""
    require(scenario, "check_combat_reform")
    from constraints.t9a.clauses.combat_reform.checker import check_combat_reform as check

    return check(scenario, reforms, result, player_done, referee)


def check_nudge(scenario: Scenario, unit_id: str, previous: Any, legs: Any,
                referee: float | None = None) -> Any:
    """One unit's nudge back into contact, judged exactly by every nudge clause
    (constraints.t9a.clauses.nudge.checker)."""
    require(scenario, "check_nudge")
    from constraints.t9a.clauses.nudge.checker import check_nudge as check

    return check(scenario, unit_id, previous, legs, referee)
