"""The offline search tools of the retrieval configurations: BM25 (``KB_search``, ``KB_search_bm25``) and ``grep``.

BM25 is ``rank_bm25.BM25Okapi`` with its default parameters, as upstream uses it, over each document's
``content`` lowercased and split on whitespace. Both rank by score, highest first, ties in knowledge-base order
(Python's stable sort), and show the top 10 in upstream's text format; a search tool's output ends with its timing.
"""

from __future__ import annotations

import importlib
import re
import time
from collections.abc import Callable, Sequence
from typing import Protocol

from taumesh.domains import DataError
from taumesh.domains.tau2_banking_knowledge.knowledge import KnowledgeDocument

TOP_K = 10
NO_DOCUMENTS = "No relevant documents found."
NO_MATCHES = "No matches found for pattern: {pattern}"

Ranked = list[tuple[KnowledgeDocument, float]]


class _Scorer(Protocol):
    def get_scores(self, query: list[str]) -> Sequence[float]: ...


def tokens(text: str) -> list[str]:
    """Upstream's BM25 tokenisation: lowercase, split on whitespace."""
    return text.lower().split()


def top(documents: Sequence[KnowledgeDocument], scores: Sequence[float], k: int = TOP_K) -> Ranked:
    """The ``k`` best documents by score, ties in knowledge-base order."""
    order = sorted(range(len(scores)), key=lambda index: scores[index], reverse=True)[: min(k, len(documents))]
    return [(documents[index], float(scores[index])) for index in order]


def _bm25_okapi() -> Callable[[list[list[str]]], _Scorer]:
    """``rank_bm25.BM25Okapi`` (imported when a BM25 configuration is used); DataError when it is not installed."""
    try:
        module = importlib.import_module("rank_bm25")
    except ImportError as exc:
        raise DataError("the BM25 retrieval configurations need rank-bm25: pip install 'rank-bm25>=0.2.2'") from exc
    okapi: Callable[[list[list[str]]], _Scorer] = module.BM25Okapi
    return okapi


class Bm25Index:
    """BM25 over the knowledge base, built once per corpus."""

    def __init__(self, documents: Sequence[KnowledgeDocument]) -> None:
        self.documents = tuple(documents)
        self._bm25: _Scorer = _bm25_okapi()([tokens(document.content) for document in self.documents])

    def search(self, query: str, k: int | None = None) -> Ranked:
        """The top 10 for ``query`` (then cut to ``k`` when given); none for a blank query."""
        if not query or not query.strip():
            return []
        ranked = top(self.documents, self._bm25.get_scores(tokens(query)))
        return ranked if k is None else ranked[: max(k, 0)]


def grep(documents: Sequence[KnowledgeDocument], pattern: str) -> Ranked:
    """Documents whose content matches ``pattern`` (a case-insensitive regex, else the literal text), by match count."""
    if not pattern or not pattern.strip():
        return []
    try:
        compiled = re.compile(pattern, re.IGNORECASE)
    except re.error:
        compiled = re.compile(re.escape(pattern), re.IGNORECASE)
    counts = [len(compiled.findall(document.content)) for document in documents]
    matching = [(document, count) for document, count in zip(documents, counts, strict=True) if count > 0]
    return top([document for document, _ in matching], [float(count) for _, count in matching])


def format_results(ranked: Ranked) -> str:
    """Upstream's listing: number, title, id, score to four places and the full content of each document."""
    return "\n".join(
        f"{rank}. {document.title or 'Untitled'}\n   ID: {document.id}\n   Score: {score:.4f}\n"
        f"   Content: {document.content}\n"
        for rank, (document, score) in enumerate(ranked, start=1)
    )


def timing_line(retrieval_ms: float, total_ms: float, reranking_ms: float = 0.0) -> str:
    """The line a ``KB_search`` output ends with (milliseconds rounded; reranking shown when one ran)."""
    reranking = f", reranking={reranking_ms:.0f}ms" if reranking_ms > 0 else ""
    return f"\n\n[Timing: retrieval={retrieval_ms:.0f}ms{reranking}, total={total_ms:.0f}ms]"


def search_output(ranked: Ranked, retrieval_ms: float, total_ms: float, reranking_ms: float = 0.0) -> str:
    """A ``KB_search*`` tool's observation: the listing (or that nothing was found) and its timing."""
    return (format_results(ranked) if ranked else NO_DOCUMENTS) + timing_line(retrieval_ms, total_ms, reranking_ms)


def grep_output(documents: Sequence[KnowledgeDocument], pattern: str) -> str:
    """The ``grep`` tool's observation."""
    ranked = grep(documents, pattern)
    return format_results(ranked) if ranked else NO_MATCHES.format(pattern=pattern)


def elapsed_ms(started: float) -> float:
    """Milliseconds since ``started`` (a ``time.perf_counter()`` value)."""
    return (time.perf_counter() - started) * 1000
