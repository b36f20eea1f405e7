"""`manoeuvre schema NAME`: the published JSON Schemas (docs/schemas/) are today's models'
(a stale file fails here), and every result the command line writes for the bundled
examples (`--json`) validates against its schema, by the model and by an independent
JSON Schema validator."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest

import optimizer
from constraints.schema import SCHEMAS, json_schema, validate
from optimizer.cli import main
from optimizer.cli.schema import NAMES, schema_text
from tests.support import ROOT

DOCS = ROOT / "docs" / "schemas"
REGENERATE = ("for n in " + " ".join(NAMES) + "; do .venv/bin/manoeuvre schema $n --out "
              "docs/schemas/$n.json; done")


def test_the_command_names_are_the_models() -> None:
    assert tuple(SCHEMAS) == NAMES


@pytest.mark.parametrize("name", NAMES)
def test_the_published_schema_is_current(name: str) -> None:
    published = DOCS / f"{name}.json"
    assert published.exists(), f"docs/schemas/{name}.json missing: run {REGENERATE}"
    assert published.read_text(encoding="utf-8") == schema_text(name), \
        f"docs/schemas/{name}.json is stale: run {REGENERATE}"


def test_schema_prints_and_writes_the_same(tmp_path: Path, capsys: Any) -> None:
    assert main(["schema", "move"]) == 0
    printed = capsys.readouterr().out
    assert json.loads(printed) == json_schema("move")
    out = tmp_path / "move.json"
    assert main(["schema", "move", "--out", str(out)]) == 0
    assert capsys.readouterr().out == ""
    assert out.read_text(encoding="utf-8") == printed


def test_an_unknown_name_is_bad_input(capsys: Any) -> None:
    assert main(["schema", "unit"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "invalid choice: 'unit'" in err


def test_an_unwritable_out_is_bad_input_and_leaves_nothing(tmp_path: Path, capsys: Any) -> None:
    out = tmp_path / "missing" / "move.json"
    assert main(["schema", "move", "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "cannot write file" in err
    assert not out.parent.exists()


E = str(ROOT / "examples")
# (command line with --json, the schema its output follows); `{out}` is a file an earlier
# command wrote (its name).
COMMANDS: list[tuple[str, list[str], str]] = [
    ("v_march", ["check", f"{E}/spears.json", f"{E}/spears_march.json"], "verdict"),
    ("v_referee", ["check", f"{E}/spears.json", f"{E}/spears_march.json", "--referee", "0.5"],
     "verdict"),
    ("v_goblins", ["check", f"{E}/goblins.json", f"{E}/goblins_turn.json"], "verdict"),
    ("v_ruins", ["check", f"{E}/ruins.json", f"{E}/ruins_route.json"], "verdict"),
    ("v_climb", ["check", f"{E}/climb_tower.json", f"{E}/climb_tower_route.json"], "verdict"),
    ("v_jump", ["check", f"{E}/rooftop_gap.json", f"{E}/rooftop_gap_route.json"], "verdict"),
    ("s_forward", ["solve", f"{E}/spears.json", "--unit", "spears", "--manoeuvre", "march",
                   "--forward", "--time-limit", "30"], "search-result"),
    ("s_front", ["solve", f"{E}/flank_march.json", "--unit", "knights", "--manoeuvre",
                 "march", "--target", "42,18.5", "--front", "--time-limit", "30"],
     "search-result"),
    ("s_goblins", ["solve", f"{E}/goblins.json", "--unit", "goblins", "--manoeuvre", "move",
                   "--forward", "--time-limit", "30"], "search-result"),
    ("s_pivot", ["solve", f"{E}/combat.json", "--unit", "A", "--manoeuvre",
                 "post_combat_pivot", "--facing", "0", "--time-limit", "30"], "search-result"),
    ("v_solved", ["check", f"{E}/flank_march.json", "{s_front}"], "verdict"),
    ("n_melee", ["nudge", f"{E}/melee.json", "--casualties", f"{E}/melee_casualties.json"],
     "nudge-result"),
    ("v_nudges", ["check", f"{E}/melee.json", "{n_melee}"], "verdict"),
    ("c_combat", ["combat-reform", f"{E}/combat.json", "--result",
                  f"{E}/combat_result.json"], "combat-reform-result"),
    ("v_reform", ["check", f"{E}/combat.json", "{c_combat}", "--result",
                  f"{E}/combat_result.json"], "verdict"),
    ("r_move_move", ["route", f"{E}/ruins.json", "--unit", "fusilier", "--to", "9.3,16.3",
                     "--skill", "move_move"], "route-result"),
    ("r_auto", ["route", f"{E}/ruins.json", "--unit", "fusilier", "--to", "9.3,16.3"],
     "route-result"),
    ("r_reach", ["route", f"{E}/ruins.json", "--unit", "fusilier", "--reach"], "route-result"),
    ("v_route", ["check", f"{E}/ruins.json", "{r_move_move}"], "verdict"),
    ("v_exposure", ["check", f"{E}/ruins.json", f"{E}/ruins_route.json", "--exposure"],
     "verdict"),
    ("v_nudged_again", ["check", f"{E}/melee.json", "{v_nudges}", "--casualties",
                        f"{E}/melee_casualties.json"], "verdict"),
]


@pytest.fixture(scope="module")
def outputs(tmp_path_factory: Any) -> dict[str, tuple[int, str]]:
    """Every command's exit status and JSON output, run once."""
    import contextlib
    import io

    folder = tmp_path_factory.mktemp("outputs")
    found: dict[str, tuple[int, str]] = {}
    for key, argv, _ in COMMANDS:
        words = [w.format(**{k: str(folder / f"{k}.json") for k in found}) for w in argv]
        printed = io.StringIO()
        with contextlib.redirect_stdout(printed):
            code = main([*words, "--json"])
        (folder / f"{key}.json").write_text(printed.getvalue(), encoding="utf-8")
        found[key] = (code, printed.getvalue())
    return found


