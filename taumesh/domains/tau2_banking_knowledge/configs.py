"""The retrieval configurations of ``banking_knowledge`` (upstream's retrieval variants), by name.

Each names its prompt template (``prompts/<template>.md``), how the policy is built from it, and the retrieval
tools the agent gets, in the order they come before the domain's own tools. ``offline`` configurations need no
model; the others need an embedding model or an LLM reranker, and the shell's a sandbox that holds on this machine
(bubblewrap 0.8 or later, user namespaces, and as root util-linux's ``setpriv``: :func:`.sandbox.sandbox_problem`).
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict

from taumesh.domains import DataError
from taumesh.domains.tau2_banking_knowledge.sandbox import sandbox_problem
from taumesh.llm.knowledge_models import (
    EMBEDDING_API_BASE_ENV,
    EMBEDDING_MODEL_ENV,
    RERANKER_API_BASE_ENV,
    RERANKER_MODEL_ENV,
)

Builder = Literal["standard", "full_kb", "golden"]
RetrievalTool = Literal["KB_search", "KB_search_bm25", "KB_search_dense", "grep", "shell"]
Provider = Literal["openai", "openrouter"]

DEFAULT_CONFIG = "alltools"
"""Upstream's default since 1.0.1 (before: ``bm25``)."""
ALIASES = {"AllTools": "alltools"}
EMBEDDING_MODELS: dict[Provider, str] = {"openai": "text-embedding-3-large", "openrouter": "qwen3-embedding-8b"}
PROVIDER_NAMES: dict[Provider, str] = {"openai": "OpenAI API", "openrouter": "OpenRouter"}


class Search(BaseModel):
    """What a ``KB_search*`` tool searches with: BM25, or an embedding model; optionally reranked by an LLM."""

    model_config = ConfigDict(frozen=True)

    kind: Literal["bm25", "embedding"]
    provider: Provider | None = None
    reranker: bool = False

    @property
    def embedding_model(self) -> str | None:
        return EMBEDDING_MODELS[self.provider] if self.provider is not None else None


class RetrievalConfig(BaseModel):
    """One configuration: prompt template, policy builder and retrieval tools."""

    model_config = ConfigDict(frozen=True)

    name: str
    template: str
    builder: Builder = "standard"
    kb_search: Search | None = None
    kb_search_bm25: bool = False
    kb_search_dense: Provider | None = None
    grep: bool = False
    shell_access: Literal["read", "write"] | None = None
    """The ``shell`` tool over the exported documents: read-only, or allowed to write notes."""

    @property
    def tools(self) -> tuple[RetrievalTool, ...]:
        """The retrieval tools, in the order the agent's tool list starts with."""
        listed: list[tuple[bool, RetrievalTool]] = [
            (self.kb_search is not None, "KB_search"),
            (self.kb_search_bm25, "KB_search_bm25"),
            (self.kb_search_dense is not None, "KB_search_dense"),
            (self.grep, "grep"),
            (self.shell_access is not None, "shell"),
        ]
        return tuple(name for present, name in listed if present)

    @property
    def needs(self) -> list[str]:
        """What the configuration needs beyond this machine: an embedding model, a reranker, a sandbox."""
        needed = []
        if (self.kb_search is not None and self.kb_search.kind == "embedding") or self.kb_search_dense is not None:
            needed.append(f"an embedding model ({EMBEDDING_MODEL_ENV})")
        if self.kb_search is not None and self.kb_search.reranker:
            needed.append(f"an LLM reranker ({RERANKER_MODEL_ENV})")
        if self.shell_access is not None and sandbox_problem() is not None:
            needed.append("a sandboxed shell (bubblewrap)")
        return needed

    @property
    def offline(self) -> bool:
        return not self.needs


def _configs() -> dict[str, RetrievalConfig]:
    configs = [
        RetrievalConfig(name="no_knowledge", template="no_knowledge"),
        RetrievalConfig(name="full_kb", template="full_kb", builder="full_kb"),
        RetrievalConfig(name="golden_retrieval", template="required_docs", builder="golden"),
        RetrievalConfig(name="bm25", template="classic_rag_bm25_no_grep", kb_search=Search(kind="bm25")),
        RetrievalConfig(name="bm25_grep", template="classic_rag_bm25", kb_search=Search(kind="bm25"), grep=True),
        RetrievalConfig(
            name="bm25_reranker", template="classic_rag_bm25_no_grep", kb_search=Search(kind="bm25", reranker=True)
        ),
        RetrievalConfig(
            name="bm25_reranker_grep",
            template="classic_rag_bm25",
            kb_search=Search(kind="bm25", reranker=True),
            grep=True,
        ),
        RetrievalConfig(name="grep_only", template="grep_only", grep=True),
        RetrievalConfig(name="terminal_use", template="agentic_search", shell_access="read"),
        RetrievalConfig(name="terminal_use_write", template="agentic_search_write", shell_access="write"),
        RetrievalConfig(
            name="alltools",
            template="all_tools",
            kb_search_bm25=True,
            kb_search_dense="openai",
            shell_access="read",
        ),
        RetrievalConfig(
            name="alltools-qwen",
            template="all_tools",
            kb_search_bm25=True,
            kb_search_dense="openrouter",
            shell_access="read",
        ),
    ]
    for provider, label in (("openai", "openai"), ("openrouter", "qwen")):
        for reranker in (False, True):
            for with_grep in (False, True):
                name = f"{label}_embeddings{'_reranker' if reranker else ''}{'_grep' if with_grep else ''}"
                search = Search(kind="embedding", provider=provider, reranker=reranker)  # type: ignore[arg-type]
                template = f"classic_rag_{label}{'' if with_grep else '_no_grep'}"
                configs.append(RetrievalConfig(name=name, template=template, kb_search=search, grep=with_grep))
    return {config.name: config for config in configs}


CONFIGS = _configs()


def check_runnable(
    config: RetrievalConfig, *, embedding_model: str | None = None, reranker_model: str | None = None
) -> None:
    """DataError naming what ``config`` needs that this run lacks: bubblewrap, a reranker, an embedding model."""
    problem = sandbox_problem() if config.shell_access is not None else None
    if problem is not None:
        raise DataError(
            f"retrieval config {config.name!r} runs its shell tool in a sandboxed shell over the documents, which "
            f"this machine cannot give: {problem}; or choose one of: "
            + ", ".join(name for name, other in CONFIGS.items() if other.shell_access is None)
        )
    if config.kb_search is not None and config.kb_search.reranker and not reranker_model:
        raise DataError(
            f"retrieval config {config.name!r} needs an LLM reranker: name its model in {RERANKER_MODEL_ENV} (and "
            f"{RERANKER_API_BASE_ENV} for an OpenAI-compatible server) where the env runs; upstream uses gpt-5.2"
        )
    dense = (config.kb_search is not None and config.kb_search.kind == "embedding") or config.kb_search_dense
    if dense and not embedding_model:
        raise DataError(
            f"retrieval config {config.name!r} searches with an embedding model: name one in {EMBEDDING_MODEL_ENV} "
            f"(and {EMBEDDING_API_BASE_ENV} for an OpenAI-compatible server) where the env runs"
        )


def retrieval_config(name: str | None) -> RetrievalConfig:
    """The configuration ``name`` (an alias allowed; None: the default); DataError listing the names otherwise."""
    wanted = ALIASES.get(name, name) if name else DEFAULT_CONFIG
    try:
        return CONFIGS[wanted]
    except KeyError:
        raise DataError(f"unknown retrieval config {name!r}; known: {', '.join(sorted(CONFIGS))}") from None
