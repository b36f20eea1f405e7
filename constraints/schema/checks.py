"""What the models check beyond types and bounds, as plain functions: the models call them,
and the validators kept between runs (`constraints.schema.compiled`) call them without the
models, so this module imports pydantic-core only (never pydantic: reading a file then loads
no pydantic, benchmarks/README.md "Start-up with the models deciding").

`Record` and `records` stand in for the model classes in a kept validator: it builds records
of the same names and fields (`model_fields_set` included), which the readers turn into the
rulebook's values as they would the models.
"""

from __future__ import annotations

import unicodedata
from typing import Any

from pydantic_core import PydanticCustomError, PydanticKnownError

_UNPRINTABLE = frozenset(("Cc", "Cs", "Zl", "Zp"))
INFINITY_BASES_MM = (25, 40, 55, 70)
SYSTEM_OF = {"t9a": "t9a", "t9a-2025": "t9a", "whfb7": "whfb7", "infinity-n4": "infinity"}
# Each system's units and terrain, by model name (constraints/schema/units.py).
UNIT_MODELS = {"t9a": ("T9AUnit",), "whfb7": ("Whfb7Unit",), "infinity": ("Trooper", "Marker")}
TERRAIN_MODELS = {"t9a": ("Terrain",), "whfb7": ("Terrain",),
                  "infinity": ("Prism", "Connector")}
# The keys each profile knows (constraints/*/profiles.py; a test keeps them in step).
RULE_OPTIONS = {
    "t9a": ("advance_mob", "march_mob", "final_position_mob", "model_move_mob",
            "reform_centre_mob", "light_troops_reform_centre_mob", "heading_window_deg",
            "end_spacing_in", "mid_move_spacing_in", "max_file_change",
            "max_file_change_musician", "proper_rank_width", "contact_tolerance"),
    "whfb7": ("move_mob", "march_mob", "turn_mob", "wheel_chord", "spacing_in",
              "march_block_in", "reform_model_mob", "contact_tolerance"),
    "infinity": ("contact_tolerance",),
}
# The model a scenario is read as, by its system (constraints/schema/scenario.py).
SCENARIO_MODELS = {"t9a": "T9AScenario", "whfb7": "Whfb7Scenario",
                   "infinity": "InfinityScenario"}


def refuse(key: str, problem: str) -> PydanticCustomError:
    """A model's check across keys failed: `problem`, at the key `key` (the error message
    names `$.KEY`, as the readers do)."""
    return PydanticCustomError("refused", "{problem}", {"problem": problem, "key": key})


def shipped_stand_in(rules: object) -> str | None:
    """For a rules profile registered at run time (a variant, a plug-in, a test's), the
    shipped profile of its system that its scenario is read as (the same units, terrain and
    rules parameters); None for a shipped profile or an unknown name (the model says so)."""
    if not isinstance(rules, str) or rules in SYSTEM_OF:
        return None
    from constraints.core.profile import PROFILES

    profile = PROFILES.get(rules)
    return None if profile is None else next(
        (name for name, system in SYSTEM_OF.items() if system == profile.system), None)


def scenario_model_name(data: Any) -> str:
    """The model to read `data` as: its system's, or any system's (`Scenario`) when its rules
    are not known (the model then says so)."""
    rules = data.get("rules", "t9a") if isinstance(data, dict) else None
    system = SYSTEM_OF.get(rules) if isinstance(rules, str) else None
    return SCENARIO_MODELS.get(system or "", "Scenario")


# ---------------------------------------------------------------------------------------------
# Values.

def printable(value: str) -> str:
    for ch in value:
        if unicodedata.category(ch) in _UNPRINTABLE:
            raise ValueError(f"expected printable text, got {value!r}, which holds {ch!r}")
    return value


def each_once(names: list[str]) -> list[str]:
    for i, name in enumerate(names):
        if name in names[:i]:
            raise refuse(f"[{i}]", f"command model {name!r} is listed twice")
    return names


def a_silhouette(silhouette: int) -> int:
    if not 1 <= silhouette <= 8:
        raise refuse("", f"unknown silhouette S{silhouette} (known: S1 to S8)")
    return silhouette


def a_base(base: float) -> float:
    if base not in INFINITY_BASES_MM:
        raise refuse("", f"base {base:g} mm is not one of "
                     f"{', '.join(f'{b:g}' for b in INFINITY_BASES_MM)} mm")
    return base


