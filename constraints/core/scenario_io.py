"""Scenario files (`manoeuvre/1`, FORMAT.md): load, validate, save.

`save` then `load` gives the same scenario.  Every problem raises one `InvalidInputError`
naming the file, the JSON path and what is wrong.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import shapely

from constraints.core.jsonread import Node, read_json
from constraints.core.scenario import TERRAIN_KINDS, Battlefield, Pose, Scenario, Terrain
from constraints.errors import InvalidInputError
from constraints.rank_and_file.formation import Character, Formation
from constraints.rank_and_file.unit import Base, Unit
from constraints.t9a.profiles import profile_named

FORMAT = "manoeuvre/1"
MAX_MODELS = 1000  # rank-and-file models (and files) in one unit
_UNIT_REQUIRED = ("id", "player", "base", "models", "files", "centre", "facing", "mobility")
_UNIT_OPTIONAL = ("height", "musician", "light_troops", "characters", "empty")


def load_scenario(path: str | Path) -> Scenario:
    """Read and validate a scenario file."""
    try:
        return scenario_from_json(read_json(path))
    except InvalidInputError as exc:
        raise exc.in_file(str(path)) from None


def save_scenario(scenario: Scenario, path: str | Path) -> None:
    Path(path).write_text(json.dumps(scenario_to_json(scenario), indent=2) + "\n",
                          encoding="utf-8")


def scenario_from_json(data: Any) -> Scenario:
    top = Node(data).fields(("format", "battlefield", "units"),
                            ("rules", "rule_options", "active_player", "terrain"))
    if top["format"].value != FORMAT:
        raise top["format"].fail(f"expected {FORMAT!r}, got {top['format'].value!r}")
    rules = top["rules"].string() if "rules" in top else "t9a"
    profile = profile_named(rules)
    options = top["rule_options"].fields((), tuple(profile.params)) if "rule_options" in top \
        else {}
    profile.with_options({k: v.value for k, v in options.items()})
    field_node = top["battlefield"].fields(("width", "depth"))
    battlefield = Battlefield(field_node["width"].number(positive=True),
                              field_node["depth"].number(positive=True))
    terrain = tuple(_terrain(n) for n in top["terrain"].items()) if "terrain" in top else ()
    units = tuple(_unit(n) for n in top["units"].items(min_len=1))
    scenario = Scenario(battlefield, units, terrain, rules,
                        tuple((k, v.value) for k, v in options.items()),
                        top["active_player"].string() if "active_player" in top else None)
    _check_ids(scenario)
    _check_placement(scenario)
    return scenario


def _terrain(node: Node) -> Terrain:
    f = node.fields(("id", "kind", "polygon"), ("test",))
    kind = f["kind"].string()
    if kind not in TERRAIN_KINDS:
        raise f["kind"].fail(f"unknown terrain kind {kind!r} (known: {', '.join(TERRAIN_KINDS)})")
    points = tuple(p.point() for p in f["polygon"].items(min_len=3))
    shape = shapely.Polygon(points)
    if shapely.MultiPoint(points).convex_hull.area <= 0:
        raise f["polygon"].fail("polygon is degenerate (zero area)")
    if not shape.is_valid:
        raise f["polygon"].fail(f"polygon is not simple: {shapely.is_valid_reason(shape)}")
    test = f["test"].integer(minimum=1, maximum=6) if "test" in f else None
    return Terrain(f["id"].string(), kind, points, test)


def _unit(node: Node) -> Unit:
    f = node.fields(_UNIT_REQUIRED, _UNIT_OPTIONAL)
    width, depth = f["base"].items(length=2)
    base = Base(width.number(positive=True), depth.number(positive=True))
    formation = _formation(f)
    return Unit(f["id"].string(), f["player"].string(), base, formation,
                Pose(f["centre"].point(), f["facing"].number()),
                f["mobility"].number(positive=True),
                f["height"].integer(minimum=0, maximum=5) if "height" in f else 1,
                f["musician"].boolean() if "musician" in f else False,
                f["light_troops"].boolean() if "light_troops" in f else False)


def _formation(f: dict[str, Node]) -> Formation:
    models = f["models"].integer(minimum=0, maximum=MAX_MODELS)
    files = f["files"].integer(minimum=1, maximum=MAX_MODELS)
    chars = tuple(_character(n) for n in f["characters"].items()) if "characters" in f else ()
    empty = tuple(n.slot() for n in f["empty"].items()) if "empty" in f else ()
    formation = Formation(files, models, chars, empty)
    if formation.model_count == 0:
        raise f["models"].fail("a unit needs at least one model")
    if files > formation.model_count:
        raise f["files"].fail(f"{files} files but only {formation.model_count} models")
    slots = set(formation.all_slots())
    taken: set[tuple[int, int]] = set()
    for key, group in (("characters", [c.slot for c in chars]), ("empty", list(empty))):
        for i, slot in enumerate(group):
            where = f"{f[key].path}[{i}]"
            if slot not in slots:
                raise InvalidInputError(f"slot {list(slot)} is outside the formation "
                                        f"({formation.ranks} ranks x {files} files)", path=where)
            if slot in taken:
                raise InvalidInputError(f"slot {list(slot)} is used twice", path=where)
            taken.add(slot)
    return formation


def _character(node: Node) -> Character:
    f = node.fields(("id", "slot"))
    return Character(f["id"].string(), f["slot"].slot())


def _check_ids(scenario: Scenario) -> None:
    seen: dict[str, str] = {}
    named = [(f"$.units[{i}].id", u.id) for i, u in enumerate(scenario.units)]
    named += [(f"$.units[{i}].characters[{j}].id", c.id) for i, u in enumerate(scenario.units)
              for j, c in enumerate(u.formation.characters)]
    named += [(f"$.terrain[{i}].id", t.id) for i, t in enumerate(scenario.terrain)]
    for path, ident in named:
        if ident in seen:
            raise InvalidInputError(f"duplicate id {ident!r} (also at {seen[ident]})", path=path)
        seen[ident] = path


def _check_placement(scenario: Scenario) -> None:
    area = scenario.battlefield.area()
    shapes = [u.boundary() for u in scenario.units]
    for i, (unit, shape) in enumerate(zip(scenario.units, shapes, strict=True)):
        where = f"$.units[{i}]"
        if not area.covers(shape):
            raise InvalidInputError(f"unit {unit.id!r} is off the battlefield", path=where)
        for other, other_shape in zip(scenario.units[:i], shapes[:i], strict=True):
            if shape.relate_pattern(other_shape, "2********"):
                raise InvalidInputError(f"unit {unit.id!r} overlaps unit {other.id!r}",
                                        path=where)
        for t in scenario.impassable():
            if shape.relate_pattern(t.shape, "2********"):
                raise InvalidInputError(f"unit {unit.id!r} overlaps impassable terrain "
                                        f"{t.id!r}", path=where)


def scenario_to_json(scenario: Scenario) -> dict[str, Any]:
    out: dict[str, Any] = {"format": FORMAT, "rules": scenario.rules,
                           "rule_options": dict(scenario.rule_options),
                           "battlefield": {"width": scenario.battlefield.width_in,
                                           "depth": scenario.battlefield.depth_in}}
    if scenario.active_player is not None:
        out["active_player"] = scenario.active_player
    out["terrain"] = [_terrain_json(t) for t in scenario.terrain]
    out["units"] = [_unit_json(u) for u in scenario.units]
    return out


def _terrain_json(t: Terrain) -> dict[str, Any]:
    out: dict[str, Any] = {"id": t.id, "kind": t.kind, "polygon": [list(p) for p in t.polygon]}
    if t.test is not None:
        out["test"] = t.test
    return out


def _unit_json(u: Unit) -> dict[str, Any]:
    f = u.formation
    return {"id": u.id, "player": u.player, "base": [u.base.frontage_mm, u.base.depth_mm],
            "models": f.models, "files": f.files, "centre": list(u.pose.centre),
            "facing": u.pose.facing_deg, "mobility": u.mobility_in, "height": u.height,
            "musician": u.musician, "light_troops": u.light_troops,
            "characters": [{"id": c.id, "slot": list(c.slot)} for c in f.characters],
            "empty": [list(s) for s in f.empty]}
