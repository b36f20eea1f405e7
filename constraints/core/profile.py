"""Rules profiles as data: which clauses apply to which manoeuvre, and their parameters.

A profile names its parameters once (`params`); a clause spec binds the clause's own
parameter names to profile parameter names, so a scenario's `rule_options` override a
profile's numbers without touching any clause.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Any

from constraints.errors import InvalidInputError

ParamValue = float | int | bool | tuple[int, ...]


@dataclass(frozen=True)
class ClauseSpec:
    """One rule clause as a profile applies it: stable id, clause kind, parameter bindings."""

    id: str
    kind: str
    bind: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class RulesProfile:
    name: str
    description: str
    manoeuvres: Mapping[str, tuple[ClauseSpec, ...]]
    params: Mapping[str, ParamValue]

    def param(self, name: str) -> Any:
        return self.params[name]

    def clauses_for(self, manoeuvre: str) -> tuple[ClauseSpec, ...]:
        return self.manoeuvres[manoeuvre]

    def with_options(self, options: Mapping[str, Any]) -> RulesProfile:
        """This profile with some named parameters overridden (a scenario's `rule_options`)."""
        if not options:
            return self
        params = dict(self.params)
        for key, value in options.items():
            params[key] = _checked_option(self, key, value)
        return replace(self, params=MappingProxyType(params))


def _checked_option(profile: RulesProfile, key: str, value: Any) -> ParamValue:
    where = f"$.rule_options.{key}"
    if key not in profile.params:
        known = ", ".join(sorted(profile.params))
        raise InvalidInputError(f"unknown option for rules {profile.name!r} (known: {known})",
                                path=where)
    default = profile.params[key]
    if isinstance(default, bool):
        if not isinstance(value, bool):
            raise InvalidInputError(f"expected true or false, got {value!r}", path=where)
        return value
    if isinstance(default, tuple):
        if not (isinstance(value, list) and len(value) == len(default)
                and all(isinstance(v, int) and not isinstance(v, bool) and v > 0 for v in value)):
            raise InvalidInputError(f"expected {len(default)} positive integers, got {value!r}",
                                    path=where)
        return tuple(value)
    if isinstance(value, bool) or not isinstance(value, int | float) or not value >= 0 \
            or value == float("inf"):
        raise InvalidInputError(f"expected a finite number >= 0, got {value!r}", path=where)
    if isinstance(default, int) and not isinstance(value, int):
        raise InvalidInputError(f"expected a whole number, got {value!r}", path=where)
    return value
