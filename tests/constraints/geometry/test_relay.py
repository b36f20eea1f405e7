"""The relay assignment (constraints/geometry/relay.py) against brute force over every pair
of permutations: the least longest walk start -> mid place -> end slot, exactly."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from constraints.geometry import relay
from constraints.geometry.relay import RelayTooLarge, relay_assignment


def brute(a, b, mid_ok, end_ok, ends=None):
    n, best = a.shape[0], np.inf
    for mids in itertools.permutations(range(n)):
        if not all(mid_ok[i, mids[i]] for i in range(n)):
            continue
        for slots in [ends] if ends is not None else itertools.permutations(range(n)):
            if not all(end_ok[i, slots[i]] for i in range(n)):
                continue
            best = min(best, max(a[i, mids[i]] + b[mids[i], slots[i]] for i in range(n)))
    return best


def _cases(seed: int, count: int):
    rng = np.random.default_rng(seed)
    for k in range(count):
        n = int(rng.integers(1, 6))
        a, b = rng.uniform(0, 10, (n, n)), rng.uniform(0, 10, (n, n))
        if k % 3 == 0:  # ties, as on a regular grid of slots
            a, b = np.round(a), np.round(b)
        yield a, b, rng.random((n, n)) > 0.2, rng.random((n, n)) > 0.2


def test_the_least_longest_walk_is_brute_forces():
    exact = 0
    for a, b, mid_ok, end_ok in _cases(2026, 150):
        found = relay_assignment(a, b, mid_ok, end_ok)
        best = brute(a, b, mid_ok, end_ok)
        assert found.bottleneck == pytest.approx(best, abs=1e-12) or found.bottleneck == best
        if np.isfinite(best):
            n = a.shape[0]
            assert sorted(found.mids) == list(range(n)) == sorted(found.ends)
            assert all(mid_ok[i, found.mids[i]] and end_ok[i, found.ends[i]] for i in range(n))
            walks = [a[i, found.mids[i]] + b[found.mids[i], found.ends[i]] for i in range(n)]
            assert max(walks) == found.bottleneck == walks[found.worst_model]
            exact += 1
    assert exact > 50


def test_the_exact_search_is_needed_and_agrees(monkeypatch):
    """Cases where the bounds differ go to CP-SAT: count them, and compare."""
    calls = []
    original = relay._exact
    monkeypatch.setattr(relay, "_exact", lambda *args: calls.append(1) or original(*args))
    rng = np.random.default_rng(7)
    for _ in range(30):
        a, b = rng.uniform(0, 10, (5, 5)), rng.uniform(0, 10, (5, 5))
        ok = np.ones((5, 5), dtype=bool)
        assert relay_assignment(a, b, ok, ok).bottleneck == pytest.approx(brute(a, b, ok, ok))
    assert len(calls) >= 10


def test_fixed_end_slots():
    for a, b, mid_ok, _end_ok in _cases(11, 60):
        n = a.shape[0]
        ends = tuple(int(k) for k in np.random.default_rng(n).permutation(n))
        every = np.ones((n, n), dtype=bool)
        found = relay_assignment(a, b, mid_ok, every, ends)
        assert found.bottleneck == pytest.approx(brute(a, b, mid_ok, every, ends))
        assert found.ends == ends or not np.isfinite(found.bottleneck)


def test_too_many_models_is_refused(monkeypatch):
    monkeypatch.setattr(relay, "MAX_MODELS", 2)
    a = np.arange(9.0).reshape(3, 3)
    with pytest.raises(RelayTooLarge):
        relay_assignment(a, a, np.ones((3, 3), bool), np.ones((3, 3), bool))
