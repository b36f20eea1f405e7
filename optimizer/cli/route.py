"""`manoeuvre route`: an Infinity trooper's shortest route to a point, or where its Move can
end (docs/formats.md, "Infinity N4")."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from constraints.core.scenario_io import load_scenario
from constraints.errors import InvalidInputError
from constraints.infinity.route import SKILLS
from optimizer.cli.options import EXIT_NO, EXIT_OK
from optimizer.cli.results import Answer
from optimizer.cli.warn import warned

if TYPE_CHECKING:  # the route searches are imported by the command that runs them
    from optimizer.routes import ReachableArea, RouteResult

SCENARIO_HELP = "a scenario file (JSON, format manoeuvre/1, rules infinity-n4)"
# What a route result shares with a route.
ROUTE_KEYS = ("unit", "skill", "path", "midpoint", "prone")


def add_route_command(sub: Any, epilog: str | None = None) -> None:
    route = sub.add_parser(
        "route", help="an Infinity trooper's shortest route, or its reachable area",
        epilog=epilog, formatter_class=argparse.RawDescriptionHelpFormatter)
    route.add_argument("scenario", help=SCENARIO_HELP)
    route.add_argument("--unit", required=True, help="the trooper's id")
    route.add_argument("--to", metavar="X,Y[,LEVEL]",
                       help="the target point (level: the surface's height; default the "
                       "highest surface there)")
    route.add_argument("--skill", choices=("auto", *SKILLS), default="auto",
                       help="force a skill (default auto: a Move, else Move + Move, else the "
                       "shorter Jump or Climb that reaches it; with --reach: a Move)")
    route.add_argument("--reach", action="store_true",
                       help="the area where the skill can end, per level, instead of a route")
    route.add_argument("--mov", type=float, metavar="IN",
                       help="with --reach: the distance (default: the first MOV value)")
    prone = route.add_mutually_exclusive_group()
    prone.add_argument("--prone", dest="prone", action="store_const", const=True,
                       help="go Prone at the start (halves MOV)")
    prone.add_argument("--stand", dest="prone", action="store_const", const=False,
                       help="stand up at the start")
    route.add_argument("--tolerance", type=float, default=0.01, metavar="IN",
                       help="OPTIMAL when the route is within this of the proved bound")
    route.add_argument("--safest", action="store_true",
                       help="with --to: the safest route found (fewest enemies able to ARO, "
                       "then least exposed, then shortest; FEASIBLE, the family searched named)")
    route.add_argument("--exposure", action="store_true",
                       help="with --to: each enemy's Line of Fire and Zone of Control "
                       "stretches along the route")
    route.add_argument("--spacing", type=float, default=None, metavar="IN",
                       help="Line of Fire sampled this far apart along the route (default "
                       "0.25)")
    route.add_argument("--time-limit", type=float, default=10.0, metavar="S",
                       help="with --safest: stop searching after this long (default 10)")
    route.add_argument("--json", action="store_true", help="print the answer as JSON")
    route.add_argument("--render", metavar="FILE", help="also draw it (.png or .svg)")


def cmd_route(args: argparse.Namespace) -> int:
    from optimizer.pictures.output import check_output

    output = check_output(args.render) if args.render else None
    scenario = load_scenario(args.scenario)
    if args.reach == (args.to is not None):
        raise InvalidInputError("give either --to X,Y[,LEVEL] or --reach", path="command line")
    answer, result, area = route_answer(scenario, args.unit, _point(args.to) if args.to
                                        else None, args.skill, args.mov, args.prone,
                                        args.tolerance, exposure=args.exposure,
                                        safest=args.safest, spacing=args.spacing,
                                        time_limit=args.time_limit)
    answer.print(args.json)
    exposed = area if args.exposure or args.safest else None  # then the third is the exposure
    _draw(output, scenario, result, None if exposed is not None else area, exposed)
    return answer.status


def route_answer(scenario: Any, unit: str, to: tuple[float, ...] | None, skill: str,
                 mov: float | None, prone: bool | None, tolerance: float, *,
                 exposure: bool = False, safest: bool = False, spacing: float | None = None,
                 time_limit: float = 10.0) \
        -> tuple[Answer, RouteResult | None, ReachableArea | None]:
    """`route`'s answer: the route to `to` (the safest with `safest`, its exposure with
    `exposure`), or the reachable area when `to` is None; and what it found (to draw: the
    route result, and the area or, with `exposure` or `safest`, the route's Exposure)."""
    from optimizer.routes import reachable_area, shortest_route

    warnings = warned(scenario, [(to, "the target")])
    if (exposure or safest) and to is None:
        raise InvalidInputError("--exposure and --safest go with --to", path="command line")
    if safest or exposure:
        return _exposed_answer(scenario, unit, to, skill, prone, tolerance, safest,
                               spacing, time_limit, warnings)
    if to is None:
        area = reachable_area(scenario, unit, mov, prone, "move" if skill == "auto" else skill)
        return Answer(area.to_json(), EXIT_OK if area.status == "FEASIBLE" else EXIT_NO,
                      lambda: area_text(area), warnings, schema="route-result"), None, area
    if skill == "auto":
        from optimizer.routes.choose import route_to

        result = route_to(scenario, unit, to, prone, tolerance)
    else:
        result = shortest_route(scenario, unit, to, skill, prone, tolerance)
    return Answer(result_to_json(result), EXIT_OK if result.legal else EXIT_NO,
                  lambda: result_text(result), warnings, schema="route-result"), result, None


def _exposed_answer(scenario: Any, unit: str, to: Any, skill: str, prone: bool | None,
                    tolerance: float, safest: bool, spacing: float | None, time_limit: float,
                    warnings: list[str]) -> tuple[Answer, RouteResult | None, Any]:
    """The route (shortest, or safest) with its exposure to the enemies' AROs."""
    from constraints.infinity.exposure import DEFAULT_SPACING_IN
    from optimizer.routes.sight import route_exposure

    gap = DEFAULT_SPACING_IN if spacing is None else spacing
    if not 0.01 <= gap <= 2.0:
        raise InvalidInputError("--spacing is 0.01 to 2 in", path="--spacing")
    if safest:
        from optimizer.routes.safest import safest_route

        if not time_limit > 0:
            raise InvalidInputError("--time-limit is a positive number of seconds",
                                    path="--time-limit")
        result, exposed = safest_route(scenario, unit, to, _walk(scenario, unit, to, skill,
                                                                 prone), prone, gap,
                                       time_limit)
    else:
        if skill == "auto":
            from optimizer.routes.choose import route_to

            result = route_to(scenario, unit, to, prone, tolerance)
        else:
            from optimizer.routes import shortest_route

            result = shortest_route(scenario, unit, to, skill, prone, tolerance)
        route = result.route()
        exposed = route_exposure(scenario, route, gap) if route is not None else None
    data = result_to_json(result)
    if exposed is not None:
        data.update(exposed.to_json())
    if "shortest_exposed" in result.extra:
        data["shortest_exposed"] = result.extra["shortest_exposed"]

    def text() -> str:
        return result_text(result) + ("\n" + exposed.text() if exposed is not None else "")

    return Answer(data, EXIT_OK if result.legal else EXIT_NO, text, warnings,
                  schema="route-result"), result, exposed


def _walk(scenario: Any, unit: str, to: Any, skill: str, prone: bool | None) -> str:
    """The walking skill of a safest route: the one given, else a Move when its shortest
    route is legal, else Move + Move."""
    if skill != "auto":
        return skill
    from optimizer.routes import shortest_route

    return "move" if shortest_route(scenario, unit, to, "move", prone).legal else "move_move"


def _draw(output: Any, scenario: Any, result: RouteResult | None,
          area: ReachableArea | None, exposure: Any = None) -> None:
    if output is None:
        return
    from optimizer.pictures.route import render_route_to_file

    route = result.route() if result is not None else None
    render_route_to_file(scenario, output, route,
                         result.verdict if result is not None else None, area, exposure)


def render_route_file(scenario: Any, path: str | None, output: Any) -> int:
    """`manoeuvre render` of an Infinity town, with a declared route when given (and each
    enemy's exposed stretches when the file is a `route --exposure` or `--safest` answer)."""
    from constraints.core.jsonread import read_json
    from constraints.infinity.checker import check_route
    from constraints.infinity.route import route_from_json
    from optimizer.pictures.route import render_route_to_file

    route = verdict = exposure = None
    if path:
        try:
            data = read_json(path)
            exposed = isinstance(data, dict) and "aro_by" in data  # `--exposure`, `--safest`
            spacing = data.get("sampled") if exposed else None
            if isinstance(data, dict) and ("status" in data or exposed):  # a result
                data = {k: v for k, v in data.items() if k in ROUTE_KEYS}
            route = route_from_json(data)
            verdict = check_route(scenario, route)
            if exposed:
                from optimizer.routes.sight import route_exposure

                exposure = route_exposure(scenario, route, *(
                    (spacing,) if isinstance(spacing, int | float) else ()))
        except InvalidInputError as exc:
            raise exc.in_file(path) from None
    render_route_to_file(scenario, output, route, verdict, exposure=exposure)
    print(f"wrote {output}")
    return EXIT_OK


def _point(text: str) -> tuple[float, ...]:
    try:
        values = tuple(float(v) for v in text.split(","))
    except ValueError:
        raise InvalidInputError(f"expected X,Y or X,Y,LEVEL, got {text!r}",
                                path="--to") from None
    if len(values) not in (2, 3):
        raise InvalidInputError(f"expected X,Y or X,Y,LEVEL, got {text!r}", path="--to")
    return values


def result_to_json(r: RouteResult) -> dict[str, Any]:
    out: dict[str, Any] = {
        "status": str(r.status), "unit": r.unit, "skill": r.skill, "legal": r.legal,
        "idle": r.idle, "length": _rounded(r.length_in), "bound": _rounded(r.bound_in),
        "tolerance": r.tolerance_in, "path": [[round(v, 6) for v in p] for p in r.path],
        "violations": [v.to_json() for v in r.verdict.violations] if r.verdict else []}
    if r.midpoint is not None:
        out["midpoint"] = [round(v, 6) for v in r.path[r.midpoint]]
    if r.prone is not None:
        out["prone"] = r.prone
    if r.reason:
        out["reason"] = r.reason
    for key in ("chosen", "tried"):
        if key in r.extra:
            out[key] = r.extra[key]
    return out


def _rounded(value: float) -> float | None:
    return round(value, 6) if value != float("inf") else None


def result_text(r: RouteResult) -> str:
    word = "LEGAL" if r.legal else ("IDLE" if r.idle else "NOT LEGAL")
    lines = [f"{r.unit} {r.skill}: {r.status}, {word}"]
    if r.path:
        lines.append(f"  length {r.length_in:.3f} in (no route shorter than "
                     f"{r.bound_in:.3f} in), {len(r.path)} points")
        lines.append("  path: " + " ".join(f"({p[0]:.2f}, {p[1]:.2f}, {p[2]:g})"
                                           for p in r.path))
    if r.midpoint is not None:
        m = r.path[r.midpoint]
        lines.append(f"  first Move ends at ({m[0]:.3f}, {m[1]:.3f}, {m[2]:g})")
    if r.reason:
        lines.append(f"  {r.reason}")
    if "chosen" in r.extra:
        lines.append(f"  {r.skill} chosen: {r.extra['chosen']}")
    if "tried" in r.extra:
        lines.append("  tried: " + ", ".join(
            f"{k} {v['status']}{'' if v['legal'] else ' (not legal)'}"
            for k, v in r.extra["tried"].items()))
    for v in r.verdict.violations if r.verdict else ():
        lines.append(f"  broken {v.clause}: {v.message}")
    return "\n".join(lines)


def area_text(a: ReachableArea) -> str:
    lines = [f"{a.unit} within {a.mov_in:g} in: {a.status}, {a.area_in2:.3f} sq in "
             f"(every spot in it reachable; at most {a.outer_area_in2:.3f} sq in)"]
    for level, g in a.levels.items():
        lines.append(f"  level {level:g} in: {g.area:.3f} sq in")
    return "\n".join(lines)
