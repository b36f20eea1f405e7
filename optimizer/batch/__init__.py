"""Batch legality for game AIs."""

from optimizer.batch.judge import BatchJudge, legal_mask

__all__ = ["BatchJudge", "legal_mask"]
