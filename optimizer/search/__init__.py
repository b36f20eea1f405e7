"""The best-move search: model, objectives, pruning, solve, explanations."""
