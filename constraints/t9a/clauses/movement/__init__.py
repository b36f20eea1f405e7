"""The Move Manoeuvres' clauses (Advance, March, Reform), one module each."""
