"""The τ-bench API fork's client names, on taumesh's SDK (``taumesh.client``)."""

from tau_bench.api.client import TauBenchAPIClient, quick_validate, validate_with_comparison

__all__ = ["TauBenchAPIClient", "quick_validate", "validate_with_comparison"]
