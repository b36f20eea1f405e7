"""The best-move search: the request, the model, objectives, pruning, solve, explanations.
Importing this package registers the objectives' goals."""

from optimizer.search import distance_goals, heading_goals  # noqa: F401  (register goals)
