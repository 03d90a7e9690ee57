"""The ``*_reranker*`` configurations: ``KB_search`` rated by an LLM, as upstream's pointwise reranker rates.

A scripted OpenAI-compatible model on 127.0.0.1 rates each document it is shown (a number derived from the
document, or an unreadable answer for some); the search's output is BM25's top 10 rated, those at 5 or more, by
rating (ties in BM25's order), with a reranking time. Each rating request carries upstream's prompt (extracted at
import) filled with the query and the document, and asks for a ``RelevanceScore`` structured output; ``gpt-5*``
models are asked for low reasoning effort. Without a model the configuration is refused, naming the setting.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from taumesh.domains import DataError, Registry, load_domain
from taumesh.domains.tau2_banking_knowledge.knowledge import KnowledgeDocument, load_documents
from taumesh.domains.tau2_banking_knowledge.reranker import MIN_SCORE
from taumesh.domains.tau2_banking_knowledge.search import Bm25Index, format_results
from taumesh.domains.tau2_banking_knowledge.texts import banking_texts
from tests.domains.tau2_banking_knowledge.support import (
    ENV,
    FIXTURES,
    NEEDS_FIXTURES_AND_CHECKOUT,
)
from tests.helpers.fake_model import FakeOpenAI, Reply, text

pytestmark = NEEDS_FIXTURES_AND_CHECKOUT
QUERY = "credit card annual fee waiver"
DOCUMENT = re.compile(r"<start_document>\n(.*)\n<end_document>", re.DOTALL)
TIMING = re.compile(r"\n\n\[Timing: retrieval=\d+ms, reranking=\d+ms, total=\d+ms\]$")


def rating_of(content: str) -> int | None:
    """What the scripted model rates a document: None (an unreadable answer) for every seventh length."""
    return None if len(content) % 7 == 0 else len(content) % 11


def rate(request: dict[str, Any], ordinal: int) -> Reply:
    found = DOCUMENT.search(request["messages"][0]["content"])
    rating = rating_of(found.group(1)) if found else None
    return text("not json" if rating is None else json.dumps({"relevance_score": rating}))


@pytest.fixture
def model(fake: FakeOpenAI, monkeypatch: pytest.MonkeyPatch) -> FakeOpenAI:
    fake.reset(rate)
    monkeypatch.setenv("TAUMESH_RERANKER_MODEL", "openai/rater")
    monkeypatch.setenv("TAUMESH_RERANKER_API_BASE", fake.url)
    monkeypatch.setenv("TAUMESH_RERANKER_API_KEY", "sk-rater")
    return fake


def _search(data_dir: Path, config: str, query: str) -> str:
    domain = load_domain(f"{ENV}:{config}", data_dir, Registry.discover())
    session = domain.open_session(domain.task("base", 0))
    result = domain.call_tool(session, "KB_search", {"query": query})
    assert not result.error
    return result.observation


def _expected(query: str) -> list[tuple[KnowledgeDocument, float]]:
    found = Bm25Index(load_documents(FIXTURES / "data")).search(query)
    rated = [(document, rating_of(document.content)) for document, _ in found]
    kept = [(document, float(rating)) for document, rating in rated if rating is not None and rating >= MIN_SCORE]
    return sorted(kept, key=lambda pair: pair[1], reverse=True)


def test_bm25s_documents_come_out_rated_by_the_model(data_dir: Path, model: FakeOpenAI) -> None:
    output = _search(data_dir, "bm25_reranker_grep", QUERY)
    expected = _expected(QUERY)
    assert 0 < len(expected) < 10  # some dropped for their rating, some for an unreadable answer
    assert TIMING.search(output), output[-120:]
    assert TIMING.sub("", output) == format_results(expected)
    requests = model.requests
    assert len(requests) == 10  # every document BM25 found was rated once
    prompt = banking_texts().reranker_prompt
    assert prompt is not None and prompt.count("{}") == 2
    documents = {document.content for document, _ in Bm25Index(load_documents(FIXTURES / "data")).search(QUERY)}
    for request in requests:
        (message,) = request["messages"]
        content = DOCUMENT.search(message["content"])
        assert content is not None and content.group(1) in documents
        assert message == {"role": "user", "content": prompt.format(QUERY, content.group(1))}
        assert request["model"] == "rater" and "reasoning_effort" not in request
        schema = request["response_format"]["json_schema"]
        assert schema["name"] == "RelevanceScore" and "relevance_score" in schema["schema"]["properties"]


def test_a_gpt5_rater_is_asked_for_low_reasoning_effort(
    data_dir: Path, model: FakeOpenAI, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TAUMESH_RERANKER_MODEL", "openai/gpt-5.2")
    _search(data_dir, "bm25_reranker", "dispute a debit card transaction")
    assert {request.get("reasoning_effort") for request in model.requests} == {"low"}


def test_nothing_rated_high_enough_says_no_documents(data_dir: Path, model: FakeOpenAI) -> None:
    model.reset(text('{"relevance_score": 2}'))
    output = _search(data_dir, "bm25_reranker", QUERY)
    assert TIMING.sub("", output) == "No relevant documents found."


def test_without_a_model_the_configuration_is_refused(data_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("TAUMESH_RERANKER_MODEL", raising=False)
    with pytest.raises(DataError, match="needs an LLM reranker: name its model in TAUMESH_RERANKER_MODEL"):
        load_domain(f"{ENV}:bm25_reranker", data_dir, Registry.discover())