def a_turn(angle: float) -> float:
    if angle not in (90.0, -90.0, 180.0, -180.0):
        raise ValueError(f"expected a turn of 90, -90 or 180 degrees, got {angle:g}")
    return angle


def no_null(wanted: dict[str, str], value: Any, info: Any) -> Any:
    """An optional key is left out, never null (the readers refuse null everywhere);
    `wanted`: what each key of the model holds, in the readers' words ("a number")."""
    if value is None and info.field_name in wanted:
        raise refuse("", f"expected {wanted[info.field_name]}, got null")
    return value


def in_the_profiles_words(value: Any, handler: Any, info: Any) -> Any:
    """A rules parameter's value, refused in its profile's words."""
    from pydantic_core import ValidationError

    try:
        return handler(value)
    except ValidationError:
        raise refuse("", option_problem(info.field_name or "", value)) from None


def option_problem(key: str, value: Any) -> str:
    """What is wrong with `value` for the rules parameter `key`, as the profile says it
    (constraints/core/profile.py)."""
    from constraints.core.profile import MAX_WHOLE_OPTION, option_bound

    if key == "wheel_chord":
        return f"expected true or false, got {value!r}"
    if key == "proper_rank_width":
        return f"expected 6 positive integers of at most {MAX_WHOLE_OPTION}, got {value!r}"
    if isinstance(value, bool) or not isinstance(value, int | float) \
            or not 0 <= value < float("inf"):
        shown = _shown(value) if isinstance(value, int) and not isinstance(value, bool) \
            else repr(value)
        return f"expected a finite number >= 0, got {shown}"
    whole = key.startswith("max_file_change")
    if whole and not isinstance(value, int):
        return f"expected a whole number, got {value!r}"
    most, unit = (float(MAX_WHOLE_OPTION), "") if whole else option_bound(key)
    return f"expected a number <= {most:g}{' ' + unit if unit else ''}, got {_shown(value)}"


def _shown(value: float) -> str:
    return f"{value:g}" if isinstance(value, float) or abs(value) < 10**15 else \
        "an integer too large"


def sequence(value: Any, validator: Any) -> Any:
    """pydantic's check of a `Sequence` (no string is one), for JSON input (a list)."""
    if isinstance(value, str | bytes):
        raise PydanticCustomError("sequence_str",
                                  "'{type_name}' instances are not allowed as a Sequence value",
                                  {"type_name": type(value).__name__})
    return validator(list(value) if isinstance(value, tuple) else value)


def min_length(value: Any, min_length: Any) -> Any:
    """pydantic's `min_length` of a `Sequence`."""
    if not len(value) >= min_length:
        raise PydanticKnownError("too_short", {"field_type": "Value", "min_length": min_length,
                                               "actual_length": len(value)})
    return value


# ---------------------------------------------------------------------------------------------
# Checks across the keys of one model (`self` a model or a record).

def options_of_the_rules(data: Any) -> Any:
    """The profile's keys first, as the reader (a value is judged only for a known key)."""
    if isinstance(data, dict) and isinstance(data.get("rule_options"), dict):
        rules = data.get("rules", "t9a")
        known = RULE_OPTIONS.get(SYSTEM_OF.get(rules, "") if isinstance(rules, str) else "", ())
        for key in data["rule_options"] if known else ():
            if key not in known:
                raise refuse(f"rule_options.{key}", f"unknown key {key!r}")
    return data


def one_system(self: Any) -> Any:
    """A scenario holds the units, terrain and rules parameters of its rules' system."""
    system = SYSTEM_OF[self.rules]
    for i, unit in enumerate(self.units):
        if type(unit).__name__ not in UNIT_MODELS[system]:
            raise refuse(f"units[{i}]", f"not a unit of rules {self.rules!r}")
    for i, piece in enumerate(self.terrain):
        if type(piece).__name__ not in TERRAIN_MODELS[system]:
            raise refuse(f"terrain[{i}]", f"not terrain of rules {self.rules!r}")
    known = RULE_OPTIONS[system]
    for key in self.rule_options.model_fields_set:
        if key not in known:
            raise refuse(f"rule_options.{key}", f"unknown key {key!r}")
    return self


def not_mobility(data: Any) -> Any:
    if isinstance(data, dict) and "mobility" in data:
        # A T9A unit pasted into a Warhammer scenario: say what the key is called here.
        raise refuse("mobility", 'a whfb7 unit gives its Move as "movement" (M, inches), '
                     'not the T9A "mobility"')
    return data


