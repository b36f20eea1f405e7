"""pydantic's errors translated (constraints/schema/errors.py): one line of at most 280
characters naming the file and the JSON path, in the readers' words, never pydantic's text.

A seeded fuzz of hostile changes to the bundled examples (the strategies of
tests/optimizer/cli/test_fuzz.py) checks the line, and that what `read` refuses the readers
refuse too (they validate through the models, then check what needs the scenario); on the
table of broken files of test_models.py the readers and `read` name the path and the problem
the hand-written readers named (words.py)."""

from __future__ import annotations

from functools import cache
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from constraints.errors import MAX_MESSAGE, InvalidInputError
from constraints.schema.errors import read
from tests.constraints.schema.test_models import (
    BROKEN,
    DELETE,
    INPUTS,
    _set,
    load,
    reader_refuses,
)
from tests.constraints.schema.words import WORDS
from tests.optimizer.cli.test_fuzz import BASE, mutated

RAW = ("Input should", "pydantic", "validation error", "type=", "errors.pydantic.dev",
       "function-after", "constrained-")
SOURCE = "some/folder/input.json"


def assert_one_translated_line(error: InvalidInputError) -> None:
    line = str(error)
    assert "\n" not in line and len(line) <= MAX_MESSAGE, line
    assert line.startswith(f"{SOURCE}: $"), line
    assert not any(word in line for word in RAW), line


FUZZED = sorted(INPUTS)


@settings(max_examples=max(1, BASE * 5), deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data(), name=st.sampled_from(FUZZED))
def test_hostile_files_give_one_translated_line(data: st.DataObject, name: str) -> None:
    fmt = INPUTS[name]
    doc = data.draw(mutated(load(name)))
    try:
        read(fmt, doc, SOURCE)
    except InvalidInputError as error:
        assert_one_translated_line(error)
        # What `read` refuses, the reader refuses (for a move: its system's reader).
        assert reader_refuses(fmt, doc), (str(error), doc)


@pytest.mark.parametrize("value", [float("nan"), float("inf"), 10**400, "\ud800", "x" * 100_000,
                                   None, [], {}, True])
def test_hostile_values_give_one_translated_line(value: Any) -> None:
    doc = _set(load("spears.json"), ("units", 0, "base", 0), value)
    with pytest.raises(InvalidInputError) as caught:
        read("scenario", doc, SOURCE)
    assert_one_translated_line(caught.value)
    assert caught.value.path == "$.units[0].base[0]"


# Where the words differ: `read("move")` does not know the system, so it names the
# manoeuvres of both (a reader knows the scenario's rules).
OTHER_WORDS = {("spears_march.json", ("manoeuvre",))}


def test_the_readers_keep_the_words_of_the_hand_written_readers() -> None:
    """Each broken file gets the JSON path and the problem it got before the models decided
    (tests/constraints/schema/words.py, recorded from the hand-written readers); `read` (any
    system's model for a move) says the same."""
    cases = [(name, path, INPUTS[name], _set(load(name), path, value))
             for name, path, value in BROKEN]
    cases += [("proposal", path, "combat-reform", _set(PROPOSAL, path, value))
              for path, value in BROKEN_PROPOSALS]
    assert [(name, path) for name, path, *_ in WORDS] == [(n, p) for n, p, *_ in cases]
    for (name, path, fmt, doc), (*_, json_path, recorded) in zip(cases, WORDS, strict=True):
        problem = _registry_now(recorded)
        with pytest.raises(InvalidInputError) as theirs:
            _read_by_reader(fmt, doc)
        assert (theirs.value.path, theirs.value.problem) == (json_path, problem), (name, path)
        with pytest.raises(InvalidInputError) as mine:
            read(fmt, doc, SOURCE)
        assert mine.value.path == json_path, (name, path, str(mine.value))
        if (name, path) not in OTHER_WORDS:
            assert mine.value.problem == problem, (name, path, str(mine.value))


def _registry_now(problem: str) -> str:
    """The recorded words, with the profiles known now: an unknown profile's message lists
    the registry (a test may have registered one, as the conformance suite's toy)."""
    from constraints.core.profile import PROFILES

    head = "unknown rules profile "
    if not problem.startswith(head) or "(known: " not in problem:
        return problem
    return problem[:problem.index("(known: ")] + f"(known: {', '.join(sorted(PROFILES))})"


def _read_by_reader(fmt: str, doc: Any) -> None:
    """The reader the command line uses for `fmt` (a move: its system's)."""
    from constraints.core.scenario_io import scenario_from_json
    from constraints.infinity.route import route_from_json
    from constraints.t9a.combat_reform_io import combat_reform_from_json, combat_result_from_json
    from constraints.t9a.move_io import move_from_json as t9a_move
    from constraints.whfb7.move_io import move_from_json as whfb7_move
    from optimizer.nudge.losses import losses_from_json

    if fmt == "scenario":
        scenario_from_json(doc)
    elif fmt == "move":
        (whfb7_move if doc.get("unit") == "goblins" else t9a_move)(doc)
    elif fmt == "route":
        route_from_json(doc)
    elif fmt == "casualties":
        losses_from_json(doc, scenario_from_json(load("melee.json")))
    elif fmt == "combat-reform":
        combat_reform_from_json(doc)
    else:
        combat_result_from_json(doc)


