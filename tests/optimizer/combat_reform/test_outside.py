"""OPTIMAL under the rules (optimizer/combat_reform/outside.py, joint_status.py): the bounds
over the placements the family does not search, on cases counted by hand, and properties
(a unit touching an enemy at one point has at most two models on it; a formation left out
never touches more than its bound)."""

from __future__ import annotations

import random
from dataclasses import replace

import numpy as np
import pytest

from constraints.core.scenario import Pose
from constraints.core.scenario_io import scenario_from_json
from constraints.rank_and_file.combats import combats
from constraints.rank_and_file.contact import LINE_IN, model_contacts
from constraints.t9a.clauses.combat_reform.checker import check_combat_reform
from constraints.t9a.combat_reform import placed
from constraints.t9a.examples import field, unit, wall
from optimizer.combat_reform.answer import placed_answer, proposal
from optimizer.combat_reform.assignment import Frame
from optimizer.combat_reform.best import best_reform
from optimizer.combat_reform.joint_status import Member, group_optimal
from optimizer.combat_reform.outside import (
    LEFT_OUT_FORMATIONS,
    NOT_FLUSH,
    Bounded,
    certify,
    lanes_bound,
    left_out,
)
from optimizer.combat_reform.placement import OWN_TURN, Option, engaged_lines
from optimizer.combat_reform.prepare import (
    LEFT_OUT,
    SAME,
    SEARCHED,
    Asks,
    allowed_files,
    kind,
    layouts_of,
    prepare,
    previous_enemies,
)
from optimizer.combat_reform.search import values
from tests.depth import rows
from tests.optimizer.combat_reform.test_search import _combat

# B: 5 models of 1" in one rank facing -y, its Front on y = 12 from x = 33 to 38.
_B = unit("B", models=5, files=5, centre=(35.5, 12.5), facing=270.0, player="blue")


def _boxed():
    """A (8 models, 5 files: 5 + 3) under B's Front, all 5 of its front rank in contact;
    rocks 1.1" beyond both ends of B keep A (Unit Spacing, more than 1") within 5.2" of
    frontage."""
    return scenario_from_json(field(
        unit("A", models=8, files=5, centre=(35.5, 11.0)), _B,
        terrain=(wall("left", 28.0, 6.0, 31.9, 11.9), wall("right", 39.1, 6.0, 43.0, 11.9))))


def test_five_in_contact_boxed_in_is_optimal_under_the_rules():
    """Counted by hand.  The rules' old bound allowed 7 (floor(5 / 1) + 2 on B's 5" edge),
    so this was FEASIBLE.  Placements outside the family: not flush with B's Front, A touches
    it at one point, at most 2 models, but it kept 5 in contact before: none legal.  Flush
    in a formation left out (a Rear or flank against B with an incomplete rear rank): 1"
    lanes within 5.2" touch B's 5" edge with at most 5, and touch at most B's 5 models: (5,
    5), which A's answer reaches: OPTIMAL."""
    answer = best_reform(_boxed(), "A")
    assert answer.value == (5, 5)
    assert answer.status == "OPTIMAL" and answer.bound == (5, 5)
    assert answer.family["outside"] == {NOT_FLUSH: None, LEFT_OUT_FORMATIONS: [5, 5]}


def test_a_corner_touch_blocked_by_a_rock_could_be_beaten_at_a_point_so_feasible():
    """A's front overlaps B's Front by 0.02" (one model each in contact); a rock 1.03" to
    its right keeps every flush placement's right end within 0.05" of B's corner: one lane
    touches, (1, 1).  Touching B at one point, two of A's models may meet two of B's: (2,
    2) is not ruled out, so the answer stays FEASIBLE, its bound at least that (the classes
    left unrefined once one beats it keep their first bound: 7 lanes on B's edge)."""
    scn = scenario_from_json(field(
        unit("A", models=10, files=5, centre=(30.52, 11.0)), _B,
        terrain=(wall("rock", 34.05, 6.0, 36.0, 11.9),)))
    answer = best_reform(scn, "A")
    assert answer.value == (1, 1) and answer.family["status"] == "OPTIMAL"
    assert answer.status == "FEASIBLE"
    assert answer.family["outside"][NOT_FLUSH] == [2, 2]
    assert 2 <= answer.bound[0] <= 7


