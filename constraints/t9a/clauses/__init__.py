"""The rule clauses, one module each.  Importing this package registers every clause kind."""

from constraints.core.clause import CLAUSE_KINDS, Clause, clause_for
from constraints.t9a.clauses.movement import (  # noqa: F401  (imported to register the clause kinds)
    heading_window,
    pivot,
    reform_centre,
    reform_files,
    reform_paths,
    reorder,
    snaking_distance,
    spacing,
    table_edge,
    valid_final_position,
    viable_formation,
)

__all__ = ["CLAUSE_KINDS", "Clause", "clause_for"]
