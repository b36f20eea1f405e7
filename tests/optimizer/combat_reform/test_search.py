"""The best-first search of a unit's Combat Reform (optimizer/combat_reform/search.py): its
answer against every candidate assigned by brute force, its budget and the CP-SAT fallback,
and the exact offsets at which a flush unit comes within a distance of a shape."""

from __future__ import annotations

import math
import random

import numpy as np
import pytest
from shapely import affinity
from shapely.geometry import Polygon

from constraints.core.scenario_io import scenario_from_json
from constraints.rank_and_file.combats import combats, engaged_ids
from constraints.t9a.examples import field, unit, wall
from optimizer.combat_reform.assignment import Frame
from optimizer.combat_reform.best import best_reform
from optimizer.combat_reform.placement import Option, engaged_lines
from optimizer.combat_reform.prepare import Asks, Prepared, prepare, previous_enemies
from optimizer.combat_reform.search import _queue, best_first


def _combat(seed: int):
    """A random combat of A against one or two enemies on one line, a hero sometimes, a
    rock near it sometimes: the first of the seed's draws that makes a valid scene."""
    for draw in range(50):
        scn = _draw(random.Random(seed * 1000 + draw))
        if scn is not None:
            return scn
    raise AssertionError(f"no valid scene drawn for seed {seed}")


