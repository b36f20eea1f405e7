"""The scenes of benchmarks/bench_reform.py: Combat Reforms fought on one line (one to three
units a side, a flank, a rear, a corner, a crowded line) and sequences of reforms, each unit
placed by the line its Front lies on; `validate` checks a scene is engaged as it says."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from benchmarks.scene_checks import check_placed
from constraints.core.scenario import Scenario
from constraints.core.scenario_io import scenario_from_json
from constraints.rank_and_file.combats import engagements
from constraints.t9a.examples import field, unit, wall

Json = dict[str, Any]
MM25, MM20, CAV = (25.0, 25.0), (20.0, 20.0), (25.0, 50.0)


# -- scenes ----------------------------------------------------------------------------------
#
# Every unit is placed by the line its Front (or the Facing named) lies on: `up` faces +y,
# its front edge on y = `front`, its left edge at x = `left`; `down` faces -y (its file 0 at
# the right, +x), its front edge on y = `front`, spanning x from `left`.

def _ranks(files: int, models: int, chars: int) -> int:
    return math.ceil((models + chars) / files)


def _chars(chars: tuple[tuple[str, int, int], ...]) -> list[Json]:
    return [{"id": cid, "slot": [rank, file]} for cid, rank, file in chars]


def up(uid: str, files: int, models: int, base: tuple[float, float], left: float,
       front: float, *, mob: float = 4.0, player: str = "red",
       chars: tuple[tuple[str, int, int], ...] = ()) -> Json:
    w, d = base[0] / 25.4, base[1] / 25.4
    depth = _ranks(files, models, len(chars)) * d
    return unit(uid, models=models, files=files, base=base, mobility=mob, player=player,
                centre=(left + files * w / 2.0, front - depth / 2.0), facing=90.0,
                characters=_chars(chars))


def down(uid: str, files: int, models: int, base: tuple[float, float], left: float,
         front: float, *, mob: float = 4.0, player: str = "blue",
         chars: tuple[tuple[str, int, int], ...] = ()) -> Json:
    w, d = base[0] / 25.4, base[1] / 25.4
    depth = _ranks(files, models, len(chars)) * d
    return unit(uid, models=models, files=files, base=base, mobility=mob, player=player,
                centre=(left + files * w / 2.0, front + depth / 2.0), facing=270.0,
                characters=_chars(chars))


def rear_on(uid: str, files: int, models: int, base: tuple[float, float], left: float,
            rear: float, *, player: str = "blue") -> Json:
    """Facing +y, its Rear edge on y = `rear` (charged in the rear)."""
    w, d = base[0] / 25.4, base[1] / 25.4
    depth = _ranks(files, models, 0) * d
    return unit(uid, models=models, files=files, base=base, player=player,
                centre=(left + files * w / 2.0, rear + depth / 2.0), facing=90.0)


def flank_on(uid: str, files: int, models: int, base: tuple[float, float], left: float,
             flank: float, *, player: str = "blue") -> Json:
    """Facing -x, its left Flank edge on y = `flank`, its front at x = `left`."""
    w, d = base[0] / 25.4, base[1] / 25.4
    depth = _ranks(files, models, 0) * d
    return unit(uid, models=models, files=files, base=base, player=player,
                centre=(left + depth / 2.0, flank + files * w / 2.0), facing=180.0)


def _scene(*units: Json, terrain: tuple[Json, ...] = ()) -> Scenario:
    return scenario_from_json({**field(*units, terrain=terrain), "active_player": "red"})


W25, W20 = 25.0 / 25.4, 20.0 / 25.4
HERO = (("hero", 0, 2),)
Y = 24.0  # the line the combats are fought on


def one_25() -> Scenario:
    """A: 5 x 4 of 25 mm (19 + hero in the front middle), Mobility 4; B (blue, 5 x 2 of
    25 mm) 3" to the right: two of A's models in contact, the hero not."""
    return _scene(up("A", 5, 19, MM25, 30.0, Y, chars=HERO),
                  down("B", 5, 10, MM25, 33.0, Y))


def one_20() -> Scenario:
    """A: 5 x 4 of 20 mm (19 + a hero at the front left), Mobility 5; B (8 x 2 of 25 mm)
    on A's left, A's front overlapping B's right end by 2.1": 3 of A's models in contact,
    the hero among them."""
    return _scene(up("A", 5, 19, MM20, 30.0, Y, mob=5.0, chars=(("hero", 0, 0),)),
                  down("B", 8, 16, MM25, 30.0 + 2.1 - 8 * W25, Y))


def one_cav() -> Scenario:
    """A: 20 cavalry on 25 x 50 mm (5 x 4, 19 + a hero), Mobility 8 (March Rate 16");
    B: 6 x 3 of 25 mm infantry, 1.3" to the right."""
    return _scene(up("A", 5, 19, CAV, 30.0, Y, mob=8.0, chars=HERO),
                  down("B", 6, 18, MM25, 31.3, Y))


