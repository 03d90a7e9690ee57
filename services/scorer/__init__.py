"""ScorerService: τ-bench's reward for an episode and pass^k over trials."""

from services.scorer.servicer import ScorerServicer, scorer_service

__all__ = ["ScorerServicer", "scorer_service"]
