"""The fake model's embeddings for the retrieval tests: each text's vector counts a few banking keywords.

Served by ``FakeOpenAI(embed=vector)`` (tests/helpers/fake_model.py) at ``POST /v1/embeddings``.
"""

from __future__ import annotations

KEYWORDS = ("credit", "debit", "card", "lost", "stolen", "fee", "dispute", "account", "savings", "transfer")


def vector(text: str) -> list[float]:
    """The server's embedding of ``text``: keyword counts, plus a constant so that no vector is zero."""
    lowered = text.lower()
    return [float(lowered.count(word)) for word in KEYWORDS] + [1.0]