PROPOSAL = {"manoeuvre": "combat_reform",
            "reforms": [{"unit": "A", "files": 6, "centre": [30.1, 20.0], "facing": 90.0,
                         "models": [{"id": "hero", "slot": [0, 2]}]}]}
BROKEN_PROPOSALS = [
    (("manoeuvre",), "reform"), (("reforms",), []), (("reforms", 0, "files"), 0),
    (("reforms", 0, "models", 0, "slot"), [0]), (("reforms", 0, "extra"), 1),
    (("reforms", 0, "unit"), DELETE), (("reforms", 0, "centre"), [1e7, 0]),
]


NUDGES = {"status": "OPTIMAL", "nudges": [{"unit": "wolves", "legs": [{"sideways": 0.2}],
                                           "distance": 0.2, "touches": ["orcs"]}],
          "order": ["wolves"], "in_combat": 3}
BROKEN_NUDGES = [
    (("nudges",), DELETE), (("nudges",), "wolves"), (("nudges", 0), 5),
    (("nudges", 0, "unit"), 5), (("nudges", 0, "unit"), ""), (("nudges", 0, "legs"), DELETE),
    (("nudges", 0, "legs"), {"sideways": 0.2}), (("nudges", 0, "legs", 0), {"up": 1.0}),
    (("nudges", 0, "legs", 0), {"forward": 1.0, "sideways": 0.2}),
    (("nudges", 0, "legs", 0), [0.2]), (("nudges", 0, "legs", 0, "sideways"), "far"),
    (("nudges", 0, "legs", 0, "sideways"), True), (("nudges", 0, "legs", 0, "sideways"), 1e7),
    (("nudges", 0, "legs", 0, "sideways"), None), (("order",), "wolves"), (("order", 0), 5),
    (("extra",), 1),
]


def test_the_nudges_reader_keeps_its_words_or_the_models() -> None:
    """Each broken nudges file gets the JSON path the hand-written reader named, and its
    problem, or the model's where words.NUDGE_WORDS records the change; `read("nudges")`
    says the same, and a `nudge --json` result and the nudges' verdict are read."""
    from constraints.core.scenario_io import scenario_from_json
    from optimizer.nudge.judge import judge_nudges
    from optimizer.nudge.losses import losses_from_json
    from tests.constraints.schema.words import NUDGE_WORDS

    scenario = scenario_from_json(load("melee.json"))
    losses = losses_from_json(load("melee_casualties.json"), scenario)
    assert [p for p, *_ in NUDGE_WORDS] == [p for p, _ in BROKEN_NUDGES]
    for (path, value), (_, json_path, before, now) in zip(BROKEN_NUDGES, NUDGE_WORDS,
                                                          strict=True):
        doc = _set(NUDGES, path, value)
        with pytest.raises(InvalidInputError) as theirs:
            judge_nudges(scenario, losses, doc)
        assert (theirs.value.path, theirs.value.problem) == (json_path, now or before), path
        with pytest.raises(InvalidInputError) as mine:
            read("nudges", doc, SOURCE)
        assert_one_translated_line(mine.value)
        assert (mine.value.path, mine.value.problem) == (json_path, now or before), path
    assert judge_nudges(scenario, losses, NUDGES).legal
    verdict = judge_nudges(scenario, losses, NUDGES).to_json()
    assert judge_nudges(scenario, losses, {**verdict, "casualties": {}}).legal


@pytest.mark.parametrize(("doc", "path", "problem"), [
    ({"nudges": [{"unit": "ghosts", "legs": []}]}, "$.nudges[0].unit",
     "unknown or wiped-out unit 'ghosts' (units: spears, orcs, wolves)"),
    ({"nudges": [{"unit": "wolves", "legs": []}, {"unit": "wolves", "legs": []}]},
     "$.nudges[1]", "unit 'wolves' is nudged twice"),
    ({"nudges": [], "order": ["wolves", "wolves"]}, "$.order[1]",
     "unit 'wolves' is listed twice"),
])
def test_what_needs_the_scenario_is_the_readers(doc: Any, path: str, problem: str) -> None:
    """The model accepts these (it does not know the units); the reader refuses them."""
    from constraints.core.scenario_io import scenario_from_json
    from optimizer.nudge.judge import judge_nudges

    read("nudges", doc, SOURCE)
    with pytest.raises(InvalidInputError) as caught:
        judge_nudges(scenario_from_json(load("melee.json")), (), doc)
    assert (caught.value.path, caught.value.problem) == (path, problem)


@settings(max_examples=max(1, BASE * 5), deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(doc=mutated(NUDGES))
def test_hostile_nudges_give_one_translated_line(doc: Any) -> None:
    """What the nudges model refuses, the judge's reader refuses, in one translated line."""
    from optimizer.nudge.judge import _read_nudges

    try:
        read("nudges", doc, SOURCE)
        refused = None
    except InvalidInputError as error:
        assert_one_translated_line(error)
        refused = error
    try:
        _read_nudges(doc, _melee())
    except InvalidInputError as error:
        line = str(error.in_file(SOURCE))
        assert "\n" not in line and len(line) <= MAX_MESSAGE, line
        if refused is not None:
            assert (error.path, error.problem) == (refused.path, refused.problem)
    else:
        assert refused is None, (str(refused), doc)



@cache
def _melee() -> Any:
    from constraints.core.scenario_io import scenario_from_json

    return scenario_from_json(load("melee.json"))