def test_not_flush_is_never_legal_where_the_reform_must_end_aligned():
    scn = scenario_from_json(field(
        unit("A", models=10, files=5, centre=(30.52, 11.0)), _B,
        terrain=(wall("rock", 34.05, 6.0, 36.0, 11.9),), rules="t9a-2025"))
    answer = best_reform(scn, "A")
    assert answer.family.get("outside", {}).get(NOT_FLUSH) is None


@pytest.mark.parametrize(("models", "files", "own", "expected"), [
    (8, 5, "front", SEARCHED), (8, 5, "rear", LEFT_OUT), (8, 4, "rear", SEARCHED),
    (8, 3, "left", LEFT_OUT), (5, 5, "rear", SAME), (5, 1, "left", SAME),
])
def test_which_formations_the_family_leaves_out(models, files, own, expected):
    scn = scenario_from_json(field(unit("A", models=models, files=5 if models >= 5 else 3,
                                        centre=(35.5, 11.0)), _B))
    assert kind(scn.unit("A"), files, own) == expected


def test_a_single_file_with_a_character_has_its_left_flank_left_out():
    """Its placements are its right Flank's turned round, but the character's front rank is
    at the other end."""
    scn = scenario_from_json(field(unit("A", models=4, files=4, centre=(35.5, 11.0),
                                        characters=[{"id": "hero", "slot": [0, 1]}]), _B))
    assert kind(scn.unit("A"), 1, "left") == LEFT_OUT


def test_lanes_bound_counts_lanes_meeting_the_edges():
    """Against B's 5" edge, a Rear of 7 files of 1" has at most 5 + 2 lanes on it; a flank
    of 3 ranks at most its 3 lanes."""
    scn = _boxed()
    me = scn.unit("A")
    line = engaged_lines(scn, previous_enemies(scn, me))[0]
    assert lanes_bound(Option(me, line, 7, "rear")) == 7
    assert lanes_bound(Option(me, line, 3, "right")) == 3


# -- the certificate's logic ------------------------------------------------------------------

def test_certify_is_lexicographic_and_refines_only_what_it_needs():
    asked = []

    def refine(value):
        asked.append(value)
        return (5, 4)

    classes = [Bounded("point", (2, 2)), Bounded("formations", (7, 5), refine)]
    got = certify((5, 4), (7, 5), classes)
    assert got.optimal and asked == [(5, 4)]  # a tie on both levels: the same contacts
    assert not certify((5, 3), (7, 5), classes).optimal  # tied, and more enemy models
    assert certify((7, 5), (7, 5), None).optimal  # the bound over every placement
    assert not certify((6, 5), (7, 5), None).optimal  # no family argument: only that bound
    assert certify((1, 1), (7, 5), [Bounded("none", None)]).optimal
    found = certify((1, 1), (7, 5), [Bounded("point", (2, 2))])
    assert not found.optimal and found.bound == 2


def test_group_optimal_adds_one_unit_outside_to_the_others_best():
    """Two units whose families reach 4 and 3 models: a tuple with the first outside its
    family (at most 3) and the second anyhow (at most 3) has at most 6."""
    def both():
        return [Member(4, [Bounded("point", (3, 3))]), Member(3, [Bounded("point", None)])]

    assert group_optimal((7, 5), (9, 6), both, True, True)
    assert not group_optimal((6, 5), (9, 6), both, True, True)  # ties, fewer enemy models
    assert group_optimal((6, 6), (9, 6), both, True, True)
    assert not group_optimal((7, 5), (9, 6), both, True, False)  # three units
    assert not group_optimal((7, 5), (9, 6), both, False, True)  # the family not proved
    assert group_optimal((9, 6), (9, 6), both, False, False)  # the bound over everything


# -- properties -------------------------------------------------------------------------------

def _tilted(me, angle: float, vertex_at: tuple[float, float]):
    """`me` turned `angle` degrees from facing +y, moved so its highest corner is at
    `vertex_at`."""
    turned = me.with_pose(Pose((0.0, 0.0), 90.0 + angle))
    top = max(turned.corners(), key=lambda c: c[1])
    return turned.with_pose(Pose((vertex_at[0] - top[0], vertex_at[1] - top[1]),
                                 90.0 + angle))


