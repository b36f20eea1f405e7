"""The bound on a joint reform's own models in contact over every placement, the units sharing
one enemy line (optimizer/combat_reform/joint_bound.py, docs/rules.md §12.2): never below a
brute-force optimum on small random groups, tight where the bench's joint reforms end, and
what it lets the joint search prove."""

from __future__ import annotations

import math
import random

import pytest

from benchmarks.reform_joint_baselines import JointBest, joint_exhaustive
from benchmarks.reform_scenes import seq_2, seq_3
from constraints.core.scenario import Scenario
from constraints.core.scenario_io import scenario_from_json
from constraints.rank_and_file.combats import engagements
from constraints.t9a.examples import field, unit
from optimizer.combat_reform.joint_bound import group_units_bound
from optimizer.combat_reform.joint_group import joint_reform
from optimizer.combat_reform.prepare import Asks
from optimizer.combat_reform.reforms import combat_reforms

BASES = ((25.0, 25.0), (20.0, 20.0), (25.0, 50.0))


def _random_group(seed: int, rules: str) -> tuple[Scenario | None, tuple[str, ...]]:
    """Two or three small red units side by side, fronts on y = 10, against B (3-6 models of
    1") and sometimes C on the same line past a gap; None when a unit is not Engaged."""
    r = random.Random(seed)
    nb = r.randint(3, 6)
    found = [unit("B", models=nb, files=nb, centre=(30.0 + nb / 2, 10.5), facing=270.0,
                  player="blue")]
    if r.random() < 0.4:
        nc, gap = r.randint(2, 4), r.choice([0.3, 0.6, 1.0, 1.5])
        found.append(unit("C", models=nc, files=nc, centre=(30.0 + nb + gap + nc / 2, 10.5),
                          facing=270.0, player="blue"))
    x = 30.0 - r.uniform(0.5, 2.0)
    ids = []
    for i in range(r.choice([2, 2, 3])):
        m = r.randint(2, 4)
        files = r.choice([m, m, max(1, m - 1)]) if m > 2 else m
        base = r.choice(BASES)
        w, d = base[0] / 25.4, base[1] / 25.4
        uid = f"A{i + 1}"
        found.append(unit(uid, models=m, files=files, base=base,
                          centre=(x + files * w / 2, 10.0 - math.ceil(m / files) * d / 2),
                          mobility=r.choice([1.0, 1.5, 2.0, 3.0])))
        ids.append(uid)
        x += files * w + r.uniform(0.0, 1.0)
    scn = scenario_from_json(field(*found, rules=rules))
    engaged = engagements(scn.units)
    return (scn if all(engaged.get(u) for u in ids) else None), tuple(ids)


# Seeds whose pairs are Engaged and small enough for every tuple (one enemy, or B and C on
# one line; both profiles; a bound above the optimum and equal to it).  Three units have
# too many tuples for a test (1.7 million, 143 s, for three of two models).
SEEDS = [(6, "t9a-2025"), (11, "t9a-2025"), (17, "t9a"), (22, "t9a"), (8, "t9a"),
         (4, "t9a-2025")]


@pytest.mark.parametrize("seed, rules", SEEDS)
def test_the_bound_is_never_below_the_brute_force_optimum(seed, rules):
    """Every tuple of the units' joint candidates, each assigned and judged (the baseline):
    its best own models in contact never exceed the bound, nor do the joint search's."""
    scn, ids = _random_group(seed, rules)
    assert scn is not None
    bound = group_units_bound(scn, ids)
    brute = joint_exhaustive(scn, ids, 400_000)
    assert isinstance(brute, JointBest) and brute.legal
    assert bound is not None and bound >= brute.own
    found = joint_reform(scn, ids, 5.0, [Asks()] * len(ids))
    assert found is not None
    assert sum(a.value[0] for a in found) == brute.own
    assert found[0].search["displacement_ticks"] == brute.cost


def test_enemies_on_two_lines_give_no_shared_bound():
    """A unit whose enemies' Facings lie on two lines: the argument does not hold (None)."""
    scn = scenario_from_json(field(
        unit("A1", models=4, files=4, centre=(32.0, 10.5), mobility=2.0),
        unit("A2", models=4, files=4, centre=(36.5, 10.5), mobility=2.0),
        unit("B", models=5, files=5, centre=(34.0, 11.5), facing=270.0, player="blue"),
        unit("C", models=2, files=2, centre=(39.0, 10.5), facing=180.0, player="blue")))
    assert engagements(scn.units).get("A2")
    assert group_units_bound(scn, ("A1", "A2")) is None


@pytest.mark.parametrize("build, ids, bound", [(seq_2, ("A", "A2"), 16),
                                               (seq_3, ("A", "A2", "A3"), 15)])
def test_the_shared_front_bounds_the_bench_groups_tightly(build, ids, bound):
    """`seq-2`: A2's 12 models of 20 mm and A's of 25 mm share B's 11.81" front: 16 at most
    (the old bound, 17, took every lane at 20 mm); `seq-3`: 15 (was 17).  Jointly the search
    reaches them, so both are OPTIMAL under the rules, every reform legal together, and the
    least displacement proved."""
    scn = build()
    assert group_units_bound(scn, ids) == bound
    found = combat_reforms(scn, "red", joint=True)
    assert found.verdict is not None and found.verdict.legal
    answers = [o.answer for o in found.outcomes]
    assert all(a is not None and a.status == "OPTIMAL" for a in answers)
    assert sum(a.value[0] for a in answers if a is not None) == bound
    assert all(a is not None and a.search["least_moves"] for a in answers)
