"""The Python API validates what is built in Python: every public constructor and function
raises `InvalidInputError` (one line, at most 300 characters, naming the argument) for bad
values, never another exception and never a verdict on nonsense."""

from __future__ import annotations

import math
from dataclasses import replace
from typing import Any

import numpy as np
import pytest

from constraints.core.profile import find_profile
from constraints.core.scenario import Battlefield, Pose, Terrain
from constraints.errors import InvalidInputError
from constraints.rank_and_file.formation import Character, Formation
from constraints.rank_and_file.unit import Base
from constraints.t9a.moves import Step
from optimizer import (
    BatchJudge,
    Lattice,
    Move,
    Objective,
    best_move,
    check_move,
    forward,
    is_legal,
    legal_mask,
    legal_moves,
    legal_region,
    load_scenario,
    nearest_legal,
    reach,
    save_scenario,
    wheel,
    why_not,
)
from tests.support import ROOT, scenario, unit

SPEARS = load_scenario(ROOT / "examples" / "spears.json")
NAN, INF = math.nan, math.inf


def assert_invalid(call: Any, *words: str) -> InvalidInputError:
    with pytest.raises(InvalidInputError) as caught:
        call()
    message = str(caught.value)
    assert "\n" not in message and len(message) <= 300, message
    for word in words:
        assert word in message, f"{word!r} not in {message!r}"
    return caught.value


@pytest.mark.parametrize(("build", "words"), [
    (lambda: forward(-1), ("forward", ">= 0")),
    (lambda: forward(NAN), ("forward", "finite")),
    (lambda: forward(INF), ("forward", "finite")),
    (lambda: forward(1e300), ("forward", "magnitude")),
    (lambda: forward("3"), ("forward", "number")),
    (lambda: forward(True), ("forward", "number")),
    (lambda: wheel(91), ("wheel", "90")),
    (lambda: wheel(-90.5), ("wheel", "90")),
    (lambda: wheel(NAN), ("wheel", "finite")),
    (lambda: Step("turn", 5.0), ("turn", "90")),
    (lambda: Step("slide", 5.0), ("kind", "slide")),
])
def test_steps_are_checked(build: Any, words: tuple[str, ...]) -> None:
    assert_invalid(build, *words)


def test_a_march_with_a_backward_step_is_not_judged() -> None:
    """It used to be judged LEGAL."""
    assert_invalid(lambda: check_move(SPEARS, Move("spears", "march", (forward(-1),))),
                   "forward")


@pytest.mark.parametrize(("changes", "words"), [
    ({"steps": ({"forward": 1.0},)}, ("steps[0]", "Step")),
    ({"steps": (("turn", 5.0),)}, ("steps[0]", "Step")),
    ({"steps": "forward"}, ("steps",)),
    ({"steps": (forward(1.0),) * 101}, ("steps", "at most 100")),
    ({"unit": ""}, ("unit", "non-empty")),
    ({"unit": "a\ud800"}, ("unit", "printable")),
    ({"unit": 7}, ("unit", "string")),
    ({"manoeuvre": "charge"}, ("manoeuvre", "charge")),
    ({"pivot_deg": 15.0}, ("pivot_deg", "Advance")),
    ({"files": 0}, ("files", ">= 1")),
    ({"files": 2.5}, ("files", "whole")),
    ({"files": 5000}, ("files", "<= 1000")),
    ({"centre": (NAN, 1.0), "facing_deg": 90.0, "steps": ()}, ("centre[0]", "finite")),
    ({"centre": (1.0, 2.0, 3.0), "facing_deg": 90.0, "steps": ()}, ("centre", "3 items")),
    ({"centre": (1.0, 2.0), "facing_deg": INF, "steps": ()}, ("facing_deg", "finite")),
    ({"centre": (1.0, 2.0), "steps": ()}, ("centre", "both")),
    ({"centre": (1.0, 2.0), "facing_deg": 0.0}, ("steps", "not both")),
    ({"assignment": (("spears.0", (0, -1)),)}, ("assignment", ">= 0")),
    ({"assignment": (("spears.0",),)}, ("assignment", "pairs")),
])
def test_moves_are_checked(changes: dict[str, Any], words: tuple[str, ...]) -> None:
    base = {"unit": "spears", "manoeuvre": "march", "steps": (forward(1.0),)}
    assert_invalid(lambda: Move(**{**base, **changes}), *words)