def one_m3() -> Scenario:
    """A: 5 x 4 of 25 mm, Mobility 3 (March Rate 6"), touching a wide B (10 x 2 of 20 mm)
    only with its front-right model (0.5" of overlap): the March Rate binds."""
    return _scene(up("A", 5, 20, MM25, 30.0, Y, mob=3.0),
                  down("B", 10, 20, MM20, 30.0 + 5 * W25 - 0.5, Y))


def two_line() -> Scenario:
    """A: 5 x 4 of 25 mm with a hero, Mobility 4; B (4 x 2 of 25 mm) and C (3 x 2 of
    20 mm) side by side 1" apart, their fronts on one line; A touches both."""
    return _scene(up("A", 5, 19, MM25, 30.0, Y, chars=HERO),
                  down("B", 4, 8, MM25, 30.0 + 1.5 - 4 * W25, Y),
                  down("C", 3, 6, MM20, 31.5 + 1.0, Y))


def two_flank() -> Scenario:
    """A: 5 x 4 of 20 mm with a hero, Mobility 5; B (4 x 2 of 25 mm) front to front on A's
    left, and C (3 x 2 of 25 mm facing -x) whose left Flank lies on the same line, 0.6"
    right of B: A touches B's Front and C's Flank."""
    return _scene(up("A", 5, 19, MM20, 30.0, Y, mob=5.0, chars=HERO),
                  down("B", 4, 8, MM25, 30.0 + 1.2 - 4 * W25, Y),
                  flank_on("C", 3, 6, MM25, 31.8, Y))


def three_line() -> Scenario:
    """A: 7 x 3 of 25 mm (19 + a hero), Mobility 6; B (3 x 2), C (2 x 2 of 20 mm) and
    D (3 x 2) on one line, 0.7" and 0.9" apart; A's front spans all three."""
    b_left = 30.0 - 2.0
    c_left = b_left + 3 * W25 + 0.7
    d_left = c_left + 2 * W20 + 0.9
    return _scene(up("A", 7, 19, MM25, 30.0, Y, mob=6.0, chars=(("hero", 0, 3),)),
                  down("B", 3, 6, MM25, b_left, Y), down("C", 2, 4, MM20, c_left, Y),
                  down("D", 3, 6, MM25, d_left, Y))


def rear_gap() -> Scenario:
    """A: 5 x 4 of 25 mm with a hero, Mobility 4, in the Rear of D (blue, 5 files, 8
    models, facing away: its rear rank of 3 has gaps at both ends, so models facing a gap
    touch D's front rank across it), 1.5" to the right."""
    return _scene(up("A", 5, 19, MM25, 30.0, Y, chars=HERO),
                  rear_on("D", 5, 8, MM25, 31.5, Y))


def corner() -> Scenario:
    """A: 5 x 4 of 25 mm with a hero; B (5 x 2) front to front on A's left; C (3 x 1),
    turned 30 degrees, touching A's front edge with its front-right corner only."""
    b = down("B", 5, 10, MM25, 30.0 + 2.0 - 5 * W25, Y)
    w, d = 3 * W25, W25
    tip = (30.0 + 4.0, Y)  # C's front-right corner, on A's front edge
    # C faces 270 + 30 = 300 degrees: its front-right corner is at local (+w/2, +d/2).
    fx, fy = math.cos(math.radians(300.0)), math.sin(math.radians(300.0))
    rx, ry = fy, -fx
    centre = (tip[0] - w / 2.0 * rx - d / 2.0 * fx, tip[1] - w / 2.0 * ry - d / 2.0 * fy)
    c = unit("C", models=3, files=3, base=MM25, centre=centre, facing=300.0, player="blue")
    return _scene(up("A", 5, 19, MM25, 30.0, Y, chars=HERO), b, c)


def crowded() -> Scenario:
    """one-25 with a friend E (red, 4 x 2, not in the combat) 1.2" right of B's right end
    and 0.5" back from the line, and a rock 1.5" left of A: Unit Spacing bounds the offsets."""
    b_right = 33.0 + 5 * W25
    return _scene(up("A", 5, 19, MM25, 30.0, Y, chars=HERO),
                  down("B", 5, 10, MM25, 33.0, Y),
                  up("E", 4, 8, MM25, b_right + 1.2, Y - 0.5),
                  terrain=(wall("rock", 26.0, 18.0, 28.5, Y - 0.3),))


