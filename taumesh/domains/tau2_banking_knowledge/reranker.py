"""The LLM reranker of the ``*_reranker*`` configurations: upstream's pointwise relevance rating, through litellm.

Each document the search found is rated by the model: it gets upstream's prompt (extracted at ``data import``)
holding the query and the document's content, and answers a ``RelevanceScore`` object (``{"relevance_score": n}``,
as a structured output). Ratings are clipped to 0–10; a document whose rating fails is dropped, so is one rated
below 5 (upstream's ``reranker_min_score`` for these configurations); the rest rank by rating, highest first (ties
in search order), the rating as the score. Up to 20 ratings run at once; ``gpt-5*`` models are asked for low
reasoning effort, as upstream asks them. The model is ``TAUMESH_RERANKER_MODEL`` (a litellm name; upstream uses
OpenAI's ``gpt-5.2``), with ``TAUMESH_RERANKER_API_BASE`` and ``TAUMESH_RERANKER_API_KEY``, read where the env runs.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from pydantic import BaseModel, ConfigDict

from taumesh.domains import DataError
from taumesh.domains.tau2_banking_knowledge.knowledge import KnowledgeDocument
from taumesh.domains.tau2_banking_knowledge.search import Ranked
from taumesh.domains.tau2_banking_knowledge.texts import banking_texts
from taumesh.llm.knowledge_models import RERANKER_API_BASE_ENV, RERANKER_API_KEY_ENV, RERANKER_MODEL_ENV

MIN_SCORE = 5
MAX_CONCURRENCY = 20
REASONING_MODELS = ("gpt-5",)
"""Model names (after the provider) that upstream asks for ``reasoning_effort="low"``."""


class RelevanceScore(BaseModel):
    """The answer the model is asked for (named as upstream's structured output)."""

    relevance_score: int


class RerankerModel(BaseModel):
    """The rating model: a litellm model name, its endpoint and key."""

    model_config = ConfigDict(frozen=True)

    model: str
    api_base: str | None = None
    api_key: str | None = None


def reranker_model_name() -> str | None:
    """The reranker model this process was given (``TAUMESH_RERANKER_MODEL``); None without one."""
    return os.environ.get(RERANKER_MODEL_ENV, "").strip() or None


def reranker_model() -> RerankerModel | None:
    """The reranker model, its endpoint and key as this process was given them; None without one."""
    model = reranker_model_name()
    if model is None:
        return None
    base = os.environ.get(RERANKER_API_BASE_ENV, "").strip() or None
    return RerankerModel(model=model, api_base=base, api_key=os.environ.get(RERANKER_API_KEY_ENV) or None)


def reranker_prompt() -> str:
    """Upstream's prompt template, as imported; DataError saying how to get it."""
    prompt = banking_texts().reranker_prompt
    if prompt is None:
        raise DataError(
            "the imported banking_knowledge texts hold no reranker prompt: run `taumesh data import tau2 PATH` again "
            "with a checkout of sierra-research/tau2-bench that has src/tau2/knowledge/postprocessors"
        )
    return prompt


def rate(model: RerankerModel, prompt: str, query: str, content: str) -> int | None:
    """The model's rating of ``content`` for ``query``, 0–10; None when the call or its answer failed."""
    from taumesh.llm._litellm import litellm

    extra: dict[str, Any] = {}
    if model.model.rsplit("/", 1)[-1].startswith(REASONING_MODELS):
        extra["reasoning_effort"] = "low"
    try:
        response: Any = litellm.completion(
            model=model.model,
            messages=[{"role": "user", "content": prompt.format(query, content)}],
            response_format=RelevanceScore,
            api_base=model.api_base,
            api_key=model.api_key,
            **extra,
        )
        answer = RelevanceScore.model_validate_json(response.choices[0].message.content or "")
    except Exception:  # noqa: BLE001 - upstream drops a document whose rating fails, whatever failed
        return None
    return max(0, min(10, answer.relevance_score))


def rerank(model: RerankerModel, prompt: str, query: str, ranked: Ranked) -> Ranked:
    """``ranked`` rated by the model: those rated at least :data:`MIN_SCORE`, highest rating first."""
    rated: Sequence[KnowledgeDocument] = [document for document, _ in ranked if document.content]
    if not rated:
        return []
    with ThreadPoolExecutor(max_workers=min(MAX_CONCURRENCY, len(rated))) as pool:
        ratings = list(pool.map(lambda document: rate(model, prompt, query, document.content), rated))
    kept = [
        (document, float(rating))
        for document, rating in zip(rated, ratings, strict=True)
        if rating is not None and rating >= MIN_SCORE
    ]
    kept.sort(key=lambda pair: pair[1], reverse=True)
    return kept
