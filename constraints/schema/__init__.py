"""pydantic models of every file the tool reads and every result it writes, one module per
format, and their JSON Schemas (draft 2020-12; `manoeuvre schema NAME`, docs/schemas/).

The models decide what a file may hold: the readers (constraints/core/scenario_io.py, the
systems' move and route readers, ...) validate every file through them
(`errors.read_as`), then build the rulebook's values.  Importing this package loads nothing:
the models (and pydantic) are imported when a file is read or a schema asked for, so
`manoeuvre --version` never loads them; their validators are kept between runs
(`compiled`).
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

DIALECT = "https://json-schema.org/draft/2020-12/schema"
# NAME -> "module:type" (a model, or a union of models).
SCHEMAS = {
    "scenario": "scenario:Scenario",
    "move": "move:Move",
    "route": "route:Route",
    "casualties": "casualties:Casualties",
    "combat-result": "combat_result:CombatResult",
    "combat-reform": "combat_reform:CombatReformProposal",
    "nudges": "nudges:PlayerNudges",
    "verdict": "verdict:Verdict",
    "search-result": "search_result:SearchResult",
    "nudge-result": "nudge_result:NudgeResult",
    "combat-reform-result": "combat_reform_result:CombatReformResult",
    "route-result": "route_result:RouteResult",
    "lof-result": "lof_result:LineOfFireAnswer",
}
TITLES = {
    "scenario": "Manoeuvre scenario (manoeuvre/1)",
    "move": "Manoeuvre move (T9A or Warhammer 7th)",
    "route": "Manoeuvre declared route (Infinity N4)",
    "casualties": "Manoeuvre casualties (nudge --casualties)",
    "combat-result": "Manoeuvre combat result (--result)",
    "combat-reform": "Manoeuvre Combat Reform proposal (check SCENARIO PROPOSAL.json)",
    "nudges": "Manoeuvre player's nudges (check SCENARIO NUDGE.json)",
    "verdict": "Manoeuvre verdict (check --json)",
    "search-result": "Manoeuvre search result (solve --json)",
    "nudge-result": "Manoeuvre nudge result (nudge --json)",
    "combat-reform-result": "Manoeuvre Combat Reform result (combat-reform --json)",
    "route-result": "Manoeuvre route result (route --json)",
    "lof-result": "Manoeuvre Line of Fire answer (lof --json)",
}


def model_of(name: str) -> Any:
    """The model (or union of models) of the format `name` (a key of `SCHEMAS`)."""
    module, _, attribute = SCHEMAS[name].partition(":")
    return getattr(import_module(f"constraints.schema.{module}"), attribute)


def adapter(name: str) -> Any:
    """A pydantic `TypeAdapter` of the format `name`, built once."""
    found = _ADAPTERS.get(name)
    if found is None:
        from pydantic import TypeAdapter

        found = _ADAPTERS[name] = TypeAdapter(model_of(name))
    return found


_ADAPTERS: dict[str, Any] = {}


def validate(name: str, data: Any) -> Any:
    """`data` (parsed JSON, or JSON text) read as the format `name`; pydantic's
    ValidationError if not.  Validated as JSON: an array is a tuple, and nothing else is
    coerced (the models are strict)."""
    import json

    text = data if isinstance(data, str | bytes) else json.dumps(data)
    return adapter(name).validate_json(text)


class ResultOffSchemaError(AssertionError):
    """A result the tool wrote does not follow its own published schema: our bug, never bad
    input (as `EncodingMismatchError` for a solver answer the checker rejects)."""


def checked_result(name: str, text: str) -> Any:
    """`text` (the JSON a command prints) read as the result format `name` (records of its
    model's fields): what is printed is what validates against the published schema."""
    from pydantic_core import ValidationError

    from constraints.schema.compiled import validator

    found = _RESULTS.get(name)
    if found is None:  # kept between runs, as the file models' (no pydantic)
        found = _RESULTS[name] = validator(SCHEMAS[name])
    try:
        return found.validate_json(text)
    except ValidationError as exc:
        first = exc.errors(include_url=False)[0]
        raise ResultOffSchemaError(f"the {name} written does not follow its schema: "
                                   f"{first['loc']}: {first['msg']}") from None


_RESULTS: dict[str, Any] = {}


def json_schema(name: str) -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of the format `name`."""
    from constraints.schema.common import FileModel, ResultModel

    schema: dict[str, Any] = adapter(name).json_schema(mode="validation")
    _optional_keys_not_null(schema, set(_models(FileModel)))
    # What a model checks across its keys (which keys go with which manoeuvre or skill),
    # written into its definition as `if`/`then` where JSON Schema can say it.
    models = _models(FileModel) | _models(ResultModel)
    for title, definition in [(schema.get("title"), schema),
                              *schema.get("$defs", {}).items()]:
        finish = getattr(models.get(title), "finish_schema", None)
        if finish is not None:
            finish(definition)
    return {"$schema": DIALECT, "title": TITLES[name],
            **{k: v for k, v in schema.items() if k != "title"}}


def _models(base: type) -> dict[str, type]:
    """Every subclass of `base`, by name (the name pydantic gives its definition)."""
    found: dict[str, type] = {}
    subclasses: list[type] = base.__subclasses__()
    for sub in subclasses:
        found.update({sub.__name__: sub, **_models(sub)})
    return found


def _optional_keys_not_null(schema: dict[str, Any], file_models: set[str]) -> None:
    """A file's optional key is left out, never null (FileModel refuses null): drop the null
    branch pydantic writes for `X | None = None`, in the file models only (a result may
    print null)."""
    defs = schema.get("$defs", {})
    targets = [d for n, d in defs.items() if n in file_models]
    if schema.get("title") in file_models:
        targets.append(schema)
    for model in targets:
        for prop in model.get("properties", {}).values():
            branches = prop.get("anyOf")
            if prop.get("default", 0) is None and branches and {"type": "null"} in branches:
                kept = [b for b in branches if b != {"type": "null"}]
                del prop["anyOf"], prop["default"]
                prop.update(kept[0] if len(kept) == 1 else {"anyOf": kept})