def test_advance_pivot_bounds_and_reform_without_steps() -> None:
    assert_invalid(lambda: Move("spears", "advance", pivot_deg=NAN), "pivot_deg", "finite")
    assert_invalid(lambda: Move("spears", "advance", pivot_deg=400.0), "pivot_deg", "360")
    assert_invalid(lambda: Move("spears", "reform", steps=(forward(1.0),)), "steps",
                   "Reform")


def test_valid_moves_still_build_and_judge() -> None:
    move = Move("spears", "march", [forward(2.0), wheel(-45.0), forward(3.0)])
    assert move.steps == (forward(2.0), wheel(-45.0), forward(3.0))  # a list becomes a tuple
    assert check_move(SPEARS, move).legal
    reform = Move("spears", "reform", assignment={"captain": (0, 2)})
    assert reform.assignment == (("captain", (0, 2)),)


def test_a_reform_with_nothing_given_stands_still() -> None:
    """docs/formats.md: no centre, facing or files means the unit's own."""
    verdict = check_move(SPEARS, Move("spears", "reform"))
    start = SPEARS.unit("spears")
    assert verdict.legal and verdict.end_centre == start.pose.centre
    assert verdict.end_files == start.files


@pytest.mark.parametrize(("build", "words"), [
    (lambda: Lattice(inch=0), ("inch", ">= 0.001")),
    (lambda: Lattice(inch=-1), ("inch",)),
    (lambda: Lattice(inch=NAN), ("inch", "finite")),
    (lambda: Lattice(inch=100.0), ("inch", "<= 10")),
    (lambda: Lattice(degree=0.0), ("degree",)),
    (lambda: Lattice(degree=INF), ("degree", "finite")),
    (lambda: Lattice(advance_wheel_deg=0.1), ("advance_wheel_deg",)),
    (lambda: Lattice(advance_wheel_deg=180.0), ("advance_wheel_deg", "<= 90")),
])
def test_lattices_are_checked(build: Any, words: tuple[str, ...]) -> None:
    assert_invalid(build, *words)


@pytest.mark.parametrize(("build", "words"), [
    (lambda: Objective("target_distance", (NAN, 1.0)), ("objective.point[0]", "finite")),
    (lambda: Objective("target_distance", (1.0, 1e300)), ("objective.point[1]", "magnitude")),
    (lambda: Objective("target_distance", (1.0,)), ("objective.point", "1 items")),
    (lambda: Objective("target_distance", "12"), ("objective.point",)),
    (lambda: Objective("target_pose", (1.0, 2.0), INF), ("objective.facing_deg", "finite")),
    (lambda: Objective(["forward"]), ("objective", "unknown")),  # type: ignore[arg-type]
    (lambda: Objective("sideways"), ("objective", "unknown")),
])
def test_objectives_are_checked(build: Any, words: tuple[str, ...]) -> None:
    assert_invalid(build, *words)


GOOD_UNIT = unit("u")


@pytest.mark.parametrize(("build", "words"), [
    (lambda: Base(0.0, 20.0), ("frontage_mm", "> 0")),
    (lambda: Base(20.0, NAN), ("depth_mm", "finite")),
    (lambda: Base(20.0, 5000.0), ("depth_mm", "<= 1000")),
    (lambda: Formation(0, 10), ("files", ">= 1")),
    (lambda: Formation(5, -1), ("models", ">= 0")),
    (lambda: Formation(5, 10, (("captain", (0, 1)),)), ("characters[0]", "Character")),
    (lambda: Formation(5, 10, (), ((0, -1),)), ("empty[0][1]", ">= 0")),
    (lambda: Character("", (0, 0)), ("character id",)),
    (lambda: Character("c", (0,)), ("slot",)),
    (lambda: replace(GOOD_UNIT, id="a\nb"), ("id", "printable")),
    (lambda: replace(GOOD_UNIT, mobility_in=0.0), ("mobility_in", "> 0")),
    (lambda: replace(GOOD_UNIT, mobility_in=100.0), ("mobility_in", "<= 20")),
    (lambda: replace(GOOD_UNIT, height=6), ("height", "<= 5")),
    (lambda: replace(GOOD_UNIT, musician=1), ("musician", "true or false")),
    (lambda: replace(GOOD_UNIT, pose=Pose((NAN, 1.0), 90.0)), ("pose.centre[0]", "finite")),
    (lambda: replace(GOOD_UNIT, pose=Pose((1.0, 1.0), INF)), ("pose.facing_deg", "finite")),
    (lambda: replace(GOOD_UNIT, base=(20.0, 20.0)), ("base", "Base")),
    (lambda: Terrain("t", "impassable", ((0, 0), (1, 0)),), ("polygon", "3")),
    (lambda: Terrain("t", "impassable", ((0, 0), (1, 0), (2, 0))), ("polygon", "degenerate")),
    (lambda: Terrain("t", "impassable", ((0, 0), (4, 3), (4, 0), (0, 3))), ("not simple",)),
    (lambda: Terrain("t", "impassable", ((0, 0), (1, 0), (NAN, 1))), ("polygon[2][0]",)),
    (lambda: Terrain("t", "impassable", ((0, 0), (1, 0), (0, 1)), test=9), ("test", "<= 6")),
    (lambda: Battlefield(0.0, 48.0), ("width_in", "> 0")),
    (lambda: Battlefield(72.0, INF), ("depth_in", "finite")),
])
def test_domain_values_are_checked(build: Any, words: tuple[str, ...]) -> None:
    assert_invalid(build, *words)


