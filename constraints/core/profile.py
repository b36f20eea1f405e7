"""Rules profiles as data: which clauses apply to which manoeuvre, and their parameters.

A profile names its parameters once (`params`); a clause spec names a clause class and binds
its own parameter names to profile parameter names, so a scenario's `rule_options` override a
profile's numbers without touching any clause.  Systems register their profiles here
(`register_profile`); `find_profile` is how everything else gets one (python-chess's
`find_variant`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from constraints.core.verdict import ClauseResult, Reading
from constraints.errors import InvalidInputError

if TYPE_CHECKING:
    from constraints.core.clause import Clause
    from constraints.core.verdict import Violation

ParamValue = float | int | bool | tuple[int, ...]


@dataclass(frozen=True)
class ClauseSpec:
    """One rule clause as a profile applies it: the clause class (which names its own id,
    `Clause.id`, as every kind of clause does: docs/architecture.md), parameter bindings (the
    clause's own parameter name -> the profile's parameter name), and the rule's name as
    players know it (docs/rules.md; empty: spelt out from the id)."""

    clause: type[Clause]
    bind: Mapping[str, str] = field(default_factory=dict)
    name: str = ""

    @property
    def id(self) -> str:
        """The clause's stable dotted id (in scenario files, verdicts and outputs)."""
        return self.clause.id

    def bound_to(self, profile: RulesProfile) -> Clause:
        """The clause with this profile's parameters."""
        return self.clause(self, profile)


@dataclass(frozen=True)
class RulesProfile:
    """A named set of rules: per manoeuvre its clauses, and the parameters they read."""

    name: str
    description: str
    manoeuvres: Mapping[str, tuple[ClauseSpec, ...]]
    params: Mapping[str, ParamValue]
    system: str = ""

    def param(self, name: str) -> Any:
        return self.params[name]

    def clauses_for(self, manoeuvre: str) -> tuple[ClauseSpec, ...]:
        return self.manoeuvres[manoeuvre]

    def judge(self, ctx: Any, manoeuvre: str) -> tuple[tuple[Violation, ...], dict[str, float]]:
        """Every clause of the manoeuvre, bound to this profile, checked on a system's move
        context: the violations and measurements of them all (a checker's verdict)."""
        found = self.judge_all(ctx, manoeuvre)
        return found.violations, found.measurements

    def judge_all(self, ctx: Any, manoeuvre: str) -> ClauseResult:
        """As `judge`, with every clause's readings against its limits (referee mode)."""
        violations: list[Violation] = []
        measurements: dict[str, float] = {}
        readings: list[Reading] = []
        undecided: list[str] = []
        for spec in self.manoeuvres[manoeuvre]:
            found = spec.bound_to(self).check(ctx)
            measurements.update(found.measurements)
            violations.extend(found.violations)
            readings.extend(found.readings)
            undecided.extend(found.undecided)
        return ClauseResult(measurements, tuple(violations), tuple(readings), tuple(undecided))

    def clauses(self, manoeuvre: str) -> list[Clause]:
        """The manoeuvre's clauses, bound to this profile's parameters."""
        return [spec.bound_to(self) for spec in self.manoeuvres[manoeuvre]]

    def with_options(self, options: Mapping[str, Any]) -> RulesProfile:
        """This profile with some named parameters overridden (a scenario's `rule_options`)."""
        if not options:
            return self
        params = dict(self.params)
        for key, value in options.items():
            params[key] = _checked_option(self, key, value)
        return replace(self, params=MappingProxyType(params))


# Bounds of a numeric rules parameter, by what its name says it counts (docs/formats.md
# "Rules parameters"): far beyond any rules variant, and small enough that no geometry or
# model built from them overflows or fills memory (a March of 1e7 x Mob did).
OPTION_BOUNDS: tuple[tuple[str, float, str], ...] = (
    ("_mob", 10.0, "times Mob"),
    ("_deg", 180.0, "degrees"),
    ("_in", 24.0, "inches"),
    ("_tolerance", 1.0, "inches"),
)
MAX_WHOLE_OPTION = 1000  # file counts and rank widths: a unit's most models


def option_bound(key: str) -> tuple[float, str]:
    """The largest value a numeric parameter `key` accepts, and its unit (words)."""
    for suffix, most, unit in OPTION_BOUNDS:
        if key.endswith(suffix):
            return most, unit
    return float(MAX_WHOLE_OPTION), ""


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
        if not (isinstance(value, list | tuple) and len(value) == len(default)
                and all(isinstance(v, int) and not isinstance(v, bool)
                        and 0 < v <= MAX_WHOLE_OPTION for v in value)):
            raise InvalidInputError(f"expected {len(default)} positive integers of at most "
                                    f"{MAX_WHOLE_OPTION}, got {value!r}", path=where)
        return tuple(value)
    if isinstance(value, bool) or not isinstance(value, int | float) \
            or not 0 <= value < float("inf"):
        shown = _shown(value) if isinstance(value, int) and not isinstance(value, bool) \
            else repr(value)
        raise InvalidInputError(f"expected a finite number >= 0, got {shown}", path=where)
    if isinstance(default, int):
        if not isinstance(value, int):
            raise InvalidInputError(f"expected a whole number, got {value!r}", path=where)
        most, unit = float(MAX_WHOLE_OPTION), ""
    else:
        most, unit = option_bound(key)
    if value > most:
        raise InvalidInputError(f"expected a number <= {most:g}{' ' + unit if unit else ''}, "
                                f"got {_shown(value)}", path=where)
    return value


def _shown(value: float) -> str:
    """A number for a message, without converting a huge integer (which may not convert)."""
    return f"{value:g}" if isinstance(value, float) or abs(value) < 10**15 else \
        "an integer too large"


PROFILES: dict[str, RulesProfile] = {}


def register_profile(profile: RulesProfile) -> None:
    """Make a profile known by its name (a system does this when it is imported)."""
    PROFILES[profile.name] = profile


def find_profile(name: str) -> RulesProfile:
    """The registered profile called `name`; `InvalidInputError` naming the known ones."""
    try:
        return PROFILES[name]
    except KeyError:
        known = ", ".join(sorted(PROFILES))
        raise InvalidInputError(f"unknown rules profile {name!r} (known: {known})",
                                path="$.rules") from None


def rule_name(clause_id: str) -> str:
    """The rule's name for a clause id, as its profile gives it ("t9a.march.distance" ->
    "March distance"); an id no profile names is spelt out from its parts after the system."""
    spec = registered_clauses().get(clause_id)
    if spec is not None and spec.name:
        return spec.name
    _system, _, rest = clause_id.partition(".")
    words = (rest or clause_id).replace("_", " ").split(".")
    return ": ".join(words).capitalize()


def registered_clauses() -> dict[str, ClauseSpec]:
    """Every clause of every registered profile, by clause id (one spec per id)."""
    found: dict[str, ClauseSpec] = {}
    for profile in PROFILES.values():
        for specs in profile.manoeuvres.values():
            for spec in specs:
                found.setdefault(spec.id, spec)
    return found
