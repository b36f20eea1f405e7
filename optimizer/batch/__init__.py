"""Batch legality for game AIs: the per-pose judge (`legal_mask` is in optimizer.pose_mask)."""

from optimizer.batch.judge import BatchJudge

__all__ = ["BatchJudge"]
