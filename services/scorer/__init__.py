"""ScorerService: τ-bench's reward for an episode and pass^k over trials."""

from taumesh.services.scorer.servicer import ScorerServicer, scorer_service

__all__ = ["ScorerServicer", "scorer_service"]