@pytest.mark.parametrize("seed", range(40))
def test_a_unit_touching_an_enemy_at_one_point_has_at_most_two_models_on_it(seed):
    """Not flush, A meets B's Front at a corner of one of them: at most two models of each
    in contact (the checker's count, every base the unit's own size)."""
    rng = random.Random(seed)
    files = rng.randint(2, 6)
    scn = scenario_from_json(field(unit("A", models=files * 2, files=files,
                                        centre=(20.0, 10.0)), _B))
    me, them = scn.unit("A"), scn.unit("B")
    angle = rng.choice([-1.0, 1.0]) * rng.uniform(3.0, 80.0)
    if rng.random() < 0.5:  # A's corner on B's Front, at a model's edge or anywhere
        x = 33.0 + (rng.randint(1, 4) if rng.random() < 0.5 else rng.uniform(0.0, 5.0))
        placed_me = _tilted(me, angle, (x, 12.0))
    else:  # B's corner on A's Front: A's front edge through (33, 12), going down to the right
        angle = -abs(angle)
        along = rng.randint(1, files - 1) if rng.random() < 0.5 else rng.uniform(0.0, files)
        start = _tilted(me, angle, (0.0, 0.0))
        left, right = start.corners()[0], start.corners()[1]
        u = np.subtract(right, left) / files
        shift = np.array([33.0, 12.0]) - (np.asarray(left) + along * u)
        placed_me = start.with_pose(Pose((start.pose.centre[0] + float(shift[0]),
                                          start.pose.centre[1] + float(shift[1])),
                                         start.pose.facing_deg))
    assert placed_me.boundary().intersection(them.boundary()).area < 1e-9
    pairs = model_contacts(placed_me, them)
    assert len({a for a, _ in pairs}) <= 2 and len({b for _, b in pairs}) <= 2


@pytest.mark.parametrize("seed", rows(range(8), 4))
def test_no_formation_left_out_touches_more_than_its_bound(seed):
    """Every candidate offset of every formation left out, its models assigned, placed and
    judged by the checker: where legal, the checker's count is within the lanes' count there,
    and, where it keeps the enemy models it touched (the family's demand), within the
    class's bound."""
    # The lanes count contact exactly (docs/rules.md §12): judged at an exact contact
    # tolerance, as before A21 (at 0.001" a model a hair from a lane's edge also touches).
    scn = replace(_combat(seed), rule_options=(("contact_tolerance", 1e-6),))
    me = scn.unit("A")
    previous = previous_enemies(scn, me)
    lines = engaged_lines(scn, previous)
    combat = next(frozenset(c) for c in combats(scn.units) if "A" in c)
    ready = prepare(scn, me, previous, lines[0], Asks(), combat)
    bound = left_out(scn, me, previous, ready, combat, 50_000, None)
    best = bound.refine((0, 0)) if bound.refine is not None else bound.bound
    options = [Option(me, ready.line, f, own) for f in allowed_files(scn, me)
               for own in OWN_TURN if kind(me, f, own) == LEFT_OUT]
    lays = layouts_of(scn, me, previous, combat, options, across=LINE_IN)
    loose = replace(ready, layouts=lays, demands=replace(ready.demands,
                                                         keep_characters=frozenset()))
    for k, lay in enumerate(lays):
        frame = Frame(loose, k)
        own, enemy = values(lay)
        for i in np.flatnonzero(lay.allowed):
            got = frame.assign(int(i))
            if got is None:
                continue
            slots = lay.option.slots()
            where = tuple((ready.ids[m], slots[s]) for m, s in enumerate(got[1]))
            answer = placed_answer("FEASIBLE", me, ready.line, lay.option, float(lay.xs[i]),
                                   where, (0, 0), (0, 0), 0)
            reform = proposal(answer)
            assert reform is not None
            verdict = check_combat_reform(scn, [reform], player_done=False)
            if [c for c in verdict.clauses() if c != "combat_reform.eligible"]:
                continue
            after = placed(scn, [reform]).unit("A")
            pairs = {p for e in previous
                     for p in model_contacts(after, scn.unit(e), tolerance=1e-6)}
            counted = (len({a for a, _ in pairs}), len({b for _, b in pairs}))
            assert counted[0] <= own[i] and counted[1] <= enemy[i]
            if ready.demands.keep_enemy <= {b for _, b in pairs}:  # as the family demands
                assert best is not None and counted <= best