def _not_json(token: str) -> Any:
    raise AssertionError(f"{token} is not JSON")


@pytest.mark.parametrize(("key", "name"), [(k, n) for k, _, n in COMMANDS])
def test_every_result_validates(outputs: dict[str, tuple[int, str]], key: str,
                                name: str) -> None:
    code, text = outputs[key]
    assert code in (0, 1), text
    validate(name, text)
    data = json.loads(text, parse_constant=_not_json)  # strict JSON: no Infinity, no NaN
    errors = [e.message for e in
              jsonschema.Draft202012Validator(json_schema(name)).iter_errors(data)]
    assert errors == []


def test_a_combat_reform_result_is_a_proposal(outputs: dict[str, tuple[int, str]]) -> None:
    """`check` judges a `combat-reform --json` result as a proposal: so does its schema."""
    validate("combat-reform", outputs["c_combat"][1])
    data = json.loads(outputs["c_combat"][1])
    assert list(jsonschema.Draft202012Validator(json_schema("combat-reform"))
                .iter_errors(data)) == []


def test_nudge_results_and_verdicts_are_nudges_files(
        outputs: dict[str, tuple[int, str]]) -> None:
    """`check` judges a `nudge --json` result, or the nudges' verdict, as a player's nudges:
    so does the `nudges` schema."""
    for key in ("n_melee", "v_nudges"):
        validate("nudges", outputs[key][1])
        data = json.loads(outputs[key][1])
        assert list(jsonschema.Draft202012Validator(json_schema("nudges"))
                    .iter_errors(data)) == []


@pytest.mark.parametrize("legs", [[], [{"sideways": 0.1}, {"sideways": 0.1},
                                      {"forward": 0.1}]])
def test_a_verdict_on_nudges_of_any_number_of_legs_validates(tmp_path: Path, capsys: Any,
                                                             legs: list[Any]) -> None:
    """A unit the player leaves standing, or nudges in three legs (nudge.legs breaks), is
    judged and printed as the schema says (the fuzz found both off it)."""
    nudges = tmp_path / "nudges.json"
    nudges.write_text(json.dumps({"nudges": [{"unit": "wolves", "legs": legs}]}),
                      encoding="utf-8")
    status = main(["check", f"{E}/melee.json", str(nudges), "--casualties",
                   f"{E}/melee_casualties.json", "--json"])
    verdict = validate("verdict", capsys.readouterr().out)
    assert status == (0 if verdict.legal else 1)
    assert verdict.nudges[0].legs == legs
    if len(legs) > 2:
        assert "nudge.legs" in {v.clause for v in verdict.violations}


