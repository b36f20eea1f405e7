"""pydantic's validation errors as this project's one-line `InvalidInputError`: the file, the
JSON path (`$.units[1].base`) and the problem in the readers' words (constraints/core/
jsonread.py), never pydantic's own text.

pydantic reports every problem it finds, and for a union every member's; the one shown is
the first of the union member with the fewest problems (the member the input was most likely
meant as), missing keys before unknown keys before wrong values, as the readers check them.
"""

from __future__ import annotations

import json
import re
from typing import Any

from constraints.core.jsonread import MAX_MAGNITUDE, _describe
from constraints.errors import InvalidInputError

# What a key's value names, for "unknown state 'resting' (known: ...)" (the readers' words).
_NAMED = {"state": "state", "rules": "rules profile", "manoeuvre": "manoeuvre",
          "skill": "skill", "command": "command model", "kind": "kind",
          "name": "objective"}  # the service's search objective (no file has a name key)

_KIND = {"missing": 0, "extra_forbidden": 1}
_NUMBER = ("float_type", "float_parsing", "int_type", "int_parsing", "int_from_float",
           "finite_number", "greater_than", "greater_than_equal", "less_than",
           "less_than_equal")


def read(name: str, data: Any, source: str | None = None) -> Any:
    """`data` (parsed JSON) read as the format `name` (constraints.schema.SCHEMAS), or one
    InvalidInputError naming `source`, the JSON path and the problem."""
    from pydantic import ValidationError

    from constraints.schema import validate

    if name == "scenario":  # its system's model, once the rules are known
        from constraints.schema.scenario import scenario_model

        try:
            return read_as(scenario_model(data), data)
        except InvalidInputError as exc:
            raise exc.in_file(source) if source else exc from None
    try:
        return validate(name, _without_surrogates(data))
    except ValidationError as exc:
        raise translated(exc.errors(include_url=False), data, source) from None
    except ValueError as exc:  # json.dumps: a value JSON cannot hold (a NaN is written)
        raise InvalidInputError(f"cannot be written as JSON: {exc}", source=source) from None


def read_as(model: Any, data: Any) -> Any:
    """`data` read as `model`, or one InvalidInputError (the JSON path and the problem; the
    caller names the file).  `model`: a file model's name ("module:Class"), read by its
    validator kept between runs, without pydantic (`constraints.schema.compiled`: records
    of the model's fields); or a model class, or a union of them."""
    from pydantic_core import ValidationError

    found = _AS.get(model)
    if found is None:
        if isinstance(model, str):
            from constraints.schema.compiled import validator

            found = _AS[model] = validator(model)
        else:
            from pydantic import TypeAdapter

            found = _AS[model] = TypeAdapter(model)
    try:
        text = json.dumps(_without_surrogates(data))
    except ValueError as exc:
        raise InvalidInputError(f"cannot be written as JSON: {exc}") from None
    try:
        return found.validate_json(text)
    except ValidationError as exc:
        raise translated(exc.errors(include_url=False), data) from None


_AS: dict[Any, Any] = {}


def _without_surrogates(data: Any) -> Any:
    """`data` with each lone surrogate (`"\\ud800"` in a file: pydantic's JSON parser refuses
    the whole text) as a NUL, which no id may hold either: the model then refuses the value
    where it stands, and the message shows the file's own value (`_walk` reads `data`)."""
    if isinstance(data, dict):
        return {_clean(k): _without_surrogates(v) for k, v in data.items()}
    if isinstance(data, list):
        return [_without_surrogates(v) for v in data]
    return _clean(data) if isinstance(data, str) else data


def _clean(text: Any) -> Any:
    if isinstance(text, str) and any(0xD800 <= ord(ch) <= 0xDFFF for ch in text):
        return "".join("\x00" if 0xD800 <= ord(ch) <= 0xDFFF else ch for ch in text)
    return text


