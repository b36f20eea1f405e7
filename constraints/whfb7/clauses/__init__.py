"""The whfb7 rule clauses, one module each (docs/rules.md §14)."""
