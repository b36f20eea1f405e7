"""Malformed scenarios and moves: exit status 2 and one clear line on stderr, never a traceback.

Every case starts from a valid document (examples/spears.json, or a valid march of `spears`),
changes one thing, writes it to a temporary file and runs `manoeuvre check` in-process
through `optimizer.cli.main`.  The error line must name the file, the JSON path (where there
is one) and the problem (docs/formats.md "Commands").
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from optimizer.cli import main
from tests.support import ROOT

EXAMPLE = ROOT / "examples" / "spears.json"
EXAMPLE_MOVE = ROOT / "examples" / "spears_march.json"
EXAMPLE_DATA: dict[str, Any] = json.loads(EXAMPLE.read_text(encoding="utf-8"))
VALID_MOVE: dict[str, Any] = {"unit": "spears", "manoeuvre": "march",
                              "steps": [{"forward": 2.0}, {"wheel": -45.0}, {"forward": 1.0}]}
PREFIX = "manoeuvre: error: "

MISSING = object()  # no file at all
Key = str | int
Mutation = Callable[[Any], Any]


# ---------------------------------------------------------------------------------------------
# Building documents: one change to a deep copy of a valid one.


def _walk(doc: Any, keys: tuple[Key, ...]) -> Any:
    for key in keys:
        doc = doc[key]
    return doc


def put(*path: Any) -> Mutation:
    """Set the value at `path[:-1]` to `path[-1]`."""
    *keys, value = path

    def change(doc: Any) -> Any:
        _walk(doc, tuple(keys[:-1]))[keys[-1]] = copy.deepcopy(value)
        return doc
    return change


def drop(*keys: Key) -> Mutation:
    """Delete the key or item at `keys`."""

    def change(doc: Any) -> Any:
        del _walk(doc, keys[:-1])[keys[-1]]
        return doc
    return change


def both(*changes: Mutation) -> Mutation:
    def change(doc: Any) -> Any:
        for c in changes:
            doc = c(doc)
        return doc
    return change


def replace_with(value: Any) -> Mutation:
    return lambda _doc: copy.deepcopy(value)


def raw(text: str | bytes) -> Mutation:
    """The file's content verbatim, not JSON-encoded."""
    return lambda _doc: text if isinstance(text, bytes) else text.encode("utf-8")


def literal(*path: Any) -> Mutation:
    """Write the JSON text `path[-1]` verbatim at `path[:-1]` (what json.dumps cannot write)."""
    *keys, text = path
    marker = "@@literal@@"

    def change(doc: Any) -> Any:
        doc = put(*keys, marker)(doc)
        return json.dumps(doc).replace(json.dumps(marker), text).encode("utf-8")
    return change


def missing() -> Mutation:
    return lambda _doc: MISSING


def write(path: Path, content: Any) -> None:
    if content is MISSING:
        return
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        # json.dumps writes NaN / Infinity / -Infinity literals, as a careless writer would.
        path.write_text(json.dumps(content), encoding="utf-8")


def run_check(capsys: pytest.CaptureFixture[str], scenario: Path, move: Path) \
        -> tuple[int, str, str]:
    status = main(["check", str(scenario), str(move)])
    out, err = capsys.readouterr()
    return status, out, err


def assert_one_clear_line(status: int, out: str, err: str, file: Path | str,
                          json_path: str | None, words: tuple[str, ...]) -> None:
    assert "Traceback" not in out + err
    assert status == 2, f"exit status {status}, stderr {err!r}"
    assert out == "", f"nothing on stdout for bad input, got {out!r}"
    assert err.endswith("\n") and err.count("\n") == 1, f"not exactly one line: {err!r}"
    line = err[:-1]
    assert line.startswith(PREFIX), line
    assert str(file) in line, f"file not named: {line}"
    if json_path is not None:
        assert f"{file}: {json_path}: " in line, f"JSON path {json_path} not named: {line}"
    for word in words:
        assert word.lower() in line.lower(), f"{word!r} not in: {line}"


def xfail(reason: str) -> pytest.MarkDecorator:
    return pytest.mark.xfail(strict=True, reason=reason)


def case(case_id: str, change: Mutation, json_path: str | None, *words: str,
         marks: Any = ()) -> Any:
    return pytest.param(change, json_path, words, id=case_id, marks=marks)