def _draw(rng: random.Random):
    """One random combat, or None when the scene is rejected or A is not Engaged."""
    width, depth = rng.choice([(25.4, 25.4), (20.0, 20.0), (25.0, 50.0)])
    models = rng.randint(3, 9)
    files = rng.randint(2, min(5, models))
    chars = [{"id": "hero", "slot": [0, rng.randrange(files)]}] if rng.random() < 0.5 else []
    ranks = -(-(models + len(chars)) // files)
    units = [unit("A", models=models, files=files, base=(width, depth), characters=chars,
                  centre=(36.0, 24.0 - ranks * depth / 25.4 / 2.0),
                  mobility=rng.choice([1.5, 2.0, 3.0, 4.0]))]
    left = 36.0 - files * width / 25.4 / 2.0 + rng.uniform(-3.0, 2.0)
    for k in range(rng.choice([1, 1, 2])):
        ef, er = rng.randint(1, 5), rng.randint(1, 2)
        units.append(unit(f"E{k}", models=ef * er, files=ef, facing=270.0,
                          player="blue", centre=(left + ef / 2.0, 24.0 + er / 2.0)))
        left += ef + rng.uniform(0.3, 1.5)
    rock = (wall("rock", 30.0, 18.0, 36.0 - files * width / 25.4 / 2.0 - 1.3, 23.5),) \
        if rng.random() < 0.3 else ()
    try:
        scn = scenario_from_json(field(*units, terrain=rock))
    except Exception:  # noqa: BLE001 (a random scene off the table or overlapping)
        return None
    return scn if "A" in engaged_ids(scn.units) else None


def _lines_of(scn, asks: Asks | None = None) -> list[Prepared]:
    asks = Asks() if asks is None else asks
    me = scn.unit("A")
    previous = previous_enemies(scn, me)
    combat = next(frozenset(c) for c in combats(scn.units) if "A" in c)
    return [prepare(scn, me, previous, line, asks, combat)
            for line in engaged_lines(scn, previous)]


def _brute(lines: list[Prepared]) -> tuple[tuple[int, int], int] | None:
    """Every candidate passing the value filters assigned: the best value, then the least
    displacement among its candidates."""
    queue = _queue(lines)
    best = None
    for p, k, i, key in zip(queue.line, queue.k, queue.index, queue.key, strict=True):
        got = Frame(lines[int(p)], int(k)).assign(int(i))
        if got is not None:
            here = ((int(key[1]), int(key[2])), -got[0])
            best = here if best is None or here > best else best
    return None if best is None else (best[0], -best[1])


@pytest.mark.parametrize("seed", range(16))
def test_the_search_equals_every_candidate_assigned(seed):
    """The best-first answer is the brute force's: the same value (own, enemy) and the same
    least displacement over the candidates of that value; it is proved (no budget hit)."""
    scn = _combat(seed)
    lines = _lines_of(scn)
    outcome = best_first(lines, budget=10**9)
    brute = _brute(lines)
    assert outcome.proved and outcome.least
    if brute is None:
        assert outcome.found is None
        return
    assert outcome.found is not None
    assert (outcome.found.value, outcome.found.cost) == brute
    assert outcome.assignments <= outcome.candidates


def test_a_spent_budget_is_not_a_proof_and_falls_back_to_cp_sat():
    """With no assignment allowed the search proves nothing and says which value it had
    not ruled out; `best_reform` then asks CP-SAT, and its answer is still judged legal."""
    scn = _combat(3)
    outcome = best_first(_lines_of(scn), budget=0)
    assert outcome.found is None and not outcome.proved and outcome.bound is not None
    answer = best_reform(scn, "A", effort=1e-9)
    assert "fallback" in answer.search
    full = best_reform(scn, "A")
    assert full.family["status"] == "OPTIMAL" and full.search["least_moves"]
    if answer.reformed is not None:
        assert answer.value <= full.value


def test_the_widest_frontage_comes_before_the_contacts():
    scn = _combat(5)
    wide = best_first(_lines_of(scn, Asks(widest=True)), budget=10**9)
    plain = best_first(_lines_of(scn), budget=10**9)
    assert wide.found is not None and plain.found is not None
    lines = _lines_of(scn)
    files = lines[wide.found.line].layouts[wide.found.k].option.files
    assert files >= lines[plain.found.line].layouts[plain.found.k].option.files
    assert wide.found.value <= plain.found.value


def _option() -> Option:
    scn = scenario_from_json(field(
        unit("A", models=6, files=3, centre=(36.0, 23.0)),
        unit("B", models=4, files=4, centre=(36.5, 24.5), facing=270.0, player="blue")))
    [line] = engaged_lines(scn, previous_enemies(scn, scn.unit("A")))
    return Option(scn.unit("A"), line, 3)


@pytest.mark.parametrize("seed", range(6))
def test_within_is_exact_against_the_measured_distance(seed):
    """The interval's ends are at distance `gap` (to 1e-9), offsets inside nearer, outside
    farther; a shape the unit would overlap gives the interval of its overlap too (gap 0)."""
    rng = random.Random(seed)
    option = _option()
    w, h = rng.uniform(0.3, 3.0), rng.uniform(0.3, 3.0)
    shape = affinity.translate(affinity.rotate(Polygon([(0, 0), (w, 0), (w, h), (0, h)]),
                                               rng.uniform(0.0, 360.0)),
                               36.0 + rng.uniform(-6.0, 6.0), 23.0 + rng.uniform(-3.0, 3.0))
    for gap in (0.0, 1e-6, 0.5, 1.0):
        found = option.within(shape, gap)
        xs = np.linspace(-40.0, 40.0, 801)
        near = [option.boundary(x).distance(shape) <= gap for x in xs]
        if found is None:
            assert not any(near)
            continue
        lo, hi = found
        for x in (lo, hi):
            assert math.isclose(option.boundary(x).distance(shape), gap, abs_tol=1e-9) \
                or (gap == 0.0 and option.boundary(x).distance(shape) <= 1e-9)
        assert all(n == (lo - 1e-9 <= x <= hi + 1e-9) for x, n in zip(xs, near, strict=True))


def test_a_unit_already_at_its_best_stays_where_it_stands():
    """A's three models all touch B's front, and five of B's models (two at A's corners):
    no reform betters that.  Of the candidates with that value, standing still moves nobody,
    so the answer is A as it stands (a displacement bound of 0 must not rule it out)."""
    scn = scenario_from_json(field(
        unit("A", models=3, files=3, centre=(36.0, 10.5)),
        unit("B", models=5, files=5, centre=(36.0, 11.5), facing=270.0, player="blue")))
    answer = best_reform(scn, "A")
    assert answer.value == (3, 5) and answer.files == 3  # B.0 and B.4 at its corners
    assert answer.centre == pytest.approx((36.0, 10.5), abs=1e-12)
    assert answer.models == tuple((m, (0, f)) for f, m in enumerate(scn.unit("A").model_ids()))
