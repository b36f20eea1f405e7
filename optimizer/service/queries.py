"""The service's queries: each reads its request body through its model
(optimizer/service/requests.py) and the files in it with the project's readers, and asks
the command line's own answer functions (optimizer/cli), so every answer is the `--json`
output of the same command for the same input.  Each handler is a plain function of the
parsed body, run in a worker thread; malformed input raises InvalidInputError or Problem."""

from __future__ import annotations

import argparse
import time
from dataclasses import dataclass, field
from typing import Any

from constraints.errors import InvalidInputError
from optimizer.dispatch import require
from optimizer.service import requests
from optimizer.service.requests import read
from optimizer.service.scenarios import ScenarioCache, scenario_of

# The command line's options and the API's argument names, as keys of the request body.
WHERE = {"--unit": "$.unit", "unit_id": "$.unit", "unit": "$.unit",
         "--manoeuvre": "$.manoeuvre", "manoeuvre": "$.manoeuvre",
         "--target": "$.objective.point", "--face": "$.objective.point",
         "--facing": "$.objective.facing", "--front": "$.objective.name",
         "--forward": "$.objective.name", "--time-limit": "$.time_limit",
         "time_limit_s": "$.time_limit", "--effort": "$.effort", "effort": "$.effort",
         "--max-wheels": "$.max_wheels", "--tolerance": "$.tolerance",
         "--referee": "$.referee", "--result": "$.result", "--casualties": "$.casualties",
         "--limit": "$.limit", "--avoid": "$.avoid", "--to": "$.to", "facing_deg": "$.facing",
         "files": "$.poses", "centres": "$.poses", "facings": "$.poses",
         "mov": "$.mov", "target": "$.to", "tolerance": "$.tolerance", "prone": "$.prone",
         "skill": "$.skill", "from": "$.from", "to": "$.to",
         "min_visible_mm": "$.min_visible_mm", "spacing": "$.spacing", "--spacing": "$.spacing",
         "command line": "$"}


@dataclass
class Settings:
    """What `manoeuvre serve` was started with."""

    max_time_limit: float = 60.0
    cache_size: int = 64
    workers: int = 2
    queue: int = 32
    processes: bool = False  # searches in worker processes, not threads
    token: str | None = None
    cors_origins: list[str] = field(default_factory=list)


@dataclass
class Service:
    settings: Settings
    cache: ScenarioCache


def capped(service: Service, value: float | None, default: float) -> float:
    """A time limit or effort (seconds, read by the body's model), at most the server's
    --max-time-limit."""
    return min(default if value is None else value, service.settings.max_time_limit)


def check(service: Service, body: Any) -> Any:
    from constraints.t9a.combat_reform_io import combat_result_from_json
    from optimizer.cli.check import check_answer

    given = read(requests.Check, body)
    entry = scenario_of(service.cache, body)

    def result() -> Any:
        try:
            return combat_result_from_json(body["result"])
        except InvalidInputError as exc:
            raise exc.in_file("$.result") from None

    return check_answer(entry.scenario, body["move"], source="$.move", referee=given.referee,
                        result=result if given.result is not None else None,
                        casualties=_casualties(body.get("casualties"))).to_json()


def _casualties(value: Any) -> Any:
    if value is not None and not isinstance(value, dict):
        raise InvalidInputError("expected an object: unit id -> casualties",
                                path="$.casualties")
    return value


def solve(service: Service, body: Any) -> Any:
    from optimizer.cli.search import DEFAULT_MAX_WHEELS, DEFAULT_TOLERANCE, solve_answer

    given = read(requests.Solve, body)
    args = argparse.Namespace(
        unit=given.unit, manoeuvre=given.manoeuvre,
        time_limit=capped(service, given.time_limit, 10.0),
        effort=None if given.effort is None else capped(service, given.effort, 0),
        max_wheels=_or(given.max_wheels, DEFAULT_MAX_WHEELS),
        tolerance=_or(given.tolerance, DEFAULT_TOLERANCE),
        avoid=given.avoid, whole_process=False, called_at=time.monotonic(),
        **_objective(given.objective))
    entry = scenario_of(service.cache, body)
    if args.manoeuvre == "post_combat_pivot":
        from optimizer.cli.post_combat import check_goal, pivot_answer

        if args.target is not None and args.facing is not None:
            args.target = None  # a pivot's target pose is its own centre, facing anew
        check_goal(args)
        return pivot_answer(args, entry.scenario).to_json()
    return solve_answer(args, entry.scenario).to_json()


def _or(value: Any, default: Any) -> Any:
    return default if value is None else value


def _objective(objective: requests.Objective) -> dict[str, Any]:
    """The command line's goal options for an objective {"name", "point"?, "facing"?}."""
    name, point, facing = objective.name, objective.point, objective.facing
    if name != "forward" and name != "target_pose" and point is None:
        raise InvalidInputError(f"the objective {name} needs a point",
                                path="$.objective.point")
    return {"forward": name == "forward", "face": point if name == "face_point" else None,
            "target": point if name in ("target_distance", "front_target_distance",
                                        "target_pose") else None,
            "front": name == "front_target_distance",
            "facing": facing if name == "target_pose" else _no_facing(facing)}


