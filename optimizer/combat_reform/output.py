"""A player's Combat Reforms as JSON (docs/formats.md, "Combat Reform result") and text."""

from __future__ import annotations

from typing import Any

from constraints.rank_and_file.contact import model_contacts
from optimizer.combat_reform.reforms import LEVELS, PlayerReforms, UnitOutcome

ORDER = ("OPTIMAL", "FEASIBLE", "NOT_FOUND", "TIMEOUT")


def status_of(found: PlayerReforms) -> str:
    """The worst of the units' statuses; INFEASIBLE when no unit may reform at all."""
    answers = [o.answer for o in found.outcomes if o.answer is not None]
    if not answers:
        return "INFEASIBLE"
    return max((a.status for a in answers), key=ORDER.index)


def reforms_to_json(found: PlayerReforms) -> dict[str, Any]:
    done = [o for o in found.outcomes if o.answer is not None and o.reform is not None]
    value: list[float | int | None] = [sum(o.answer.value[i] for o in done if o.answer)
                                       for i in range(2)]
    bound: list[float | int | None] = [sum(o.answer.bound[i] for o in done if o.answer)
                                       for i in range(2)]
    # The third level is least at the offset found, not proved over offsets: no bound.
    value.append(round(sum(o.displacement_in for o in done), 6))
    bound.append(None)
    notes = {"notes": list(found.notes)} if found.notes else {}
    return {
        "manoeuvre": "combat_reform",
        "status": status_of(found),
        "player": found.player,
        "objective": {"name": "lexicographic", "levels": list(LEVELS), "value": value,
                      "bound": bound},
        "reforms": [_unit(found, o) for o in done],
        "refused": [{"unit": o.unit, "violations": [v.to_json() for v in o.refused.violations]}
                    for o in found.outcomes if o.refused is not None],
        "not_found": [{"unit": o.unit, "status": o.answer.status, "reason": o.answer.reason}
                      for o in found.outcomes if o.answer is not None and o.reform is None],
        "verdict": None if found.verdict is None else found.verdict.to_json(),
        **notes,
    }


def _unit(found: PlayerReforms, outcome: UnitOutcome) -> dict[str, Any]:
    answer, reform = outcome.answer, outcome.reform
    assert answer is not None and reform is not None and answer.reformed is not None
    placed = found.after.unit(outcome.unit)
    enemies = [u for u in found.after.units if u.player != placed.player]
    after = {a for e in enemies for a, _ in model_contacts(placed, e)}
    return {"unit": reform.unit, "files": reform.files,
            "centre": [round(c, 9) for c in reform.centre],
            "facing": round(reform.facing_deg, 9),
            "models": [{"id": m.id, "slot": list(m.slot),
                        "position": [round(c, 6) for c in answer.reformed.slot_centre(m.slot)]}
                       for m in reform.models],
            "contacts_before": answer.contacts_before, "contacts_after": len(after),
            "status": answer.status,
            "value": [*answer.value, round(outcome.displacement_in, 6)],
            "bound": [*answer.bound, None],
            "family": answer.family}


def reforms_text(found: PlayerReforms) -> str:
    lines = [f"combat reforms of {found.player}: {status_of(found)}"]
    for o in found.outcomes:
        if o.refused is not None:
            why = "; ".join(v.message for v in o.refused.violations)
            lines.append(f"  {o.unit}: may not reform ({why})")
        elif o.answer is not None and o.reform is None:
            lines.append(f"  {o.unit}: {o.answer.status}: {o.answer.reason}")
        elif o.answer is not None and o.reform is not None:
            a, r = o.answer, o.reform
            lines.append(f"  {o.unit}: {a.status}, {r.files} files, centre ({r.centre[0]:.4f}, "
                         f"{r.centre[1]:.4f}), facing {r.facing_deg:g}; models in contact "
                         f"{a.contacts_before} -> {a.value[0]} (bound {a.bound[0]}), enemy "
                         f"models touched {a.value[1]}")
    lines += [f"  note: {note}" for note in found.notes]
    if found.verdict is not None:
        lines.append(f"  checked: {'legal' if found.verdict.legal else 'ILLEGAL'}")
    return "\n".join(lines)
