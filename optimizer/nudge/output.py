"""The nudge result as JSON (docs/formats.md, "Nudge result") and as text."""

from __future__ import annotations

from typing import Any

from optimizer.nudge.losses import losses_to_json
from optimizer.nudge.resolve import NudgeResult


def result_to_json(result: NudgeResult) -> dict[str, Any]:
    return {
        "status": result.status,
        "units": [{"id": u.id, "models": u.formation.model_count, "files": u.files,
                   "centre": [round(c, 9) for c in u.pose.centre],
                   "facing": round(u.pose.facing_deg, 9)} for u in result.changed()],
        "nudges": [{"unit": n.unit, "legs": [leg.to_json() for leg in n.legs],
                    "distance": round(n.distance_in, 9), "touches": list(n.touched)}
                   for n in result.nudges],
        "order": list(result.order),
        "alternative_orders": [list(o) for o in result.alternative_orders],
        "combats": [list(c) for c in result.combats],
        "no_more_foes": [{"unit": uid, "options": list(options)}
                         for uid, options in result.no_more_foes],
        "removed": list(result.removed),
        "in_combat": result.in_combat,
        "solves": result.solves,
        "casualties": losses_to_json(result.losses),
    }


def result_text(result: NudgeResult) -> str:
    lines = [f"nudge: {result.status} ({result.in_combat} units in combat after; the order "
             f"{'proved' if result.status == 'OPTIMAL' else 'not proved'} best)"]
    for u in result.changed():
        lines.append(f"  {u.id}: {u.formation.model_count} models, {u.files} files, centre "
                     f"({u.pose.centre[0]:.4f}, {u.pose.centre[1]:.4f}), facing "
                     f"{u.pose.facing_deg:g}")
    for uid in result.removed:
        lines.append(f"  {uid}: wiped out, leaves the battlefield")
    for n in result.nudges:
        legs = ", then ".join(f"{leg.direction} {leg.distance_in:+.6f}\"" for leg in n.legs)
        lines.append(f"  nudge {n.unit}: {legs} ({n.distance_in:.6f}\"; touches "
                     f"{', '.join(n.touched)})")
    lines.append(f"  order: {' '.join(result.order) or '(none to nudge)'}")
    for alt in result.alternative_orders:
        lines.append(f"  or (owner's choice): {' '.join(alt)}")
    lines.append("  combats: " + ("; ".join(" ".join(c) for c in result.combats) or "none"))
    for uid, options in result.no_more_foes:
        lines.append(f"  No More Foes: {uid} may {' or '.join(options)}")
    return "\n".join(lines)
