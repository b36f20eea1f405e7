"""The service's queries: each reads its request body with the project's readers and asks
the command line's own answer functions (optimizer/cli), so every answer is the `--json`
output of the same command for the same input.  Each handler is a plain function of the
parsed body, run in a worker thread; malformed input raises InvalidInputError or Problem."""

from __future__ import annotations

import argparse
import time
from dataclasses import dataclass, field
from typing import Any

from constraints.core.jsonread import Node
from constraints.errors import InvalidInputError
from optimizer.dispatch import require
from optimizer.service.scenarios import ScenarioCache, scenario_of

SCENARIO_KEYS = ("scenario", "scenario_id")
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
OBJECTIVES = ("target_distance", "front_target_distance", "target_pose", "face_point",
              "forward")


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


def body_fields(body: Any, required: tuple[str, ...], optional: tuple[str, ...] = ()) \
        -> dict[str, Any]:
    """The body's keys (plain values), every required one present and no other."""
    return {k: n.value for k, n in Node(body).fields(required, (*optional, *SCENARIO_KEYS))
            .items()}


def capped(service: Service, value: Any, path: str, default: float) -> float:
    """A time limit or effort (seconds), at most the server's --max-time-limit."""
    given = default if value is None else Node(value, path).number(positive=True)
    return min(given, service.settings.max_time_limit)


def check(service: Service, body: Any) -> Any:
    from constraints.t9a.combat_reform_io import combat_result_from_json
    from optimizer.cli.check import check_answer

    f = body_fields(body, ("move",), ("referee", "result", "casualties"))
    entry = scenario_of(service.cache, f)

    def result() -> Any:
        try:
            return combat_result_from_json(f["result"])
        except InvalidInputError as exc:
            raise exc.in_file("$.result") from None

    return check_answer(entry.scenario, f["move"], source="$.move", referee=f.get("referee"),
                        result=result if "result" in f else None,
                        casualties=_casualties(f)).to_json()


def _casualties(f: dict[str, Any]) -> Any:
    value = f.get("casualties")
    if value is not None and not isinstance(value, dict):
        raise Node(value, "$.casualties").fail("expected an object: unit id -> casualties")
    return value


def solve(service: Service, body: Any) -> Any:
    from optimizer.cli.search import DEFAULT_MAX_WHEELS, DEFAULT_TOLERANCE, solve_answer

    f = body_fields(body, ("unit", "manoeuvre", "objective"),
                    ("time_limit", "effort", "max_wheels", "tolerance", "avoid"))
    args = argparse.Namespace(
        unit=Node(f["unit"], "$.unit").string(),
        manoeuvre=Node(f["manoeuvre"], "$.manoeuvre").string(),
        time_limit=capped(service, f.get("time_limit"), "$.time_limit", 10.0),
        effort=None if f.get("effort") is None else capped(service, f["effort"], "$.effort", 0),
        max_wheels=Node(f.get("max_wheels", DEFAULT_MAX_WHEELS), "$.max_wheels").integer(),
        tolerance=Node(f.get("tolerance", DEFAULT_TOLERANCE), "$.tolerance").number(),
        avoid=_avoid(f.get("avoid")), whole_process=False, called_at=time.monotonic(),
        **_objective(f["objective"]))
    entry = scenario_of(service.cache, f)
    if args.manoeuvre == "post_combat_pivot":
        from optimizer.cli.post_combat import check_goal, pivot_answer

        if args.target is not None and args.facing is not None:
            args.target = None  # a pivot's target pose is its own centre, facing anew
        check_goal(args)
        return pivot_answer(args, entry.scenario).to_json()
    return solve_answer(args, entry.scenario).to_json()


def _avoid(value: Any) -> str | None:
    if value is None:
        return None
    if value != "dangerous":
        raise Node(value, "$.avoid").fail("expected 'dangerous'")
    return "dangerous"


def _objective(value: Any) -> dict[str, Any]:
    """The command line's goal options for an objective {"name", "point"?, "facing"?}."""
    f = Node(value, "$.objective").fields(("name",), ("point", "facing"))
    name = f["name"].string()
    if name not in OBJECTIVES:
        raise f["name"].fail(f"unknown objective {name!r} (known: {', '.join(OBJECTIVES)})")
    point = f["point"].point() if "point" in f and f["point"].value is not None else None
    facing = f["facing"].number() if "facing" in f and f["facing"].value is not None \
        else None
    if name != "forward" and name != "target_pose" and point is None:
        raise f["name"].fail(f"the objective {name} needs a point").at("$.objective.point")
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
    from optimizer.cli.search import MAX_LIST, moves_answer

    f = body_fields(body, ("unit", "manoeuvre"), ("limit",))
    limit = Node(f.get("limit", 20), "$.limit").integer(minimum=1, maximum=MAX_LIST)
    manoeuvre = Node(f["manoeuvre"], "$.manoeuvre").string()
    if manoeuvre == "post_combat_pivot":
        raise InvalidInputError("moves lists Move Manoeuvres; a Post-Combat Pivot is one "
                                "number: solve it, or check a pivot", path="$.manoeuvre")
    entry = scenario_of(service.cache, f)
    found: list[Any] = moves_answer(entry.scenario, Node(f["unit"], "$.unit").string(),
                                    manoeuvre, limit).to_json()["moves"]
    return found


def region(service: Service, body: Any) -> Any:
    import json

    import shapely

    from optimizer.queries import legal_region

    f = body_fields(body, ("unit", "manoeuvre", "facing"), ("files",))
    entry = scenario_of(service.cache, f)
    files = None if f.get("files") is None else Node(f["files"], "$.files").integer(minimum=1)
    shape = legal_region(entry.scenario, f["unit"], f["manoeuvre"],
                         Node(f["facing"], "$.facing").number(), files)
    return {"type": "Feature", "geometry": json.loads(shapely.to_geojson(shape)),
            "properties": {"unit": f["unit"], "manoeuvre": f["manoeuvre"],
                           "facing": f["facing"], "files": files}}