def translated(errors: list[Any], data: Any, source: str | None = None) -> InvalidInputError:
    """The one error to show of pydantic's `errors` about `data`."""
    located = [(_walk(e["loc"], data, e["type"], (e.get("ctx") or {}).get("key")), e)
               for e in errors]
    branches: dict[tuple[str, ...], int] = {}
    for (_, tags, _, _, depth_of_tag), e in located:
        # A value that is not the member's literal tag (its kind, its manoeuvre) says most
        # that the input was meant as another member: it counts triple.
        # So does a value of another JSON type at the member's own root (an array where
        # the member is an object).
        wrong_member = e["type"] == "literal_error" or (
            e["type"].endswith("_type") and depth_of_tag >= 0
            and len(_walk(e["loc"], data, e["type"])[3]) == depth_of_tag)
        branches[tags] = branches.get(tags, 0) + (3 if wrong_member else 1)
    # The member with fewest problems, and of those the one whose problem lies deepest (the
    # input matched it furthest); an error outside any union counts for every member.
    depth = {tags: max(_depth(p) for (p, t, *_), _e in located if t == tags)
             for tags in branches}
    best = min(branches, key=lambda tags: (branches[tags], -depth[tags])) if branches else ()
    chosen = [item for item in located if item[0][1] in (best, ())] or located
    tag_error = _no_member_tag(located)
    if tag_error is not None:  # in the reader's order among the others
        # The reader reads the kind first: before the other keys of its object.
        chosen = [tag_error[2]] + [item for item in chosen if item[1]["type"] !=
                                   "literal_error" or item[0][0] != tag_error[0]]
    (path, tags, value, parts, _), error = _first(chosen)
    if error["type"] == "member_tag":
        return InvalidInputError(error["problem"], path=path, source=source)
    if error["type"] == "missing" and error["loc"] and isinstance(error["loc"][-1], int):
        # A fixed-size array too short: pydantic names each missing item; say how many.
        size = 1 + max(e["loc"][-1] for (*_, p, _), e in chosen if p == parts
                       and e["type"] == "missing" and isinstance(e["loc"][-1], int))
        shown = len(value) if isinstance(value, list) else "?"
        return InvalidInputError(f"expected {size} items, got {shown}", path=path,
                                 source=source)
    if error["type"] in _KIND and tags and tags[-1] in _STEPS:
        # A step is one of several one-key objects: an unknown key, or say which (as the
        # reader does).
        kinds = [k for k in _STEPS
                 if any(t == (*tags[:-1], k) for (_, t, *_), _e in located)]
        if error["type"] == "extra_forbidden":
            path = path.rsplit(".", 1)[0]
        step = _at(data, path)
        unknown = [k for k in step if k not in {n.lower() for n in kinds}] \
            if isinstance(step, dict) else []
        if unknown:
            return InvalidInputError(f"unknown key {unknown[0]!r}", path=f"{path}.{unknown[0]}",
                                     source=source)
        return InvalidInputError("a step is exactly one of " + " or ".join(
            _STEPS[k] for k in kinds), path=path, source=source)
    return InvalidInputError(_problem(error, value, path), path=path, source=source)


_STEPS = {"Forward": '{"forward": inches}', "Wheel": '{"wheel": degrees}',
          "Turn": '{"turn": 90 | -90 | 180}'}


def _no_member_tag(located: list[Any]) -> tuple[str, str, Any] | None:
    """(path, problem, item) when every member of a union refuses the same key's value as
    not its literal tag (a terrain `kind` no member has): the reader says the kind is unknown
    (`item` stands for it among the other problems)."""
    by_path: dict[str, list[Any]] = {}
    for (path, tags, value, *_), e in located:
        if e["type"] == "literal_error" and tags:
            by_path.setdefault(path, []).append((tags, value, e))
    for path, found in by_path.items():
        members = {tags for tags, _, _ in found}
        parent = path.rsplit(".", 1)[0]
        others = {t for (p, t, *_), _e in located if t and (p == parent or p.startswith(
            parent + ".")) and t[:-1] == next(iter(members))[:-1]}
        if len(members) >= 2 and members == others:
            names = [str(x).strip("'") for _, _, e in found
                     for x in str((e.get("ctx") or {}).get("expected", "")).replace(
                         " or ", ", ").split(", ")]
            known = ", ".join(dict.fromkeys(names))
            value = found[0][1]
            key = path.rsplit(".", 1)[-1]
            what = _NAMED.get(key, key)
            if key == "kind":
                what = "terrain kind" if path.startswith("$.terrain") else "unit kind"
            shown = repr(value) if isinstance(value, str) else _describe(value)
            problem = f"unknown {what} {shown} (known: {known})" if isinstance(value, str) \
                else f"expected a non-empty string, got {shown}"
            (_, _, _, parts, _), _e = next(item for item in located if item[0][0] == path)
            item = ((path, (), value, parts, -1), {"type": "member_tag", "loc": (),
                                                   "problem": problem})
            return path, problem, item
    return None


