"""The orchestrator's metric instruments: episodes, reward, infrastructure errors, turn latency, tokens and cost.

(The ``gen_ai.client.*`` metrics of each model call come from the GenAI utility, see ``genai.py``.)
"""

from __future__ import annotations

from dataclasses import dataclass

from opentelemetry.metrics import Counter, Histogram, Meter

from taumesh.telemetry import attributes as A

DURATION_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0, 120.0, 300.0)
REWARD_BUCKETS = (0.0, 0.25, 0.5, 0.75, 0.999, 1.0)
"""A reward of exactly 1 lands in its own bucket; everything below it is a failure."""


@dataclass(frozen=True)
class Instruments:
    """One service's instruments (no-op ones when metrics are off)."""

    episodes: Counter
    reward: Histogram
    episode_duration: Histogram
    infra_errors: Counter
    turn_duration: Histogram
    tokens: Counter
    cost: Counter

    @classmethod
    def create(cls, meter: Meter) -> Instruments:
        return cls(
            episodes=meter.create_counter(A.METRIC_EPISODES, "{episode}", "Episodes finished."),
            reward=meter.create_histogram(
                A.METRIC_REWARD, "1", "Reward of scored episodes.", explicit_bucket_boundaries_advisory=REWARD_BUCKETS
            ),
            episode_duration=meter.create_histogram(
                A.METRIC_EPISODE_DURATION,
                "s",
                "Wall time of finished episodes.",
                explicit_bucket_boundaries_advisory=DURATION_BUCKETS,
            ),
            infra_errors=meter.create_counter(
                A.METRIC_INFRA_ERRORS, "{error}", "Episode attempts lost to infrastructure faults."
            ),
            turn_duration=meter.create_histogram(
                A.METRIC_TURN_DURATION,
                "s",
                "Wall time of each turn.",
                explicit_bucket_boundaries_advisory=DURATION_BUCKETS,
            ),
            tokens=meter.create_counter(A.METRIC_TOKENS, "{token}", "Model tokens used."),
            cost=meter.create_counter(A.METRIC_COST, "USD", "Model cost."),
        )
