"""The status of an answer follows from what its search proved, in one place
(optimizer.search.proof.Proof.status): a table of facts and the status each gives, and the
refinements a search's stages make."""

from __future__ import annotations

import pytest

from constraints.core.status import Status
from optimizer.search.proof import Proof, Scope

EVERY, FAMILY = Scope.EVERY_WAY, Scope.FAMILY


@pytest.mark.parametrize(("proof", "found", "expected"), [
    # The solver's claim over every way the rules allow stands.
    (Proof(Status.OPTIMAL, EVERY), True, Status.OPTIMAL),
    (Proof(Status.FEASIBLE, EVERY), True, Status.FEASIBLE),
    (Proof(Status.INFEASIBLE, EVERY), False, Status.INFEASIBLE),
    (Proof(Status.TIMEOUT, EVERY), False, Status.TIMEOUT),
    # Over a family alone it proves nothing of the rest: FEASIBLE, NOT_FOUND.
    (Proof(Status.OPTIMAL, FAMILY), True, Status.FEASIBLE),
    (Proof(Status.INFEASIBLE, FAMILY), False, Status.NOT_FOUND),
    (Proof(Status.TIMEOUT, FAMILY), False, Status.TIMEOUT),
    (Proof(Status.TIMEOUT, FAMILY, none_in_family=True), False, Status.NOT_FOUND),
    # A bound over every way that the answer meets proves it, whatever was searched.
    (Proof(Status.FEASIBLE, FAMILY, bound=1.0, bound_covers="any_wheels", bound_proves=True,
           tolerance=0.01), True, Status.OPTIMAL),
    (Proof(Status.OPTIMAL, FAMILY, bound=1.0, bound_covers="any_wheels", bound_proves=False,
           tolerance=0.01), True, Status.FEASIBLE),
    # An answer from outside the model (its claim INFEASIBLE or cut short) is FEASIBLE.
    (Proof(Status.INFEASIBLE, EVERY), True, Status.FEASIBLE),
    (Proof(Status.TIMEOUT, EVERY), True, Status.FEASIBLE),
    # A clause that refuses every move: INFEASIBLE under the rules.
    (Proof(Status.INFEASIBLE, FAMILY, refused=True), False, Status.INFEASIBLE),
])
def test_the_status_follows_from_the_facts(proof: Proof, found: bool, expected: Status) -> None:
    assert proof.status(found) == expected


def test_within_a_family_a_bound_is_kept_only_when_given() -> None:
    proved = Proof(Status.OPTIMAL, bound=2.0).bounded(2.0, "any_wheels", True, 0.01)
    narrowed = proved.within_family({"max_wheels": 1})
    assert narrowed.scope == FAMILY and narrowed.family == {"max_wheels": 1}
    assert narrowed.bound is None and narrowed.bound_covers is None
    assert not narrowed.bound_proves and narrowed.status(True) == Status.FEASIBLE
    assert proved.within_family(bound=1.5).bound == 1.5
    assert proved.within_family().family == {}
