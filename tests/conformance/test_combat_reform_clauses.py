"""The Combat Reform clauses of each profile (their rule examples are run by
test_rule_examples.py, with every other clause's)."""

from __future__ import annotations

from constraints.t9a.clauses.combat_reform import CLAUSES


def test_every_profile_has_each_clause_id_once():
    for profile, clauses in CLAUSES.items():
        ids = [c.id for c in clauses]
        assert len(ids) == len(set(ids)), profile
