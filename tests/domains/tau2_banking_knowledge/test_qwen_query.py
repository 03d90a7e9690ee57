"""The Qwen configurations embed a query behind Qwen's instruction, as upstream's OpenRouter embedder does.

Documents are embedded as they are; a ``KB_search`` (``qwen_embeddings``) or ``KB_search_dense`` (``alltools-qwen``)
query goes as ``Instruct: <the imported instruction>\\nQuery:<query>``; OpenAI's configurations send the query alone,
whatever the model. The embedding model is a scripted server on 127.0.0.1.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from taumesh.domains import Registry, load_domain
from taumesh.domains.tau2_banking_knowledge.texts import banking_texts
from tests.domains.tau2_banking_knowledge.keyword_vectors import vector
from tests.domains.tau2_banking_knowledge.support import (
    ENV,
    NEEDS_FIXTURES_AND_CHECKOUT,
)
from tests.helpers.fake_model import FakeOpenAI

pytestmark = NEEDS_FIXTURES_AND_CHECKOUT
QUERY = "lost debit card"


@pytest.fixture
def embeddings(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeOpenAI]:
    with FakeOpenAI(embed=vector) as server:
        monkeypatch.setenv("TAUMESH_EMBEDDING_MODEL", "openai/qwen3-embedding-8b")
        monkeypatch.setenv("TAUMESH_EMBEDDING_API_BASE", server.url)
        monkeypatch.setenv("TAUMESH_EMBEDDING_API_KEY", "sk-embed")
        yield server


def _query_inputs(data_dir: Path, config: str, tool: str, server: FakeOpenAI) -> list[str]:
    domain = load_domain(f"{ENV}:{config}", data_dir, Registry.discover())
    session = domain.open_session(domain.task("base", 0))
    result = domain.call_tool(session, tool, {"query": QUERY})
    assert not result.error and result.observation.startswith("1. "), result.observation[:200]
    documents = {document.text for document in domain.documents}
    inputs = (
        server.embedded_inputs()
    )  # the corpus as it is (embedded once per model: by the first test), then the query
    return [text for text in inputs if text not in documents]


@pytest.mark.parametrize(("config", "tool"), [("qwen_embeddings", "KB_search"), ("alltools-qwen", "KB_search_dense")])
def test_a_qwen_configurations_query_goes_behind_qwens_instruction(
    data_dir: Path, embeddings: FakeOpenAI, config: str, tool: str
) -> None:
    instruction = banking_texts().qwen_query_instruction
    assert instruction
    assert _query_inputs(data_dir, config, tool, embeddings) == [f"Instruct: {instruction}\nQuery:{QUERY}"]


def test_an_openai_configuration_sends_the_query_alone(data_dir: Path, embeddings: FakeOpenAI) -> None:
    assert _query_inputs(data_dir, "openai_embeddings", "KB_search", embeddings) == [QUERY]