def seq_2() -> Scenario:
    """Two red units reform one after the other: A (5 x 4 of 25 mm with a hero, Mobility
    4) and A2 (4 x 3 of 20 mm, Mobility 5), side by side 0.6" apart, both against B (12 x 2
    of 25 mm), A2 past B's right end by 1.5"."""
    a2_left = 30.0 + 5 * W25 + 0.6
    b_left = a2_left + 4 * W20 - 1.5 - 12 * W25
    return _scene(up("A", 5, 19, MM25, 30.0, Y, chars=HERO),
                  up("A2", 4, 12, MM20, a2_left, Y, mob=5.0),
                  down("B", 12, 24, MM25, b_left, Y))


def seq_3() -> Scenario:
    """Three red units one after the other: A (5 x 4 of 25 mm with a hero), A2 (5 x 3 of
    20 mm, Mobility 5), A3 (4 x 2 cavalry, Mobility 8) against B (6 x 2 of 25 mm) and C
    (6 x 2 of 20 mm) on one line 1" apart."""
    a2_left = 30.0 + 5 * W25 + 0.4
    a3_left = a2_left + 5 * W20 + 0.8
    b_left = 30.0 + 1.0
    c_left = b_left + 6 * W25 + 1.0
    return _scene(up("A", 5, 19, MM25, 30.0, Y, chars=HERO),
                  up("A2", 5, 15, MM20, a2_left, Y, mob=5.0),
                  up("A3", 4, 8, CAV, a3_left, Y, mob=8.0),
                  down("B", 6, 12, MM25, b_left, Y), down("C", 6, 12, MM20, c_left, Y))


def pair_small() -> Scenario:
    """Two red units (4 x 1 of 25 mm, Mobility 2) side by side against B (5 x 1 of 25 mm):
    one at a time A's best leaves A2 3 models in contact, jointly A2 gets 4."""
    return _scene(up("A", 4, 4, MM25, 30.0, Y, mob=2.0),
                  up("A2", 4, 4, MM25, 30.0 + 4 * W25, Y, mob=2.0),
                  down("B", 5, 5, MM25, 30.0 + 2 * W25 - 0.5 * W25, Y))


def trio_small() -> Scenario:
    """Three red units (3 x 1 of 25 mm, Mobility 2) side by side against B (8 x 1 of
    25 mm)."""
    return _scene(up("A", 3, 3, MM25, 30.0, Y, mob=2.0),
                  up("A2", 3, 3, MM25, 30.0 + 3 * W25, Y, mob=2.0),
                  up("A3", 3, 3, MM25, 30.0 + 6 * W25, Y, mob=2.0),
                  down("B", 8, 8, MM25, 30.0 + 0.5 * W25, Y))


@dataclass(frozen=True)
class Scene:
    build: Callable[[], Scenario]
    units: tuple[str, ...]     # the red units that reform, in order
    what: str


SCENES: dict[str, Scene] = {
    "one-25": Scene(one_25, ("A",), "20 x 25 mm (hero), 1 enemy 3\" off centre"),
    "one-20": Scene(one_20, ("A",), "20 x 20 mm (hero in contact), 1 wide enemy"),
    "one-cav": Scene(one_cav, ("A",), "20 cavalry 25 x 50 mm, Mobility 8, 1 enemy"),
    "one-m3": Scene(one_m3, ("A",), "20 x 25 mm, Mobility 3, a corner's worth of contact"),
    "two-line": Scene(two_line, ("A",), "2 enemies, fronts on one line"),
    "two-flank": Scene(two_flank, ("A",), "2 enemies: a Front and a Flank on one line"),
    "three-line": Scene(three_line, ("A",), "3 enemies on one line, 7 x 3"),
    "rear-gap": Scene(rear_gap, ("A",), "an enemy's Rear with gaps (contact across them)"),
    "corner": Scene(corner, ("A",), "1 enemy front to front, 1 touching at a corner"),
    "crowded": Scene(crowded, ("A",), "one-25 with a friend and a rock near"),
    "seq-2": Scene(seq_2, ("A", "A2"), "2 units reform in turn against 1 enemy"),
    "seq-3": Scene(seq_3, ("A", "A2", "A3"), "3 units reform in turn against 2 enemies"),
    "pair-small": Scene(pair_small, ("A", "A2"), "2 units of 4 against 1 enemy of 5"),
    "trio-small": Scene(trio_small, ("A", "A2", "A3"), "3 units of 3 against 1 enemy of 8"),
}


def validate(scenario: Scenario, reforming: tuple[str, ...]) -> None:
    """Units on the table, overlapping neither each other nor impassable terrain; every
    reforming unit Engaged on its Front only."""
    check_placed(scenario)
    engaged = engagements(scenario.units)
    for uid in reforming:
        facings = set(engaged.get(uid, {}).values())
        if facings != {"front"}:
            raise AssertionError(f"{uid} is engaged on {facings or 'nothing'}")
