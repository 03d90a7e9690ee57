"""Where a knowledge-base domain's env finds the models it calls itself: environment variables, named once here.

A tool call carries no run option, so τ³'s banking_knowledge reads its embedding model and LLM reranker from the
environment of the process running the env. ``taumesh run`` and ``serve`` put them there from their flags
(``--embedding-model`` …, :class:`KnowledgeModels`, whose fields are the keys of
:data:`KNOWLEDGE_MODEL_VARIABLES`); the domain reads the same names. Keys come from the environment only.
"""

from __future__ import annotations

import os

from pydantic import BaseModel

EMBEDDING_MODEL_ENV = "TAUMESH_EMBEDDING_MODEL"
"""The embedding model of the dense configurations (a litellm model name)."""
EMBEDDING_API_BASE_ENV = "TAUMESH_EMBEDDING_API_BASE"
"""The embedding model's OpenAI-compatible endpoint."""
EMBEDDING_API_KEY_ENV = "TAUMESH_EMBEDDING_API_KEY"
"""The embedding model's key (never a flag)."""
RERANKER_MODEL_ENV = "TAUMESH_RERANKER_MODEL"
"""The LLM of the reranker configurations (a litellm model name)."""
RERANKER_API_BASE_ENV = "TAUMESH_RERANKER_API_BASE"
"""The reranker model's OpenAI-compatible endpoint."""
RERANKER_API_KEY_ENV = "TAUMESH_RERANKER_API_KEY"
"""The reranker model's key (never a flag)."""

KNOWLEDGE_MODEL_VARIABLES = {
    "embedding_model": EMBEDDING_MODEL_ENV,
    "embedding_api_base": EMBEDDING_API_BASE_ENV,
    "reranker_model": RERANKER_MODEL_ENV,
    "reranker_api_base": RERANKER_API_BASE_ENV,
}
"""The variable each setting fills, by the setting's name (the settings' environment prefix + its name, upper)."""


class KnowledgeModels(BaseModel, use_attribute_docstrings=True):
    """The models a knowledge-base domain's env calls itself (τ³'s banking_knowledge), read where the env runs.

    A tool call carries no run option, so the env's domain code reads them from its process environment, under the
    names :mod:`taumesh.llm.knowledge_models` gives (``TAUMESH_EMBEDDING_MODEL``…: each field's own variable); these
    flags put them there, for the services of ``run`` and ``serve``. Keys come from the environment only:
    ``TAUMESH_EMBEDDING_API_KEY``, ``TAUMESH_RERANKER_API_KEY``.
    """

    embedding_model: str | None = None
    """env: the embedding model of dense retrieval (a litellm name; upstream: openai/text-embedding-3-large)."""
    embedding_api_base: str | None = None
    """env: the embedding model's OpenAI-compatible endpoint."""
    reranker_model: str | None = None
    """env: the LLM rating search results in the *_reranker* configurations (upstream: openai/gpt-5.2)."""
    reranker_api_base: str | None = None
    """env: the reranker model's OpenAI-compatible endpoint."""

    def export_knowledge_models(self) -> None:
        """Put the models given where the env's domain code reads them: this process's environment (children's too)."""
        for name, variable in KNOWLEDGE_MODEL_VARIABLES.items():
            value = getattr(self, name)
            if value:
                os.environ[variable] = value
