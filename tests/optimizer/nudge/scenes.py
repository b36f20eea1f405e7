"""The nudge cases of seed 001's acceptance list, built from their geometry.

Units stand on 25 mm bases unless said; `W` is a base's width in inches.  "red" is the
Active Player unless a scene says otherwise.
"""

from __future__ import annotations

from dataclasses import replace

from constraints.core.scenario import Scenario
from constraints.rank_and_file.unit import Base
from tests.support import scenario, unit

MM = 1.0 / 25.4
W = 25.0 * MM
BASE = Base(25.0, 25.0)
FRONT_Y = 10.0 + W / 2.0      # the red line's front edge
A_RIGHT = 36.0 + 2.5 * W      # the red line's right edge before casualties


def _active(scn: Scenario, player: str) -> Scenario:
    return replace(scn, active_player=player)


def line_and_foe(overlap_mm: float = 15.0, **extra):
    """A: 5 x 1 at (36, 10) facing +y.  B: 5 x 1 facing it, its front on A's front edge,
    overlapping only A's rightmost model, by `overlap_mm`."""
    a = unit("A", models=5, files=5, base=BASE, centre=(36.0, 10.0))
    b_left = A_RIGHT - overlap_mm * MM
    b = unit("B", models=5, files=5, base=BASE, centre=(b_left + 2.5 * W, FRONT_Y + W / 2.0),
             facing=270.0, player="blue", **extra)
    return a, b


def flank_model_lost(active: str = "red") -> Scenario:
    """A loses its right flank model: the gap closes on the left, so A's front now ends
    10 mm short of B's front corner."""
    a, b = line_and_foe()
    return _active(scenario(a, b), active)


def friend_right_of_a() -> object:
    """A friend of A beside its old right edge, 0.02" lower so it does not touch B."""
    return unit("F", models=2, files=2, base=BASE,
                centre=(A_RIGHT + W, 10.0 - 0.02), player="red")


def foe_friend_left_of_b() -> object:
    """A friend of B beside B's old left edge, 0.02" higher so it does not touch A."""
    b_left = A_RIGHT - 15.0 * MM
    return unit("H", models=2, files=2, base=BASE, centre=(b_left - W, FRONT_Y + W / 2 + 0.02),
                facing=270.0, player="blue")


def both_lost_a_model(blocked_a: bool, blocked_b: bool) -> Scenario:
    """A loses its right model and B the model next to A (slot [0, 4]: B faces -y, so its
    file 0 is at +x): the gap is 10 + 25 = 35 mm.  F blocks A's slide past A's old right
    edge; H blocks B's slide past B's old left edge."""
    a, b = line_and_foe()
    units = [a, b] + ([friend_right_of_a()] if blocked_a else []) \
        + ([foe_friend_left_of_b()] if blocked_b else [])
    return _active(scenario(*units), "red")


def flank_contact() -> Scenario:
    """A: 3 x 2 on 1" bases at (36, 10) facing +y (x 34.5-37.5, y 9-11).  B (blue, the
    Active Player): 2 x 1 facing -x, its front on A's right flank along the rear rank only
    (y 7.5-9.5 against 9-11)."""
    a = unit("A", models=6, files=3, centre=(36.0, 10.0))
    b = unit("B", models=2, files=2, centre=(38.0, 8.5), facing=180.0, player="blue")
    return _active(scenario(a, b), "blue")


def two_against_two() -> Scenario:
    """A1 fights B1 and A2 fights B2, front to front; A2's front-left corner touches B1's
    front-right corner: one combat of four."""
    a1 = unit("A1", models=5, files=5, centre=(30.0, 10.0))
    b1 = unit("B1", models=5, files=5, centre=(30.0, 11.0), facing=270.0, player="blue")
    a2 = unit("A2", models=5, files=5, centre=(35.0, 10.0))
    b2 = unit("B2", models=5, files=5, centre=(35.5, 11.0), facing=270.0, player="blue")
    return _active(scenario(a1, b1, a2, b2), "red")


def race_for_one_spot() -> tuple[Scenario, dict[str, dict[str, str]]]:
    """After the boundaries changed (built directly, with the contacts before given): A1
    and A2 (red) both lost contact with E1; A1 also touched E2 before.  A1's least nudge
    (0.5" right, to E1's corner) takes the lane A2 needs (2" forward); F keeps A2 from
    sliding round.  A2 first: A2 reaches E1, then A1 goes 1.5" left to E2: four units in
    combat.  A1 first: A2 is stuck: two."""
    y0 = 20.0
    e1 = unit("E1", models=2, files=2, centre=(21.0, y0 + 0.5), facing=270.0, player="blue")
    e2 = unit("E2", models=2, files=2, centre=(15.0, y0 + 0.5), facing=270.0, player="blue")
    a1 = unit("A1", models=2, files=2, centre=(18.5, y0 - 0.5))
    a2 = unit("A2", models=2, files=2, centre=(20.6, y0 - 2.5))
    f = unit("F", models=2, files=2, centre=(22.6, y0 - 2.5))
    previous = {"A1": {"E1": "front", "E2": "front"}, "A2": {"E1": "front"},
                "E1": {"A1": "front", "A2": "front"}, "E2": {"A1": "front"}}
    return _active(scenario(e1, e2, a1, a2, f), "red"), previous
