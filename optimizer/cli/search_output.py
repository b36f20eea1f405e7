"""What `solve` prints (text or JSON) and the limits it runs under, shared by the searches of
Move Manoeuvres (optimizer.cli.search) and of a Post-Combat Pivot (optimizer.cli.post_combat)."""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from constraints.errors import InvalidInputError
from constraints.geometry.plane import normalise_deg
from optimizer.cli.options import seconds_since_start

if TYPE_CHECKING:  # the solver is imported by the commands that run it
    from optimizer.search.solve import SearchResult

# Kept back from --time-limit for printing the answer and leaving the process.
PRINT_MARGIN_S = 0.1
# The least time a search is given when start-up has used up the limit: it then answers at
# once (TIMEOUT, or a starting answer) instead of not at all.
MIN_SEARCH_S = 0.01

# The API arguments the command-line options stand for, to name them in errors.
OPTIONS = {"unit_id": "--unit", "manoeuvre": "--manoeuvre", "time_limit_s": "--time-limit",
           "effort": "--effort", "objective.point": "--target", "objective.point[0]": "--target",
           "objective.point[1]": "--target", "objective.facing_deg": "--facing",
           "max_wheels": "--max-wheels", "tolerance": "--tolerance"}


@contextmanager
def as_options() -> Iterator[None]:
    """Errors about API arguments, re-labelled with the options that gave them."""
    try:
        yield
    except InvalidInputError as exc:
        raise exc.at(OPTIONS.get(exc.path, exc.path)) from None


def search_time(args: argparse.Namespace) -> float:
    """What is left of --time-limit for the search: the limit counts from the start of the
    command (the process, for the `manoeuvre` script), less a margin for printing."""
    used = seconds_since_start(getattr(args, "whole_process", False),
                               getattr(args, "called_at", time.monotonic()))
    return max(args.time_limit - used - PRINT_MARGIN_S, MIN_SEARCH_S)


def result_json(result: SearchResult) -> dict[str, Any]:
    """The result as JSON, its objective naming the target point and facing (so `render`
    can mark them)."""
    out = result.to_json()
    if result.verdict is not None and result.verdict.dangerous_terrain is not None:
        out["dangerous_terrain"] = [dict(t) for t in result.verdict.dangerous_terrain]
    objective = result.objective
    if objective.point is not None:
        out["objective"].setdefault("point", list(objective.point))
    if objective.facing_deg is not None:
        out["objective"].setdefault("facing", objective.facing_deg)
    return out


def result_text(result: SearchResult) -> str:
    """A readable result: status, objective, lattice and time, then the move and its end."""
    lines = [f"{result.status} ({result.objective.name}"
             + (f" = {result.value:.3f}" if result.value is not None else "")
             + f") on a {result.lattice.inch}\" / {result.lattice.degree} deg lattice "
             f"in {result.elapsed_s:.2f} s"]
    if result.family.get("ways"):
        lines.append(f"  ways searched: {result.family['ways']}")
    if result.bound_covers == "any_way" and result.bound is not None:
        lines.append(f"  no legal move does better than {result.bound:.3f} (the objective's "
                     "floor)")
    elif result.bound_covers is not None and result.bound is not None:
        wheels = result.family.get("max_wheels")
        searched = f"ways of up to {wheels} wheel{'s' * (wheels != 1)} searched; " \
            if wheels else ""
        lines.append(f"  {searched}no legal way with any number of wheels does better than "
                     f"{result.bound:.3f} (an answer within {result.tolerance:g} of it is "
                     "OPTIMAL)")
    elif result.status == "NOT_FOUND":
        lines.append("  no legal move in the family searched; other ways not ruled out")
    stopped = result.to_json().get("stopped_by")
    if stopped:
        lines.append(f"  stopped by: {stopped}")
    if result.move is not None:
        lines.append(f"  move: {json.dumps(result.move.to_json())}")
    if result.verdict is not None:
        x, y = result.verdict.end_centre
        lines.append(f"  end: centre ({x:.3f}, {y:.3f}), facing "
                     f"{normalise_deg(result.verdict.end_facing_deg):.3f} deg, legal")
    if result.verdict is not None:
        for t in result.verdict.dangerous_terrain or ():
            lines.append(f"  Dangerous Terrain test: {t['terrain']}, {t['dice']} dice"
                         + (f", {t['test']}+" if t["test"] is not None else ""))
        for note in getattr(result.verdict, "notes", ()):
            lines.append(f"  note: {note}")
    if "avoid" in result.family:
        lines.append(f"  kept away from Dangerous Terrain (counted as Impassable): "
                     f"{result.family['avoid']['status']} among the moves that keep away")
    if result.blocking:
        lines.append(f"  blocked by: {', '.join(result.blocking)}")
    return "\n".join(lines)


