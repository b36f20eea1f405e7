"""Rank-and-file units: formations, slots, models (shared by T9A and Warhammer)."""
