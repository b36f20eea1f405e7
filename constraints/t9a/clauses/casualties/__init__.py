"""Casualties: removing models while Unit Boundaries are frozen, re-forming on unfreeze."""
