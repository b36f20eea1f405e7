"""Game-agnostic values, verdicts, the clause protocol and the system registry."""