def why_not(service: Service, body: Any) -> Any:
    from constraints.core.system import find_system
    from optimizer.search.explain import why_not as blocking_clauses

    f = body_fields(body, ("move",), ("time_limit",))
    entry = scenario_of(service.cache, f)
    require(entry.scenario, "why_not")
    try:
        move = find_system(entry.scenario.rules).read_move(f["move"])
    except InvalidInputError as exc:
        raise exc.in_file("$.move") from None
    found = blocking_clauses(entry.scenario, move,
                             time_limit_s=capped(service, f.get("time_limit"), "$.time_limit",
                                                 10.0))
    return {"unit": move.unit, "manoeuvre": move.manoeuvre, "blocking": list(found)}


def nearest_legal(service: Service, body: Any) -> Any:
    from optimizer.cli.search import result_json
    from optimizer.queries import nearest_legal as nearest

    f = body_fields(body, ("unit", "manoeuvre", "centre", "facing"), ("time_limit",))
    entry = scenario_of(service.cache, f)
    result = nearest(entry.scenario, f["unit"], f["manoeuvre"],
                     Node(f["centre"], "$.centre").point(),
                     Node(f["facing"], "$.facing").number(),
                     time_limit_s=capped(service, f.get("time_limit"), "$.time_limit", 10.0))
    return result_json(result)


def nudge(service: Service, body: Any) -> Any:
    from optimizer.cli.nudge import nudge_answer
    from optimizer.nudge import losses_from_json

    f = body_fields(body, (), ("casualties",))
    entry = scenario_of(service.cache, f)
    require(entry.scenario, "resolve")
    try:
        losses = losses_from_json(f["casualties"], entry.scenario) if "casualties" in f \
            else ()
    except InvalidInputError as exc:
        raise exc.in_file("$.casualties") from None
    return nudge_answer(entry.scenario, losses)[0].to_json()


def combat_reform(service: Service, body: Any) -> Any:
    from constraints.t9a.combat_reform_io import combat_result_from_json
    from optimizer.cli.reform import reform_answer

    f = body_fields(body, (), ("unit", "player", "result", "effort", "widest", "keep",
                               "joint"))
    entry = scenario_of(service.cache, f)
    units = [n.string() for n in Node(f.get("unit", []), "$.unit").items()]
    keep = [n.string() for n in Node(f.get("keep", []), "$.keep").items()]

    def result() -> Any:
        try:
            return combat_result_from_json(f["result"]) if "result" in f else None
        except InvalidInputError as exc:
            raise exc.in_file("$.result") from None

    effort = None if f.get("effort") is None else capped(service, f["effort"], "$.effort", 0)
    return reform_answer(entry.scenario, result, units,
                         None if f.get("player") is None
                         else Node(f["player"], "$.player").string(),
                         effort, _flag(f, "widest"), keep, _flag(f, "joint"))[0].to_json()


def _flag(f: dict[str, Any], key: str) -> bool:
    return Node(f[key], f"$.{key}").boolean() if key in f else False


def route(service: Service, body: Any, reach: bool = False) -> Any:
    from constraints.infinity.route import SKILLS
    from optimizer.cli.route import route_answer

    f = body_fields(body, ("unit",) if reach else ("unit", "to"),
                    ("skill", "mov", "prone") if reach
                    else ("skill", "prone", "tolerance", "exposure", "safest", "spacing",
                          "time_limit"))
    skill = Node(f.get("skill", "auto"), "$.skill").string()
    if skill not in ("auto", *SKILLS):
        raise InvalidInputError(f"unknown skill {skill!r} (known: auto, {', '.join(SKILLS)})",
                                path="$.skill")
    to = None if reach else tuple(n.number() for n in Node(f["to"], "$.to").items())
    if to is not None and len(to) not in (2, 3):
        raise InvalidInputError("expected [X, Y] or [X, Y, LEVEL]", path="$.to")
    prone = None if f.get("prone") is None else Node(f["prone"], "$.prone").boolean()
    mov = None if f.get("mov") is None else Node(f["mov"], "$.mov").number(positive=True)
    tolerance = Node(f.get("tolerance", 0.01), "$.tolerance").number(minimum=0.0)
    entry = scenario_of(service.cache, f)
    spacing = None if f.get("spacing") is None \
        else Node(f["spacing"], "$.spacing").number(positive=True)
    return route_answer(entry.scenario, Node(f["unit"], "$.unit").string(), to, skill, mov,
                        prone, tolerance, exposure=_flag(f, "exposure"),
                        safest=_flag(f, "safest"), spacing=spacing,
                        time_limit=capped(service, f.get("time_limit"), "$.time_limit",
                                          10.0))[0].to_json()


def route_reach(service: Service, body: Any) -> Any:
    return route(service, body, reach=True)


def lof(service: Service, body: Any) -> Any:
    from optimizer.cli.lof import lof_answer

    f = body_fields(body, ("from", "to"), ("min_visible_mm",))
    least = None if f.get("min_visible_mm") is None \
        else Node(f["min_visible_mm"], "$.min_visible_mm").number(minimum=0.0)
    entry = scenario_of(service.cache, f)
    return lof_answer(entry.scenario, Node(f["from"], "$.from").string(),
                      Node(f["to"], "$.to").string(), least).to_json()


def register(service: Service, body: Any) -> Any:
    key, _ = service.cache.register(body)
    return {"id": key}


