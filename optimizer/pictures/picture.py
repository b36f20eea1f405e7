"""`render`: a picture of any system's scenario, with a move and its verdict when given.

Each system's moves are drawn by the drawer of their kind: a unit's move in ranks and files
by `render_to_file` (whose sketchers know each system's steps), an Infinity trooper's route
by `render_route_to_file`.  Keyed by the system's move type (`System.move_type`), never by a
system's name.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from constraints.core.scenario import Scenario
from constraints.infinity.route import Route
from optimizer.dispatch import own_move, require
from optimizer.pictures.draw import render_to_file
from optimizer.pictures.route import render_route_to_file

# The drawer of a system whose moves are not a unit's rank-and-file move, by move type.
DRAWERS: dict[type, Callable[..., None]] = {Route: render_route_to_file}


def render(scenario: Scenario, path: str | Path, move: Any = None,
           verdict: Any = None) -> None:
    """Write a picture of `scenario` to `path` (.png or .svg), with `move` (read as the
    scenario's system's own) and its verdict (judged here when not given)."""
    system = require(scenario, "render")
    if move is not None:
        move = own_move(system, move)
        verdict = system.check(scenario, move) if verdict is None else verdict
    drawer = DRAWERS.get(system.move_type, render_to_file) \
        if system.move_type is not None else render_to_file
    drawer(scenario, path, move, verdict)
