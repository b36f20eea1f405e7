"""Casualties, unfrozen Unit Boundaries and nudges back into contact (seed 001)."""

from optimizer.nudge.least import NudgeFound, least_nudge
from optimizer.nudge.losses import Loss, load_losses, losses_from_json
from optimizer.nudge.resolve import NudgeResult, resolve

__all__ = ["Loss", "NudgeFound", "NudgeResult", "least_nudge", "load_losses",
           "losses_from_json", "resolve"]