def _at(data: Any, path: str) -> Any:
    """The value at a JSON path this module wrote ($.a[0].b)."""
    here = data
    for key, index in re.findall(r"\.([^.\[]+)|\[(\d+)\]", path[1:]):
        if key and isinstance(here, dict):
            here = here.get(key)
        elif index and isinstance(here, list) and int(index) < len(here):
            here = here[int(index)]
        else:
            return None
    return here


def _first(chosen: list[Any]) -> Any:
    """The problem a reader meets first: objects in the order pydantic reaches them (the
    models' keys are in the readers' order), and at each object its missing and unknown keys
    before anything inside it."""
    def structural_object(item: Any) -> tuple[Any, ...] | None:
        (_, _, _, parts, _), error = item
        if error["type"] == "missing":
            return parts
        return parts[:-1] if error["type"] in ("extra_forbidden", "member_tag") else None

    def rank(prefix: tuple[Any, ...]) -> int:
        return min(i for i, ((_, _, _, parts, _), _e) in enumerate(chosen)
                   if parts[:len(prefix)] == prefix)

    def key(indexed: tuple[int, Any]) -> list[tuple[int, int]]:
        position, item = indexed
        own = structural_object(item)
        parts = own if own is not None else item[0][3]
        levels = [(1, rank(parts[:i])) for i in range(1, len(parts) + 1)]
        return levels + [(0 if own is not None else 1, position)]

    return min(enumerate(chosen), key=key)[1]


def _depth(path: str) -> int:
    return path.count("[") + path.count(".")


def _walk(loc: tuple[Any, ...], data: Any, kind: str, key: str | None = None
          ) -> tuple[str, tuple[str, ...], Any, tuple[Any, ...], int]:
    """The JSON path `loc` names in `data`, the union tags met on the way, and the value
    there.  pydantic's `loc` mixes keys, indices and the names of union members and
    validators; what is not a key or index of the value at hand is a tag."""
    path, tags, here, tag_depth = "$", [], data, -1
    parts: list[Any] = []
    for i, part in enumerate(loc):
        last = i == len(loc) - 1
        if isinstance(here, dict) and isinstance(part, str) and part not in here:
            part = next((k for k in here if _clean(k) == part), part)  # a surrogate's NUL
        if isinstance(here, dict) and isinstance(part, str) and (part in here or (
                last and kind == "missing")):
            if last and kind == "missing":
                break
            path, here = f"{path}.{part}", here.get(part)
            parts.append(part)
        elif isinstance(here, list) and isinstance(part, int) and 0 <= part < len(here):
            path, here = f"{path}[{part}]", here[part]
            parts.append(part)
        else:
            tags.append(str(part))
            tag_depth = len(parts)
    if key and key.startswith("["):  # an item of the list at hand
        index = int(key[1:-1])
        path, here = f"{path}{key}", here[index] if isinstance(here, list) else None
        parts.append(index)
    elif key:  # a model's check across keys names one
        path = f"{path}.{key}"
        here = here.get(key) if isinstance(here, dict) else None
        parts.append(key)
    return path, tuple(tags), here, tuple(parts), tag_depth