def test_facings_are_kept_in_0_to_360() -> None:
    """A verdict prints 90, not 450 (and -1e-20 is 0, not 360)."""
    assert replace(GOOD_UNIT, pose=Pose((36.0, 10.0), 450.0)).pose.facing_deg == 90.0
    assert replace(GOOD_UNIT, pose=Pose((36.0, 10.0), -1e-20)).pose.facing_deg == 0.0
    verdict = check_move(scenario(GOOD_UNIT), Move("u", "reform", facing_deg=450.0))
    assert verdict.end_facing_deg == 90.0


@pytest.mark.parametrize(("value", "words"), [
    (1e7, ("march_mob", "<= 10")),
    (1e300, ("march_mob", "<= 10")),
    (10**400, ("march_mob", "too large")),
    (-1.0, ("march_mob", ">= 0")),
])
def test_rule_options_are_bounded(value: Any, words: tuple[str, ...]) -> None:
    assert_invalid(lambda: find_profile("t9a").with_options({"march_mob": value}), *words)


@pytest.mark.parametrize(("key", "value", "word"), [
    ("end_spacing_in", 1e300, "<= 24"),
    ("heading_window_deg", 360.0, "<= 180"),
    ("max_file_change", 10**6, "<= 1000"),
    ("proper_rank_width", [5, 5, 5, 3, 3, 10**9], "at most 1000"),
])
def test_each_kind_of_option_has_its_bound(key: str, value: Any, word: str) -> None:
    assert_invalid(lambda: find_profile("t9a").with_options({key: value}), key, word)


def test_sane_options_are_accepted() -> None:
    profile = find_profile("t9a").with_options({"march_mob": 10, "end_spacing_in": 24.0,
                                                 "heading_window_deg": 180.0})
    assert profile.param("march_mob") == 10


CENTRES = np.array([[36.0, 14.0], [36.0, 12.0]])


@pytest.mark.parametrize(("call", "words"), [
    (lambda j: j.mask(np.array([[NAN, 1.0]]), [90.0]), ("centres", "finite")),
    (lambda j: j.mask(CENTRES, [90.0, INF]), ("facings", "finite")),
    (lambda j: j.mask(np.zeros((3, 4)), np.zeros(3)), ("centres", "shape")),
    (lambda j: j.mask(CENTRES, np.zeros(3)), ("facings", "shape")),
    (lambda j: j.mask(CENTRES, [90.0, 90.0], pivots=[NAN, 0.0]), ("pivots", "finite")),
    (lambda j: j.mask(CENTRES, [90.0, 90.0], files=0), ("files", "1 to")),
    (lambda j: j.mask(CENTRES, [90.0, 90.0], files=[5.5, 5]), ("files", "whole")),
    (lambda j: j.mask([["a", "b"]], [90.0]), ("centres", "numbers")),
    (lambda j: j.end_positions(CENTRES, [90.0, 90.0], [1.0, -1.0], [1.0, 1.0]),
     ("widths", "> 0")),
    (lambda j: j.end_positions(CENTRES, [90.0, 90.0], [1.0, 1.0], [1.0, 1.0], NAN),
     ("slack_in", "finite")),
])
def test_batch_judge_arguments_are_checked(call: Any, words: tuple[str, ...]) -> None:
    judge = BatchJudge(SPEARS, "spears", "march")
    assert_invalid(lambda: call(judge), *words)