def t9a_move_keys(self: Any) -> Any:
    """Which keys go with which T9A manoeuvre."""
    given = self.model_fields_set
    if "mid" in given and self.manoeuvre != "reform":
        raise refuse("mid", "only a Reform places the unit mid-move (Dangerous Terrain)")
    if self.manoeuvre == "post_combat_pivot" and given & {"steps", "files", "centre",
                                                           "facing"}:
        extra = sorted(given & {"steps", "files", "centre", "facing"})[0]
        raise refuse(extra, "a Post-Combat Pivot gives only its pivot (degrees)")
    if "pivot" in given and self.manoeuvre not in ("advance", "post_combat_pivot"):
        raise refuse("pivot", "only an Advance Move starts with a Pivot")
    if self.manoeuvre == "reform" and "steps" in given:
        raise refuse("steps", "a Reform Move has no steps: give centre, facing and files")
    if self.manoeuvre in ("advance", "march"):
        if "steps" in given and given & {"centre", "facing"}:
            raise refuse("steps", "give either steps or an end pose (centre, facing), not "
                         "both")
        if ("centre" in given) != ("facing" in given):
            raise refuse("centre" if "centre" in given else "facing",
                         "an end pose needs both centre and facing")
    return self


def whfb7_move_keys(self: Any) -> Any:
    """Which keys go with which Warhammer manoeuvre."""
    given = self.model_fields_set
    if self.manoeuvre != "reform":
        extra = sorted(given & {"files", "facing", "assignment"})
        if extra:
            raise refuse(extra[0], f"a {self.manoeuvre} gives steps only (a reform gives "
                         f"{extra[0]})")
    elif "steps" in given:
        raise refuse("steps", "a reform has no steps: give files and facing (the centre is "
                     "kept)")
    elif not {"files", "facing"} <= given:
        missing = "files" if "files" not in given else "facing"
        raise refuse("", f"a reform gives {missing!r}")
    return self


def one_leg(data: Any) -> Any:
    """A nudge's leg is one number forward or sideways (the other keys, their values: the
    model)."""
    if not isinstance(data, dict) or len(data) != 1 or next(iter(data)) not in (
            "forward", "sideways"):
        raise refuse("", 'expected one of {"forward": IN} or {"sideways": IN}')
    return data


def route_skill_keys(self: Any) -> Any:
    """Which keys go with which Infinity skill."""
    if self.skill in ("jump", "climb") and len(self.path) < 2:
        raise refuse("path", f"expected at least 2 items, got {len(self.path)}")
    if self.skill == "move_move" and self.midpoint is None:
        raise ValueError("missing key 'midpoint' (where the first Move ends)")
    if self.skill != "move_move" and self.midpoint is not None:
        raise refuse("midpoint", "a midpoint goes only with skill 'move_move'")
    if self.manoeuvre is not None and self.manoeuvre != self.skill:
        raise refuse("manoeuvre", f"manoeuvre {self.manoeuvre!r} is not the skill "
                     f"{self.skill!r}")
    return self


# The models' own validators (by qualified name) and what a kept validator calls instead.
STAND_INS = {
    "RuleOptions._in_the_profiles_words": in_the_profiles_words,
    "Scenario._options_of_the_rules": options_of_the_rules,
    "Scenario._one_system": one_system,
    "Whfb7Unit._not_mobility": not_mobility,
    "T9AMove._keys_of_the_manoeuvre": t9a_move_keys,
    "Whfb7Move._keys_of_the_manoeuvre": whfb7_move_keys,
    "Route._skill_keys": route_skill_keys,
    "PlayerLeg._one_direction": one_leg,
    "sequence_validator": sequence,
}


class Record:
    """A validated file's object in a kept validator: its fields as attributes."""

    # Where pydantic-core puts what it knows besides the fields (so `vars` is the fields).
    __slots__ = ("__dict__", "__pydantic_fields_set__", "__pydantic_extra__",
                 "__pydantic_private__")
    __pydantic_fields_set__: set[str]

    def __init__(self) -> None:  # a default (`default_factory`): no key given
        self.__pydantic_fields_set__ = set()

    @property
    def model_fields_set(self) -> set[str]:
        return self.__pydantic_fields_set__

    def __repr__(self) -> str:
        return f"{type(self).__name__}({vars(self)!r})"
