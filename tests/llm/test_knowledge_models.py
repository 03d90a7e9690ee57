"""The knowledge models' variables: what ``run``/``serve`` read and export is what the banking domain reads.

Each name is declared once (:mod:`taumesh.llm.knowledge_models`); the settings read their fields from the
environment under names pydantic-settings derives from the field names, so these tests fail when a field, a
variable or the domain's reading drifts from the others.
"""

from __future__ import annotations

import pytest

from taumesh.domains.tau2_banking_knowledge.reranker import RerankerModel, reranker_model
from taumesh.domains.tau2_banking_knowledge.retrieval_tools import embedding_model
from taumesh.llm.knowledge_models import EMBEDDING_API_KEY_ENV, KNOWLEDGE_MODEL_VARIABLES, RERANKER_API_KEY_ENV
from taumesh.settings import KnowledgeModels, RunSettings, ServeSettings, ServiceName

GIVEN = {
    "embedding_model": "openai/embedder",
    "embedding_api_base": "http://127.0.0.1:9/v1",
    "reranker_model": "openai/rater",
    "reranker_api_base": "http://127.0.0.1:8/v1",
}


@pytest.fixture
def clean_environ(monkeypatch: pytest.MonkeyPatch) -> pytest.MonkeyPatch:
    for variable in [*KNOWLEDGE_MODEL_VARIABLES.values(), EMBEDDING_API_KEY_ENV, RERANKER_API_KEY_ENV]:
        monkeypatch.setenv(variable, "")  # recorded, so what the export writes is undone after the test
        monkeypatch.delenv(variable)
    return monkeypatch


def test_every_setting_has_its_variable() -> None:
    assert set(KNOWLEDGE_MODEL_VARIABLES) == set(KnowledgeModels.model_fields) == set(GIVEN)


def test_serve_reads_each_setting_from_its_variable(clean_environ: pytest.MonkeyPatch) -> None:
    """A container sets the variables; ``taumesh serve env`` reads them as its settings (pydantic-settings' names)."""
    for name, variable in KNOWLEDGE_MODEL_VARIABLES.items():
        clean_environ.setenv(variable, GIVEN[name])
    settings = ServeSettings(service=ServiceName.env)
    assert {name: getattr(settings, name) for name in GIVEN} == GIVEN


def test_the_flags_reach_the_domain(clean_environ: pytest.MonkeyPatch) -> None:
    """``run --embedding-model … --reranker-api-base …`` exports what the banking domain's env then reads."""
    clean_environ.setenv(EMBEDDING_API_KEY_ENV, "sk-embed")
    clean_environ.setenv(RERANKER_API_KEY_ENV, "sk-rate")
    assert embedding_model() is None and reranker_model() is None
    RunSettings(**GIVEN).export_knowledge_models()  # type: ignore[arg-type]
    embedder = embedding_model()
    assert embedder is not None
    assert embedder.model == "openai/embedder" and embedder.api_key == "sk-embed"
    assert embedder.api_base == GIVEN["embedding_api_base"]
    rater = RerankerModel(model="openai/rater", api_base=GIVEN["reranker_api_base"], api_key="sk-rate")
    assert reranker_model() == rater