# ---------------------------------------------------------------------------------------------
# Scenario cases.  Unit 0 is `spears` (20 models + captain at [0, 2], empty [2, 0]; 5 files,
# so 5 ranks whose rear rank holds files 1 and 2); unit 1 is `orcs` (15 models, 5 files).
# Terrain 0 is the impassable `rocks`, terrain 1 the dangerous `marsh`.

U0, U1 = ("units", 0), ("units", 1)
T0, T1 = ("terrain", 0), ("terrain", 1)
ROCKS = EXAMPLE_DATA["terrain"][0]["polygon"]
ON_ROCKS = [sum(p[0] for p in ROCKS) / len(ROCKS), sum(p[1] for p in ROCKS) / len(ROCKS)]
SPEARS_CENTRE = EXAMPLE_DATA["units"][0]["centre"]
NEAR_SPEARS = [SPEARS_CENTRE[0] + 1.0, SPEARS_CENTRE[1] + 1.0]
ORCS_Y = EXAMPLE_DATA["units"][1]["centre"][1]

SCENARIO_CASES = [
    # The file itself.
    case("not-json", raw("units: spears, orcs\n"), "$", "not valid JSON", "line 1"),
    case("empty-file", raw(""), "$", "not valid JSON"),
    case("whitespace-only", raw("  \n\n"), "$", "not valid JSON"),
    case("truncated-json", raw(json.dumps(EXAMPLE_DATA)[:-20]), "$", "not valid JSON"),
    case("file-missing", missing(), None, "cannot read"),
    case("not-utf8", raw(b'{"format": "manoeuvre/1", "x": "\xff\xfe"}'), None, "cannot read"),
    case("nested-too-deeply", raw("[" * 200_000 + "]" * 200_000), "$", "not valid JSON"),
    case("top-level-array", replace_with([EXAMPLE_DATA]), "$", "expected an object",
         "array"),
    case("top-level-null", replace_with(None), "$", "expected an object", "null"),
    case("top-level-number", replace_with(3), "$", "expected an object"),
    # The format string.
    case("format-wrong", put("format", "manoeuvre/2"), "$.format", "manoeuvre/1",
         "manoeuvre/2"),
    case("format-number", put("format", 1), "$.format", "manoeuvre/1"),
    # Missing keys.
    case("missing-format", drop("format"), "$", "missing key", "format"),
    case("missing-battlefield", drop("battlefield"), "$", "missing key", "battlefield"),
    case("missing-units", drop("units"), "$", "missing key", "units"),
    case("missing-battlefield-depth", drop("battlefield", "depth"), "$.battlefield",
         "missing key", "depth"),
    case("missing-unit-base", drop(*U0, "base"), "$.units[0]", "missing key", "base"),
    case("missing-unit-centre", drop(*U1, "centre"), "$.units[1]", "missing key", "centre"),
    case("missing-unit-facing", drop(*U0, "facing"), "$.units[0]", "missing key", "facing"),
    case("missing-unit-id", drop(*U0, "id"), "$.units[0]", "missing key", "id"),
    case("missing-unit-mobility", drop(*U1, "mobility"), "$.units[1]", "missing key",
         "mobility"),
    case("missing-character-slot", drop(*U0, "characters", 0, "slot"),
         "$.units[0].characters[0]", "missing key", "slot"),
    case("missing-terrain-polygon", drop(*T0, "polygon"), "$.terrain[0]", "missing key",
         "polygon"),
    case("missing-terrain-kind", drop(*T1, "kind"), "$.terrain[1]", "missing key", "kind"),
    # Unknown keys.
    case("unknown-key-top", put("weather", "rain"), "$.weather", "unknown key"),
    case("unknown-key-battlefield", put("battlefield", "height", 3), "$.battlefield.height",
         "unknown key"),
    case("unknown-key-unit", put(*U0, "armour", 5), "$.units[0].armour", "unknown key"),
    case("unknown-key-unit-typo", both(drop(*U1, "facing"), put(*U1, "facting", 270.0)),
         "$.units[1]", "missing key", "facing"),
    case("unknown-key-character", put(*U0, "characters", 0, "name", "Bob"),
         "$.units[0].characters[0].name", "unknown key"),
    case("unknown-key-terrain", put(*T0, "colour", "grey"), "$.terrain[0].colour",
         "unknown key"),
    # Wrong types.
    case("base-string", put(*U0, "base", 0, "20"), "$.units[0].base[0]", "expected a number",
         "string"),
    case("base-number-not-array", put(*U0, "base", 20), "$.units[0].base", "expected an array"),
    case("base-three-items", put(*U0, "base", [20, 20, 20]), "$.units[0].base",
         "expected 2 items"),
    case("centre-string", put(*U1, "centre", 1, "36"), "$.units[1].centre[1]",
         "expected a number"),
    case("centre-object", put(*U1, "centre", {"x": 44, "y": 36}), "$.units[1].centre",
         "expected an array", "object"),
    case("facing-bool", put(*U0, "facing", True), "$.units[0].facing", "expected a number",
         "true"),
    case("facing-null", put(*U0, "facing", None), "$.units[0].facing", "expected a number",
         "null"),
    case("mobility-bool", put(*U1, "mobility", False), "$.units[1].mobility",
         "expected a number", "false"),
    case("mobility-string", put(*U1, "mobility", "4"), "$.units[1].mobility",
         "expected a number"),
    case("models-float", put(*U0, "models", 20.5), "$.units[0].models", "whole number"),
    case("models-bool", put(*U0, "models", True), "$.units[0].models", "whole number"),
    case("files-string", put(*U1, "files", "five"), "$.units[1].files", "whole number"),
    case("height-float", put(*U0, "height", 1.5), "$.units[0].height", "whole number"),
    case("musician-string", put(*U0, "musician", "yes"), "$.units[0].musician",
         "true or false"),
    case("light-troops-number", put(*U0, "light_troops", 0), "$.units[0].light_troops",
         "true or false"),
    case("id-number", put(*U1, "id", 7), "$.units[1].id", "string"),
    case("id-empty", put(*U1, "id", ""), "$.units[1].id", "non-empty string"),
    case("player-null", put(*U1, "player", None), "$.units[1].player", "string"),
    case("active-player-number", put("active_player", 1), "$.active_player", "string"),
    case("units-object", put("units", {"spears": EXAMPLE_DATA["units"][0]}), "$.units",
         "expected an array", "object"),
    case("units-empty", put("units", []), "$.units", "at least 1"),
    case("unit-is-string", put(*U0, "spears"), "$.units[0]", "expected an object"),
    case("terrain-object", put("terrain", {"rocks": EXAMPLE_DATA["terrain"][0]}), "$.terrain",
         "expected an array"),
    case("battlefield-array", put("battlefield", [72, 48]), "$.battlefield",
         "expected an object", "array"),
    case("battlefield-width-string", put("battlefield", "width", "72"), "$.battlefield.width",
         "expected a number"),
    case("characters-object", put(*U0, "characters", {"captain": [0, 2]}),
         "$.units[0].characters", "expected an array"),
    case("empty-slot-not-array", put(*U0, "empty", [2]), "$.units[0].empty[0]",
         "expected an array"),
    case("character-slot-float", put(*U0, "characters", 0, "slot", [0, 2.0]),
         "$.units[0].characters[0].slot[1]", "whole number"),
    case("polygon-point-string", put(*T0, "polygon", 1, "34,16"), "$.terrain[0].polygon[1]",
         "expected an array"),
    case("terrain-test-string", put(*T1, "test", "4"), "$.terrain[1].test", "whole number"),
    # Not finite.
    case("facing-nan", put(*U0, "facing", float("nan")), "$.units[0].facing", "finite"),
    case("centre-infinity", put(*U0, "centre", 0, float("inf")), "$.units[0].centre[0]",
         "finite"),
    case("mobility-minus-infinity", put(*U1, "mobility", float("-inf")),
         "$.units[1].mobility", "finite"),
    case("base-nan", put(*U1, "base", 1, float("nan")), "$.units[1].base[1]", "finite"),
    case("battlefield-width-infinity", put("battlefield", "width", float("inf")),
         "$.battlefield.width", "finite"),
    case("polygon-nan", put(*T0, "polygon", 2, 0, float("nan")), "$.terrain[0].polygon[2][0]",
         "finite"),
    case("exponent-overflow-1e400", literal(*U0, "mobility", "1e400"), "$.units[0].mobility",
         "finite"),
    case("huge-integer-centre", literal(*U0, "centre", 0, "1" + "0" * 400),
         "$.units[0].centre[0]", "finite"),
    case("huge-integer-models", literal(*U1, "models", "1" + "0" * 400), None, "units[1]"),
    case("integer-over-4300-digits", literal(*U1, "models", "1" + "0" * 5000), "$"),
    # Sizes that must be positive.
    case("base-negative", put(*U0, "base", 0, -20), "$.units[0].base[0]", "> 0"),
    case("base-zero-depth", put(*U1, "base", 1, 0), "$.units[1].base[1]", "> 0"),
    case("battlefield-width-zero", put("battlefield", "width", 0), "$.battlefield.width",
         "> 0"),
    case("battlefield-depth-negative", put("battlefield", "depth", -48),
         "$.battlefield.depth", "> 0"),
    case("mobility-zero", put(*U0, "mobility", 0), "$.units[0].mobility", "> 0"),
    case("mobility-negative", put(*U1, "mobility", -4.0), "$.units[1].mobility", "> 0"),
    case("models-negative", put(*U1, "models", -3), "$.units[1].models", ">= 0"),
    # Formations.
    case("models-zero-no-characters", put(*U1, "models", 0), "$.units[1].models",
         "at least one model"),
    case("files-more-than-models", put(*U1, "files", 16), "$.units[1].files",
         "16 files", "15 models"),
    case("files-zero", put(*U0, "files", 0), "$.units[0].files", ">= 1"),
    case("files-negative", put(*U1, "files", -5), "$.units[1].files", ">= 1"),
    case("character-slot-outside-ranks", put(*U0, "characters", 0, "slot", [7, 0]),
         "$.units[0].characters[0]", "outside the formation"),
    case("character-slot-outside-files", put(*U0, "characters", 0, "slot", [0, 5]),
         "$.units[0].characters[0]", "outside the formation"),
    case("character-slot-rear-rank-gap", put(*U0, "characters", 0, "slot", [4, 4]),
         "$.units[0].characters[0]", "outside the formation"),
    case("character-slot-negative", put(*U0, "characters", 0, "slot", [-1, 0]),
         "$.units[0].characters[0].slot[0]", ">= 0"),
    case("character-slot-three-items", put(*U0, "characters", 0, "slot", [0, 2, 1]),
         "$.units[0].characters[0].slot", "expected 2 items"),
    case("empty-slot-outside", put(*U0, "empty", 0, [0, 9]), "$.units[0].empty[0]",
         "outside the formation"),
    case("empty-slot-twice", put(*U0, "empty", [[2, 0], [2, 0]]), "$.units[0].empty[1]",
         "used twice"),
    case("character-and-empty-same-slot", put(*U0, "empty", [[0, 2]]), "$.units[0].empty[0]",
         "used twice"),
    case("two-characters-same-slot",
         put(*U0, "characters", [{"id": "captain", "slot": [0, 2]},
                                 {"id": "standard", "slot": [0, 2]}]),
         "$.units[0].characters[1]", "used twice"),
    # Identifiers.
    case("duplicate-unit-id", put(*U1, "id", "spears"), "$.units[1].id", "duplicate",
         "spears"),
    case("character-id-equals-unit-id", put(*U0, "characters", 0, "id", "orcs"),
         "$.units[0].characters[0].id", "duplicate", "orcs"),
    case("duplicate-character-id",
         put(*U0, "characters", [{"id": "captain", "slot": [0, 2]},
                                 {"id": "captain", "slot": [0, 3]}]),
         "$.units[0].characters[1].id", "duplicate", "captain"),
    case("duplicate-terrain-id", put(*T1, "id", "rocks"), "$.terrain[1].id", "duplicate",
         "rocks"),
    case("terrain-id-equals-unit-id", put(*T0, "id", "orcs"), "$.terrain[0].id", "duplicate",
         "orcs"),
    # Rules and options.
    case("rules-unknown", put("rules", "warmaster"), "$.rules", "unknown rules profile",
         "warmaster"),
    case("rules-number", put("rules", 9), "$.rules", "string"),
    case("rule-option-unknown", put("rule_options", {"charge_bonus": 1}),
         "$.rule_options.charge_bonus", "unknown"),
    case("rule-option-string", put("rule_options", {"max_file_change": "two"}),
         "$.rule_options.max_file_change", "expected", "number"),
    case("rule-option-float-for-whole", put("rule_options", {"max_file_change": 2.5}),
         "$.rule_options.max_file_change", "whole number"),
    case("rule-option-bool-for-number", put("rule_options", {"march_mob": True}),
         "$.rule_options.march_mob", "number"),
    case("rule-option-negative", put("rule_options", {"march_mob": -1.0}),
         "$.rule_options.march_mob", ">= 0"),
    case("rule-option-nan", put("rule_options", {"march_mob": float("nan")}),
         "$.rule_options.march_mob", "finite"),
    case("rule-option-infinity", put("rule_options", {"march_mob": float("inf")}),
         "$.rule_options.march_mob", "finite"),
    case("rule-option-tuple-wrong-length", put("rule_options", {"proper_rank_width": [5, 5]}),
         "$.rule_options.proper_rank_width", "6 positive integers"),
    case("rule-options-array", put("rule_options", [["max_file_change", 2]]), "$.rule_options",
         "expected an object"),
    # Terrain shapes.
    case("terrain-kind-unknown", put(*T1, "kind", "lava"), "$.terrain[1].kind",
         "unknown terrain kind", "lava"),
    case("terrain-bow-tie", put(*T0, "polygon", [[30, 30], [34, 33], [34, 30], [30, 33]]),
         "$.terrain[0].polygon", "not simple"),
    case("terrain-collinear", put(*T1, "polygon", [[46, 20], [49, 23], [52, 26]]),
         "$.terrain[1].polygon", "degenerate"),
    case("terrain-one-point-repeated", put(*T1, "polygon", [[46, 20], [46, 20], [46, 20]]),
         "$.terrain[1].polygon", "degenerate"),
    case("terrain-collinear-either-message", put(*T1, "polygon", [[46, 20], [49, 20], [52, 20],
                                                                  [50, 20]]),
         "$.terrain[1].polygon", "polygon"),
    case("terrain-two-points", put(*T0, "polygon", [[30, 16], [34, 16]]),
         "$.terrain[0].polygon", "at least 3"),
    case("terrain-point-three-coordinates", put(*T0, "polygon", 0, [30, 16, 0]),
         "$.terrain[0].polygon[0]", "expected 2 items"),
    case("terrain-test-seven", put(*T1, "test", 7), "$.terrain[1].test", "<= 6"),
    case("terrain-test-zero", put(*T1, "test", 0), "$.terrain[1].test", ">= 1"),
    # Placement.
    case("units-overlap", put(*U1, "centre", NEAR_SPEARS), "$.units[1]", "overlaps",
         "spears"),
    case("unit-on-impassable-terrain", put(*U0, "centre", ON_ROCKS), "$.units[0]",
         "overlaps impassable terrain", "rocks"),
    case("unit-off-battlefield", put(*U0, "centre", [1.0, 1.0]), "$.units[0]",
         "off the battlefield"),
    case("unit-beyond-battlefield", put(*U1, "centre", [100.0, 36.0]), "$.units[1]",
         "off the battlefield"),
    case("unit-off-smaller-battlefield", put("battlefield", "depth", ORCS_Y - 1.0), "$.units[1]",
         "off the battlefield"),
    # Height.
    case("height-seven", put(*U0, "height", 7), "$.units[0].height", "<= 5"),
    case("height-negative", put(*U1, "height", -1), "$.units[1].height", ">= 0"),
]


@pytest.mark.parametrize(("change", "json_path", "words"), SCENARIO_CASES)
def test_malformed_scenario(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                            change: Mutation, json_path: str | None,
                            words: tuple[str, ...]) -> None:
    scenario, move = tmp_path / "scenario.json", tmp_path / "move.json"
    write(scenario, change(copy.deepcopy(EXAMPLE_DATA)))
    write(move, VALID_MOVE)
    status, out, err = run_check(capsys, scenario, move)
    assert_one_clear_line(status, out, err, scenario, json_path, words)
