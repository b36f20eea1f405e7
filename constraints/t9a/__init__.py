"""The Ninth Age: its moves, kinematics, profiles and rule clauses."""
