"""Dense retrieval through litellm against a scripted embeddings server: the corpus is embedded once per model."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from taumesh.domains import DataError
from taumesh.domains.tau2_banking_knowledge.embeddings import DenseIndex, EmbeddingCache, EmbeddingModel
from taumesh.domains.tau2_banking_knowledge.knowledge import load_documents
from taumesh.domains.tau2_banking_knowledge.search import search_output
from tests.domains.tau2_banking_knowledge.keyword_vectors import vector
from tests.helpers.fake_model import FakeOpenAI
from tests.helpers.paths import SHARED

DOMAIN = SHARED / "tau2" / "head_banking_knowledge" / "data"
QUERY = "I lost my debit card, was it stolen?"

pytestmark = pytest.mark.skipif(not DOMAIN.is_dir(), reason=f"{DOMAIN} is not there")


def test_corpus_is_embedded_once_and_queries_rank_by_cosine(tmp_path: Path) -> None:
    documents = load_documents(DOMAIN)
    with FakeOpenAI(embed=vector) as server:
        model = EmbeddingModel(model="openai/text-embedding-3-large", api_base=server.url, api_key="sk-test")
        cache = EmbeddingCache(model, tmp_path / "embeddings")
        index = DenseIndex(documents, model, cache)
        embedded = server.embedded_inputs()
        assert sorted(embedded) == sorted({document.content for document in documents})
        assert all(request["path"] == "/v1/embeddings" for request in server.embedded)
        assert {request["model"] for request in server.embedded} == {"text-embedding-3-large"}

        again = DenseIndex(documents, model, cache)  # a second run: only the cache is read
        assert server.embedded_inputs() == embedded

        ranked = again.search(QUERY, k=3)
        assert server.embedded_inputs()[len(embedded) :] == [QUERY]
        assert index.search(QUERY) == again.search(QUERY)

    matrix = np.array([vector(document.content) for document in documents])
    query = np.array(vector(QUERY))
    scores = (matrix / np.linalg.norm(matrix, axis=1, keepdims=True)) @ (query / np.linalg.norm(query))
    expected = [documents[int(i)].id for i in np.argsort(scores)[::-1][:3]]
    assert [document.id for document, _ in ranked] == expected
    output = search_output(ranked, retrieval_ms=0.0, total_ms=0.0)
    assert output.startswith(f"1. {ranked[0][0].title}\n   ID: {expected[0]}\n   Score: {scores.max():.4f}\n")
    assert output.endswith("\n\n[Timing: retrieval=0ms, total=0ms]")


def test_an_unreachable_model_is_a_clear_error(tmp_path: Path) -> None:
    documents = load_documents(DOMAIN)[:2]
    with FakeOpenAI(embed=vector) as server:
        url = server.url
    model = EmbeddingModel(model="openai/text-embedding-3-large", api_base=url, api_key="sk-test")
    with pytest.raises(DataError, match="embedding model 'openai/text-embedding-3-large' failed"):
        DenseIndex(documents, model, EmbeddingCache(model, tmp_path))