def _no_facing(facing: float | None) -> float | None:
    """None: a facing goes only with a target pose."""
    if facing is not None:
        raise InvalidInputError("a facing goes only with the objective target_pose",
                                path="$.objective.facing")
    return None


def moves(service: Service, body: Any) -> list[Any]:
    from optimizer.cli.search import moves_answer

    given = read(requests.Moves, body)
    if given.manoeuvre == "post_combat_pivot":
        raise InvalidInputError("moves lists Move Manoeuvres; a Post-Combat Pivot is one "
                                "number: solve it, or check a pivot", path="$.manoeuvre")
    entry = scenario_of(service.cache, body)
    found: list[Any] = moves_answer(entry.scenario, given.unit, given.manoeuvre,
                                    _or(given.limit, 20)).to_json()["moves"]
    return found


def region(service: Service, body: Any) -> Any:
    import json

    import shapely

    from optimizer.queries import legal_region

    given = read(requests.Region, body)
    entry = scenario_of(service.cache, body)
    shape = legal_region(entry.scenario, given.unit, given.manoeuvre, given.facing,
                         given.files)
    return {"type": "Feature", "geometry": json.loads(shapely.to_geojson(shape)),
            "properties": {"unit": given.unit, "manoeuvre": given.manoeuvre,
                           "facing": body["facing"], "files": given.files}}


def why_not(service: Service, body: Any) -> Any:
    from constraints.core.system import find_system
    from optimizer.search.explain import why_not as blocking_clauses

    given = read(requests.WhyNot, body)
    entry = scenario_of(service.cache, body)
    require(entry.scenario, "why_not")
    try:
        move = find_system(entry.scenario.rules).read_move(body["move"])
    except InvalidInputError as exc:
        raise exc.in_file("$.move") from None
    found = blocking_clauses(entry.scenario, move,
                             time_limit_s=capped(service, given.time_limit, 10.0))
    return {"unit": move.unit, "manoeuvre": move.manoeuvre, "blocking": list(found)}


def nearest_legal(service: Service, body: Any) -> Any:
    from optimizer.cli.search import result_json
    from optimizer.queries import nearest_legal as nearest

    given = read(requests.NearestLegal, body)
    entry = scenario_of(service.cache, body)
    result = nearest(entry.scenario, given.unit, given.manoeuvre, given.centre, given.facing,
                     time_limit_s=capped(service, given.time_limit, 10.0))
    return result_json(result)


def nudge(service: Service, body: Any) -> Any:
    from optimizer.cli.nudge import nudge_answer
    from optimizer.nudge import losses_from_json

    given = read(requests.Nudge, body)
    entry = scenario_of(service.cache, body)
    require(entry.scenario, "resolve")
    try:
        losses = losses_from_json(body["casualties"], entry.scenario) \
            if given.casualties is not None else ()
    except InvalidInputError as exc:
        raise exc.in_file("$.casualties") from None
    return nudge_answer(entry.scenario, losses)[0].to_json()


def combat_reform(service: Service, body: Any) -> Any:
    from constraints.t9a.combat_reform_io import combat_result_from_json
    from optimizer.cli.reform import reform_answer

    given = read(requests.CombatReform, body)
    entry = scenario_of(service.cache, body)

    def result() -> Any:
        try:
            return combat_result_from_json(body["result"]) if given.result is not None \
                else None
        except InvalidInputError as exc:
            raise exc.in_file("$.result") from None

    effort = None if given.effort is None else capped(service, given.effort, 0)
    return reform_answer(entry.scenario, result, list(given.unit or ()), given.player,
                         effort, bool(given.widest), list(given.keep or ()),
                         bool(given.joint))[0].to_json()


def route(service: Service, body: Any, reach: bool = False) -> Any:
    from constraints.infinity.route import SKILLS
    from optimizer.cli.route import route_answer

    given: requests.Route | requests.Reach = read(requests.Reach, body) if reach \
        else read(requests.Route, body)
    skill = given.skill or "auto"
    if skill not in ("auto", *SKILLS):
        raise InvalidInputError(f"unknown skill {skill!r} (known: auto, {', '.join(SKILLS)})",
                                path="$.skill")
    entry = scenario_of(service.cache, body)
    if isinstance(given, requests.Reach):
        return route_answer(entry.scenario, given.unit, None, skill, given.mov, given.prone,
                            0.01, exposure=False, safest=False, spacing=None,
                            time_limit=capped(service, None, 10.0))[0].to_json()
    return route_answer(entry.scenario, given.unit, tuple(given.to), skill, None, given.prone,
                        _or(given.tolerance, 0.01), exposure=bool(given.exposure),
                        safest=bool(given.safest), spacing=given.spacing,
                        time_limit=capped(service, given.time_limit, 10.0))[0].to_json()


def route_reach(service: Service, body: Any) -> Any:
    return route(service, body, reach=True)


def lof(service: Service, body: Any) -> Any:
    from optimizer.cli.lof import lof_answer

    given = read(requests.LineOfFire, body)
    entry = scenario_of(service.cache, body)
    return lof_answer(entry.scenario, given.from_, given.to, given.min_visible_mm).to_json()


def register(service: Service, body: Any) -> Any:
    key, _ = service.cache.register(body)
    return {"id": key}


