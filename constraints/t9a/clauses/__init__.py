"""The rule clauses of The Ninth Age, by topic (`movement/`: the Move Manoeuvres)."""