def test_batch_judge_accepts_one_pose_and_no_poses() -> None:
    judge = BatchJudge(SPEARS, "spears", "march")
    assert judge.mask([36.0, 14.0], 90.0).shape == (1,)
    assert judge.mask(np.zeros((0, 2)), np.zeros(0)).shape == (0,)
    assert judge.mask([], []).shape == (0,)


@pytest.mark.parametrize(("call", "words"), [
    (lambda: BatchJudge(SPEARS, "ghost", "march"), ("unit_id", "ghost")),
    (lambda: BatchJudge(SPEARS, ["spears"], "march"), ("unit_id", "string")),
    (lambda: BatchJudge(SPEARS, "spears", "charge"), ("manoeuvre", "charge")),
    (lambda: BatchJudge("spears.json", "spears", "march"), ("scenario", "Scenario")),
    (lambda: BatchJudge(SPEARS, "spears", "march", margin_in=NAN), ("margin_in",)),
    (lambda: legal_mask(SPEARS, "ghost", "march", CENTRES, [90.0, 90.0]), ("unit_id",)),
    (lambda: legal_mask(SPEARS, "spears", "march", CENTRES, [NAN, 90.0]), ("facings",)),
    (lambda: legal_moves(SPEARS, "ghost", "march"), ("unit_id", "ghost")),
    (lambda: legal_moves(SPEARS, "spears", "march", lattice=0.1), ("lattice", "Lattice")),
    (lambda: legal_region(SPEARS, "spears", "march", NAN), ("facing_deg", "finite")),
    (lambda: legal_region(SPEARS, "spears", "march", 90.0, files=0), ("files", ">= 1")),
    (lambda: legal_region(SPEARS, "spears", "reform", 90.0, files=2.0), ("files", "whole")),
    (lambda: nearest_legal(SPEARS, "spears", "march", (NAN, 1.0), 90.0), ("point[0]",)),
    (lambda: nearest_legal(SPEARS, "spears", "march", (36.0, 12.0), INF), ("facing_deg",)),
    (lambda: nearest_legal(SPEARS, "ghost", "march", (36.0, 12.0), 90.0), ("unit_id",)),
    (lambda: reach(SPEARS, "spears", "march", (36.0, INF), 90.0), ("point[1]",)),
    (lambda: reach(SPEARS, "spears", "march", (36.0, 12.0), NAN), ("facing_deg",)),
    (lambda: reach(SPEARS, "spears", "march", (36.0, 12.0), 90.0, lattice=Lattice(inch=0)),
     ("inch",)),
    (lambda: why_not(SPEARS, Move("ghost", "march", (forward(1.0),))), ("unit", "ghost")),
    (lambda: best_move(SPEARS, "spears", "march", Objective("forward"), time_limit_s=NAN),
     ("time_limit_s",)),
    (lambda: is_legal(SPEARS, {"unit": "spears"}), ("move", "Move")),
    (lambda: best_move(SPEARS, ["spears"], "march", Objective("forward")), ("unit_id", "string")),
    (lambda: reach(SPEARS, "spears", ["march"], (36.0, 12.0), 90.0), ("manoeuvre", "string")),
    (lambda: reach(SPEARS, "spears", "march", (36.0, 12.0), 90.0, tolerance_in=NAN),
     ("tolerance_in", "finite")),
    (lambda: reach(SPEARS, "spears", "march", (36.0, 12.0), 90.0, tolerance_in=-1.0),
     ("tolerance_in", ">= 0")),
    (lambda: check_move(SPEARS, "x"), ("move", "Move")),
    (lambda: save_scenario(SPEARS, "/nonexistent-folder/x.json"), ("cannot write",)),
])
def test_api_functions_check_their_arguments(call: Any, words: tuple[str, ...]) -> None:
    assert_invalid(call, *words)


def test_a_named_pipe_is_refused_not_waited_on(tmp_path) -> None:
    import os

    if not hasattr(os, "mkfifo"):
        pytest.skip("no named pipes here")
    fifo = tmp_path / "scenario.json"
    os.mkfifo(fifo)
    assert_invalid(lambda: load_scenario(fifo), "named pipe")
