"""A legal formation (seed 002: "The unit must be placed in a legal formation"; RULES §2.12
(A) 3.1: "any viable formation").

A viable formation (RULES §2.1.3, §2.1.9): the front rank sets the width, so it is full;
"every rank has the same width, except the rear rank, which may be narrower and may have
gaps, as long as its models stay aligned with the files" (slots keep them aligned); Characters
"go in the front rank.  If it is full of other Attachable models, they go as far forward as
possible"; and "the unit may not voluntarily have more Ranks than Files, unless its width
reaches a Proper Rank" (`formation_problem`: keeping the files it had is not voluntary).

Measured: the ranks, the empty slots in front of the rear rank (`gaps`) and the Characters
standing behind a slot they could take (`characters_behind`).
"""

from __future__ import annotations

from constraints.core.verdict import ClauseResult, Violation
from constraints.rank_and_file.formation import Formation
from constraints.t9a.clauses.combat_reform.base import CombatReformClause, ReformExample
from constraints.t9a.clauses.combat_reform.context import ReformContext
from constraints.t9a.clauses.combat_reform.examples import at, foe, line, reform, scene
from constraints.t9a.clauses.movement.reform_viable_formation import formation_problem

_SCENE = scene(line(), foe(0.0))
_LED = scene(line(models=9, characters=[{"id": "cap", "slot": [0, 2]}]), foe(0.0))
_REAR = tuple(at(f"u.{i}", 2, i) for i in range(4))  # four models in the rear rank of 4 files


def gaps(formation: Formation) -> int:
    """Empty slots in the ranks in front of the rear rank (these must be full)."""
    rear = formation.ranks - 1
    occupied = set(formation.occupied_slots())
    return sum(1 for r in range(rear) for f in range(formation.files) if (r, f) not in occupied)


def characters_behind(formation: Formation) -> int:
    """Characters not as far forward as possible: behind a slot no Character holds."""
    chars = formation.character_slots()
    return sum(1 for rank, _ in chars
               if any((r, f) not in chars for r in range(rank) for f in range(formation.files)))


class LegalFormation(CombatReformClause):
    id = "combat_reform.formation"
    examples = (
        ReformExample("placed as it stands: 5 files x 2 ranks", _SCENE, (reform(),), False,
                      ("gaps", 0.0)),
        ReformExample("the rear rank may have gaps, its models aligned with the files",
                      _SCENE, (reform(files=4, y=9.5, models=(at("u.0", 2, 0),
                                                              at("u.1", 2, 3))),), False,
                      ("gaps", 0.0)),
        ReformExample("only the rear rank may be incomplete: the second rank has 2 gaps",
                      _SCENE, (reform(files=4, y=9.5, models=_REAR),), True, ("gaps", 2.0)),
        ReformExample("the front rank sets the width: 6 files with a gap in the front rank",
                      _SCENE, (reform(files=6, models=tuple(at(f"u.{i}", 1, i)
                                                            for i in range(5))),), True,
                      ("gaps", 1.0)),
        ReformExample("Characters go in the front rank", _LED,
                      (reform(models=(at("cap", 1, 2),)),), True, ("characters_behind", 1.0)),
        ReformExample("a Character may move along the front rank", _LED,
                      (reform(models=(at("cap", 0, 4),)),), False, ("characters_behind", 0.0)),
        ReformExample("not voluntarily more Ranks than Files: 10 models in 2 files", _SCENE,
                      (reform(files=2, y=8.5),), True, ("ranks", 5.0)),
        ReformExample("keeping the 2 files it had is not voluntary",
                      scene(line(models=6, files=2, y=9.5), foe(0.0)),
                      (reform(files=2, y=9.5),), False, ("ranks", 3.0)),
    )

    def check(self, ctx: ReformContext) -> ClauseResult:
        unit, formation = ctx.end_unit, ctx.end_unit.formation
        widths = ctx.param("proper_rank_width")
        width = int(widths[min(unit.height, len(widths) - 1)])
        found = {"ranks": float(formation.ranks), "gaps": float(gaps(formation)),
                 "characters_behind": float(characters_behind(formation))}
        shape = f"{formation.files} files x {formation.ranks} ranks"
        violations = []
        problem, measured, limit = formation_problem(formation, width, ctx.unit.files)
        if problem:
            violations.append(Violation(self.id, measured, limit, "models",
                                        f"{shape} is not a viable formation: {problem}"))
        if found["gaps"]:
            violations.append(Violation(self.id, found["gaps"], 0.0, "models",
                                        f"{shape} has {found['gaps']:.0f} empty slots in front "
                                        "of its rear rank: only the rear rank may be "
                                        "incomplete"))
        if found["characters_behind"]:
            violations.append(Violation(self.id, found["characters_behind"], 0.0, "models",
                                        f"{found['characters_behind']:.0f} Characters stand "
                                        "behind the front rank with room in front of them"))
        return ClauseResult(found, tuple(violations))