def test_the_exposure_verdict_is_checked_against_its_schema(
        outputs: dict[str, tuple[int, str]], capsys: Any) -> None:
    """`check --exposure --json` is read back through the verdict's model as the others: a
    key the model lacks is not printed."""
    from constraints.schema import ResultOffSchemaError
    from optimizer.cli.check import check_answer
    from optimizer.cli.results import Answer

    data = json.loads(outputs["v_exposure"][1])
    assert {"exposure", "aro_by", "zoc_by", "exposed", "sampled"} <= set(data)
    scenario = optimizer.load_scenario(f"{E}/ruins.json")
    answer = check_answer(scenario, json.loads(Path(f"{E}/ruins_route.json").read_text()),
                          source="route", exposure=True)
    assert answer.schema == "verdict"
    assert answer.print(True) == 0
    assert json.loads(capsys.readouterr().out) == data
    with pytest.raises(ResultOffSchemaError, match="does not follow its schema"):
        Answer({**answer.data, "surprise": 1}, 0, str, schema=answer.schema).print(True)
    assert capsys.readouterr().out == ""


def test_an_illegal_verdict_validates(tmp_path: Path, capsys: Any) -> None:
    move = tmp_path / "far.json"
    move.write_text(json.dumps({"unit": "spears", "manoeuvre": "march",
                                "steps": [{"forward": 20.0}]}), encoding="utf-8")
    assert main(["check", f"{E}/spears.json", str(move), "--json"]) == 1
    text = capsys.readouterr().out
    verdict = validate("verdict", text)
    assert verdict.legal is False and verdict.violations


def test_a_result_with_a_key_the_schema_lacks_fails(outputs: dict[str, tuple[int, str]]) \
        -> None:
    """The result models are closed: a key a writer adds must be added to its model."""
    data = json.loads(outputs["n_melee"][1])
    data["surprise"] = 1
    with pytest.raises(ValueError, match="surprise"):
        validate("nudge-result", data)
    assert list(jsonschema.Draft202012Validator(json_schema("nudge-result"))
                .iter_errors(data)) != []


def loaded(*argv: str) -> tuple[int, list[str]]:
    """Exit status of `manoeuvre argv` run in a fresh process, and whether it loaded pydantic."""
    import subprocess
    import sys

    from tests.optimizer.cli.test_startup import PROBE

    done = subprocess.run([sys.executable, "-c", PROBE, json.dumps(argv),
                           json.dumps(["pydantic"])], capture_output=True, text=True, cwd=ROOT,
                          timeout=120, check=True)
    report = json.loads(done.stderr.strip().splitlines()[-1])
    return report["status"], report["loaded"]


def test_reading_through_the_kept_validators_loads_no_pydantic(tmp_path: Path) -> None:
    """`--version` stays off pydantic (start-up, benchmarks/bench_startup.py); `check` reads
    its files through the models' validators, kept between runs (constraints/schema/
    compiled.py), good or bad, without loading pydantic once they are kept."""
    assert loaded("--version") == (0, [])
    loaded("check", "examples/spears.json", "examples/spears_march.json")  # keep them
    assert loaded("check", "examples/spears.json", "examples/spears_march.json") == (0, [])
    move = tmp_path / "move.json"
    move.write_text(json.dumps({"unit": "spears", "manoeuvre": "march", "speed": 3}),
                    encoding="utf-8")
    assert loaded("check", "examples/spears.json", str(move)) == (2, [])


def test_the_probe_sees_pydantic_when_loaded() -> None:
    """`--json` reads the verdict back through its result model's kept validator (no
    pydantic); `schema` generates a JSON Schema with pydantic: the probe sees it (the tests
    above would prove nothing otherwise)."""
    loaded("check", "examples/spears.json", "examples/spears_march.json", "--json")
    assert loaded("check", "examples/spears.json", "examples/spears_march.json", "--json") \
        == (0, [])
    assert loaded("schema", "move") == (0, ["pydantic"])


def test_a_result_off_its_schema_is_not_printed(capsys: Any) -> None:
    """Each command's `--json` answer is read back through its result model before it is
    printed: a key the model lacks is our bug (an AssertionError), and nothing is printed."""
    from constraints.schema import ResultOffSchemaError
    from optimizer.cli.results import Answer

    good = json.loads(validate_text("v_march"))
    assert Answer(good, 0, str, schema="verdict").print(True) == 0
    assert json.loads(capsys.readouterr().out) == good
    with pytest.raises(ResultOffSchemaError, match="surprise"):
        Answer({**good, "surprise": 1}, 0, str, schema="verdict").print(True)
    assert capsys.readouterr().out == ""


def validate_text(key: str) -> str:
    """The `--json` output of the command `key` of COMMANDS (run here, alone)."""
    import contextlib
    import io

    argv = next(argv for k, argv, _ in COMMANDS if k == key)
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        main([*argv, "--json"])
    return printed.getvalue()
