"""What the scenario's profile asks of a Combat Reform, read from its clauses' roles
(constraints.t9a.clauses.combat_reform.base.Role): the search never names a clause or a
profile."""

from __future__ import annotations

from constraints.core.scenario import Scenario
from constraints.core.verdict import Verdict
from constraints.t9a.clauses.combat_reform import CLAUSES, CombatReformClause, Role

__all__ = ["Role", "clauses_with", "placement_breaks", "roles"]


def roles(scenario: Scenario) -> frozenset[Role]:
    """The roles of the profile's Combat Reform clauses."""
    return frozenset(c.role for c in CLAUSES[scenario.profile.name])


def clauses_with(scenario: Scenario, role: Role) -> list[type[CombatReformClause]]:
    return [c for c in CLAUSES[scenario.profile.name] if c.role is role]


def placement_breaks(scenario: Scenario, verdict: Verdict) -> list[str]:
    """The clauses `verdict` names other than who may reform (the caller's to judge, with the
    combat result): what the search's placement broke."""
    eligibility = {c.id for c in clauses_with(scenario, Role.ELIGIBILITY)}
    return [c for c in verdict.clauses() if c not in eligibility]
