"""The rulebook: domain values, geometry, rule clauses, rules profiles, scenario I/O."""