def _problem(error: Any, value: Any, path: str) -> str:
    kind, ctx = error["type"], error.get("ctx") or {}
    loc = error["loc"]
    got = _describe(value)
    if kind == "refused":  # common.refuse: the model's own words
        return str(ctx["problem"])
    if kind == "missing" and isinstance(loc[-1], int):  # a fixed-size array too short
        return f"expected {loc[-1] + 1} items, got {loc[-1]}"
    if kind == "missing":
        return f"missing key {str(loc[-1])!r}"
    if kind == "extra_forbidden":
        return f"unknown key {str(loc[-1])!r}"
    if kind == "value_error":
        return str(ctx.get("error", "invalid value"))
    if kind in ("model_type", "dict_type", "model_attributes_type"):
        return f"expected an object, got {got}"
    if kind in ("list_type", "tuple_type"):
        return f"expected an array, got {got}"
    if kind in ("too_short", "too_long"):
        if ctx.get("field_type") == "Tuple":
            return f"expected {ctx.get('max_length', ctx.get('min_length'))} items, got " \
                f"{ctx.get('actual_length')}"
        key = next((p for p in reversed(error["loc"]) if isinstance(p, str)), "")
        return _length(kind, ctx, value, _ITEMS.get(key, "items"))
    if kind in ("string_type", "string_too_short"):
        return f"expected a non-empty string, got {got if value != '' else 'an empty string'}"
    if kind == "string_pattern_mismatch":
        held = next((ch for ch in str(value) if not ch.isprintable()), "")
        return f"expected printable text, got {value!r}, which holds {held!r}"
    if kind == "bool_type":
        return f"expected true or false, got {got}"
    if kind == "literal_error":
        key = next((p for p in reversed(loc) if isinstance(p, str)), "")
        what = _NAMED.get(key)
        if key == "kind":
            what = "terrain kind" if path.startswith("$.terrain") else "unit kind"
        known = str(ctx.get("expected", "")).replace("'", "").replace(" or ", ", ")
        if " or " not in str(ctx.get("expected", "")):  # one value: 'manoeuvre/1'
            return f"expected {ctx.get('expected')}, got {value!r}"
        if what and isinstance(value, str):
            if key == "rules":  # the registry now (a profile may be registered after
                from constraints.core.profile import PROFILES  # the models were built)

                known = ", ".join(sorted(PROFILES))
            return f"unknown {what} {value!r} (known: {known})"
        if not isinstance(value, str) and "'" in str(ctx.get("expected", "")):
            return f"expected a non-empty string, got {got}"
        shown = repr(value) if isinstance(value, str) else got
        return f"expected {ctx.get('expected', 'a known value')}, got {shown}"
    if kind in _NUMBER:
        return _number(kind, ctx, value)
    return f"invalid value {got}"


# What a too long list counts, in the readers' words.
_ITEMS = {"steps": "steps", "path": "points"}


def _length(kind: str, ctx: Any, value: Any, items: str) -> str:
    actual = ctx.get("actual_length", len(value) if hasattr(value, "__len__") else "?")
    if kind == "too_short":
        return f"expected at least {ctx.get('min_length')} items, got {actual}"
    return f"expected at most {ctx.get('max_length')} {items}, got {actual}"


def _number(kind: str, ctx: Any, value: Any) -> str:
    whole = kind.startswith("int") or (isinstance(value, int) and not isinstance(value, bool)
                                       and isinstance(ctx.get("ge", ctx.get("le", 0.0)), int))
    what = "a whole number" if whole else "a number"
    if kind in ("float_type", "float_parsing", "int_type", "int_parsing", "int_from_float"):
        if not whole and isinstance(value, int) and not isinstance(value, bool):
            return "expected a finite number, got an integer too large"
        return f"expected {what}, got {_describe(value)}"
    if kind == "finite_number":
        return f"expected a finite number, got {value}"
    sign = {"greater_than": ">", "greater_than_equal": ">=", "less_than": "<",
            "less_than_equal": "<="}[kind]
    limit = next(iter(ctx.values()), "?")
    if whole:
        shown = str(value) if abs(value) < 10**18 else "a larger one"
        return f"expected {what} {sign} {limit}, got {shown}"
    number = _as_float(value)
    if isinstance(limit, float) and abs(limit) == MAX_MAGNITUDE:
        return f"expected a number of magnitude at most {MAX_MAGNITUDE:g}, got {number:g}"
    shown_limit = f"{limit:g}" if kind == "greater_than" else str(limit)
    return f"expected {what} {sign} {shown_limit}, got {number}"


def _as_float(value: Any) -> float:
    try:
        return float(value)
    except (OverflowError, TypeError, ValueError):
        return float("inf")
