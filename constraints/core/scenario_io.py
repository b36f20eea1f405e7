"""Scenario files (`manoeuvre/1`, docs/formats.md): load, validate, save.

The scenario model of the file's rules (constraints/schema/scenario.py) decides what it may
hold; this module then builds the envelope (rules, options, battlefield, terrain) and hands
each validated unit to its system's reader (`constraints.core.system`), which checks what the
model cannot (slots, polygons); ids and placement are checked last.  `save` then `load` gives
the same scenario.  Every problem raises one `InvalidInputError` naming the file, the JSON path and
what is wrong.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from constraints.core.jsonread import read_json
from constraints.core.profile import find_profile
from constraints.core.scenario import Battlefield, Scenario, Terrain
from constraints.core.system import System, find_system
from constraints.errors import InvalidInputError

FORMAT = "manoeuvre/1"


def load_scenario(path: str | Path) -> Scenario:
    """Read and validate a scenario file."""
    try:
        return scenario_from_json(read_json(path))
    except InvalidInputError as exc:
        raise exc.in_file(str(path)) from None


def save_scenario(scenario: Scenario, path: str | Path) -> None:
    """Write a scenario file that `load_scenario` reads back as the same scenario."""
    try:
        Path(path).write_text(json.dumps(scenario_to_json(scenario), indent=2) + "\n",
                              encoding="utf-8")
    except (OSError, ValueError) as exc:
        raise InvalidInputError(f"cannot write file: {exc.strerror or exc}" if
                                isinstance(exc, OSError) else f"cannot write file: {exc}",
                                source=str(path)) from None


def scenario_from_json(data: Any) -> Scenario:
    """A scenario from its parsed JSON: the scenario model of its rules decides what is
    accepted (constraints/schema/scenario.py); what needs geometry or the whole scenario
    (simple polygons, slots inside their formation, ids, placement) is checked here."""
    from constraints.schema.checks import scenario_model_name, shipped_stand_in
    from constraints.schema.errors import read_as

    # A profile registered at run time is read as its system's shipped one, and kept; the
    # parameters it adds are its own to check (`own_options`).
    given = data.get("rules") if isinstance(data, dict) else None
    stand_in = shipped_stand_in(given)
    own: dict[str, Any] = {}
    if stand_in is not None:
        data, own = own_options(data, find_profile(str(given)), stand_in)
    model = read_as(f"scenario:{scenario_model_name(data)}", data)
    return scenario_from_model(model, given if stand_in is not None else None, own)


def own_options(data: dict[str, Any], profile: Any, stand_in: str
                ) -> tuple[dict[str, Any], dict[str, Any]]:
    """`data` to read as the shipped profile `stand_in` (of the same system), and the
    `rule_options` a registered profile adds to that system's: the model knows only the
    shipped profiles' parameters; the profile checks its own (`RulesProfile.with_options`,
    by its default's type and the bounds its name says: `$.rule_options.KEY`).  A key
    neither knows stays for the model to refuse."""
    from constraints.schema.checks import RULE_OPTIONS, SYSTEM_OF

    options = data.get("rule_options")
    shipped = RULE_OPTIONS[SYSTEM_OF[stand_in]]
    kept = {**data, "rules": stand_in}
    if not isinstance(options, dict):
        return kept, {}
    own = {k: v for k, v in options.items() if k in profile.params and k not in shipped}
    if own:
        kept["rule_options"] = {k: v for k, v in options.items() if k not in own}
    return kept, own


def scenario_from_model(model: Any, rules: str | None = None,
                        own: dict[str, Any] | None = None) -> Scenario:
    """The scenario a validated model (`constraints.schema.scenario.Scenario`) describes,
    under `rules` when given (a profile registered at run time, with `own`: the parameters
    it adds to its system's, as the file gives them), else the model's."""
    rules = model.rules if rules is None else rules
    profile = find_profile(rules)
    system = find_system(rules)
    options = {k: v for k, v in vars(model.rule_options).items()
               if k in model.rule_options.model_fields_set}
    options.update(own or {})
    profile.with_options(options)
    battlefield = Battlefield(model.battlefield.width, model.battlefield.depth)
    read_terrain = system.read_terrain or (lambda m, path: _terrain(m, path))
    terrain = tuple(read_terrain(t, f"$.terrain[{i}]") for i, t in enumerate(model.terrain))
    units = tuple(system.read_unit(u, f"$.units[{i}]") for i, u in enumerate(model.units))
    scenario = Scenario(battlefield, units, terrain, rules, tuple(options.items()),
                        model.active_player)
    _check_ids(scenario, system)
    (system.check_placement or _check_placement)(scenario)
    return scenario


def _terrain(model: Any, path: str) -> Terrain:
    """Shared terrain (T9A, Warhammer): the model has read it; the polygon is judged here."""
    try:
        return Terrain(model.id, model.kind, tuple(model.polygon), model.test)
    except InvalidInputError as exc:
        raise exc.at(f"{path}.polygon" if exc.path == "polygon" else path) from None


def _check_ids(scenario: Scenario, system: System) -> None:
    seen: dict[str, str] = {}
    held = [[(f"$.units[{i}]{suffix}", ident) for suffix, ident in system.named_ids(u)]
            for i, u in enumerate(scenario.units)]
    # Units' own ids first, then what they hold (a unit's id is what a clash names first).
    named = [ids[0] for ids in held] + [pair for ids in held for pair in ids[1:]]
    named += [(f"$.terrain[{i}].id", t.id) for i, t in enumerate(scenario.terrain)]
    for path, ident in named:
        if ident in seen:
            raise InvalidInputError(f"duplicate id {ident!r} (also at {seen[ident]})", path=path)
        seen[ident] = path


def _check_placement(scenario: Scenario) -> None:
    area = scenario.battlefield.area()
    # A21: an overlap within the contact tolerance is contact, not an error; shrinking each
    # shape by half the tolerance leaves only deeper overlaps.
    half = 0.5 * scenario.contact_tolerance
    shapes = [u.boundary() for u in scenario.units]
    cores = [s.buffer(-half, join_style="mitre") if half > 0 else s for s in shapes]
    for i, (unit, shape) in enumerate(zip(scenario.units, shapes, strict=True)):
        where = f"$.units[{i}]"
        if not area.covers(shape):
            raise InvalidInputError(f"unit {unit.id!r} is off the battlefield", path=where)
        for other, other_core in zip(scenario.units[:i], cores[:i], strict=True):
            if cores[i].relate_pattern(other_core, "2********"):
                raise InvalidInputError(f"unit {unit.id!r} overlaps unit {other.id!r}",
                                        path=where)
        for t in scenario.impassable():
            wall = t.shape.buffer(-half, join_style="mitre") if half > 0 else t.shape
            if cores[i].relate_pattern(wall, "2********"):
                raise InvalidInputError(f"unit {unit.id!r} overlaps impassable terrain "
                                        f"{t.id!r}", path=where)


def scenario_to_json(scenario: Scenario) -> dict[str, Any]:
    out: dict[str, Any] = {"format": FORMAT, "rules": scenario.rules,
                           "rule_options": dict(scenario.rule_options),
                           "battlefield": {"width": scenario.battlefield.width_in,
                                           "depth": scenario.battlefield.depth_in}}
    if scenario.active_player is not None:
        out["active_player"] = scenario.active_player
    system = find_system(scenario.rules)
    out["terrain"] = [(system.terrain_to_json or _terrain_json)(t) for t in scenario.terrain]
    out["units"] = [system.unit_to_json(u) for u in scenario.units]
    return out


def _terrain_json(t: Any) -> dict[str, Any]:
    """A shared `Terrain` entry (a system with its own terrain writes its own)."""
    out: dict[str, Any] = {"id": t.id, "kind": t.kind, "polygon": [list(p) for p in t.polygon]}
    if t.test is not None:
        out["test"] = t.test
    return out


