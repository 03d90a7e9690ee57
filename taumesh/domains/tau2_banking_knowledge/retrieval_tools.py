"""The retrieval tools a configuration gives the agent, over the domain's knowledge base (its documents).

``KB_search`` (BM25 or dense), ``grep``, ``KB_search_bm25``, ``KB_search_dense`` and ``shell``.
Each is a read tool (``reads_documents``): it gets the documents after the session's data. BM25, the dense
index and the read-only shell's exported documents are built once per knowledge base; a writable shell gets its
own copy of it per session (:func:`open_shell`), removed with the session. The dense tools embed through litellm
with the model named by ``TAUMESH_EMBEDDING_MODEL`` (and ``TAUMESH_EMBEDDING_API_BASE``,
``TAUMESH_EMBEDDING_API_KEY``), read where the env runs, since a tool call carries no run options; each document
is embedded once per model (:mod:`.embeddings`). The reranker configurations rate what ``KB_search`` found with an
LLM (:mod:`.reranker`); the shell runs in bubblewrap (:mod:`.sandbox`), a call at a time in the env's worker pool
(the tool is ``blocking``), never on its event loop.
"""

from __future__ import annotations

import os
import shutil
import threading
import time
import uuid
import weakref
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from taumesh.domains import DataError, Document, Session, Tool
from taumesh.domains.tau2_banking_knowledge.configs import Provider, RetrievalConfig
from taumesh.domains.tau2_banking_knowledge.knowledge import KnowledgeDocument
from taumesh.domains.tau2_banking_knowledge.sandbox import Sandbox, export_documents
from taumesh.domains.tau2_banking_knowledge.search import Bm25Index, Ranked, elapsed_ms, grep_output, search_output
from taumesh.domains.tau2_banking_knowledge.shell_folders import hand_over, new_folder, remove_folder
from taumesh.domains.tau2_banking_knowledge.texts import banking_texts
from taumesh.domains.tau2_banking_knowledge.toolkit import AGENT_TOOLKIT, SESSION_TASK, owned
from taumesh.llm.knowledge_models import (
    EMBEDDING_API_BASE_ENV,
    EMBEDDING_API_KEY_ENV,
    EMBEDDING_MODEL_ENV,
    RERANKER_MODEL_ENV,
)

if TYPE_CHECKING:
    from taumesh.domains.tau2_banking_knowledge.embeddings import DenseIndex, EmbeddingModel

_LOCK = threading.RLock()
"""Guards the indexes and exports; reentrant, as a session's finalizer (:func:`_close_shell`) may run inside it."""
_INDEXES: dict[tuple[int, str], tuple[Sequence[Any], Any]] = {}
"""Indexes by (knowledge base, kind), holding the knowledge base so its id stays its own."""
SHELL_KEY = "shell_sandbox"
"""In a writable shell's session: the name of its own export (the session table ``_task``, outside the hash)."""
READ_ONLY = "read-only"
_EXPORTS: dict[tuple[int, str], tuple[Sequence[Document], Path]] = {}
"""Exported documents (:mod:`.shell_folders`): one read-only folder per knowledge base, one copy of it per writable
shell's session."""


def embedding_model_name() -> str | None:
    """The embedding model this process was given (``TAUMESH_EMBEDDING_MODEL``); None without one."""
    return os.environ.get(EMBEDDING_MODEL_ENV, "").strip() or None


def embedding_model() -> EmbeddingModel | None:
    """The embedding model, its endpoint and key as this process was given them; None without one.

    The dense modules (numpy, litellm) are imported here, when a dense search first runs.
    """
    from taumesh.domains.tau2_banking_knowledge.embeddings import EmbeddingModel

    model = embedding_model_name()
    if model is None:
        return None
    base = os.environ.get(EMBEDDING_API_BASE_ENV, "").strip() or None
    return EmbeddingModel(model=model, api_base=base, api_key=os.environ.get(EMBEDDING_API_KEY_ENV) or None)


def _knowledge(documents: Sequence[Document]) -> tuple[KnowledgeDocument, ...]:
    return tuple(KnowledgeDocument(id=doc.id, title=doc.title, content=doc.text) for doc in documents)


def _index(documents: Sequence[Document], kind: str, build: Callable[[Sequence[KnowledgeDocument]], Any]) -> Any:
    key = (id(documents), kind)
    with _LOCK:
        if key not in _INDEXES:
            _INDEXES[key] = (documents, build(_knowledge(documents)))
        return _INDEXES[key][1]


def _bm25(documents: Sequence[Document]) -> Bm25Index:
    index: Bm25Index = _index(documents, "bm25", Bm25Index)
    return index


def _dense(documents: Sequence[Document]) -> DenseIndex:
    from taumesh.domains.tau2_banking_knowledge.embeddings import DenseIndex

    model = embedding_model()
    if model is None:
        raise DataError(f"dense retrieval needs an embedding model: set {EMBEDDING_MODEL_ENV} where the env runs")
    index: DenseIndex = _index(documents, f"dense:{model.key}", lambda kb: DenseIndex(kb, model))
    return index


def _timed(search: Callable[[], Ranked]) -> str:
    started = time.perf_counter()
    ranked = search()
    took = elapsed_ms(started)
    return search_output(ranked, took, took)


def _reranked(search: Callable[[], Ranked], query: str) -> str:
    """``search``'s documents rated by the LLM reranker (:mod:`.reranker`), timed apart."""
    from taumesh.domains.tau2_banking_knowledge.reranker import rerank, reranker_model, reranker_prompt

    model = reranker_model()
    if model is None:
        raise DataError(f"reranking needs a model: set {RERANKER_MODEL_ENV} where the env runs")
    prompt = reranker_prompt()
    started = time.perf_counter()
    ranked = search()
    retrieval = elapsed_ms(started)
    reranking_started = time.perf_counter()
    ranked = rerank(model, prompt, query, ranked)
    reranking = elapsed_ms(reranking_started)
    return search_output(ranked, retrieval, retrieval + reranking, reranking)


def _dense_query(provider: Provider, query: str) -> str:
    """What the dense search embeds for ``query``: Qwen's instruction before it for OpenRouter's Qwen models.

    As upstream's OpenRouter embedder does (documents go as they are); the instruction is imported text.
    """
    model = embedding_model_name() or ""
    if provider != "openrouter" or "qwen" not in model.lower():
        return query
    instruction = banking_texts().qwen_query_instruction
    if instruction is None:
        raise DataError(
            "the imported banking_knowledge texts hold no Qwen query instruction: run `taumesh data import tau2 PATH` "
            "again with a checkout of sierra-research/tau2-bench that has src/tau2/knowledge/embedders"
        )
    return f"Instruct: {instruction}\nQuery:{query}"


def _search(documents: Sequence[Document], provider: Provider | None, query: str, k: int | None = None) -> Ranked:
    """BM25 (no provider) or the dense search of ``provider``'s configuration."""
    if provider is None:
        return _bm25(documents).search(query, k)
    return _dense(documents).search(query, k, embedded=_dense_query(provider, query))


def _kb_search(provider: Provider | None, reranked: bool) -> Callable[..., str]:
    def KB_search(data: Any, documents: Sequence[Document], query: str) -> str:
        """``KB_search``: BM25 or dense, rated by the LLM reranker in the reranker configurations."""
        search = partial(_search, documents, provider, query)
        return _reranked(search, query) if reranked else _timed(search)

    return KB_search


def grep(data: Any, documents: Sequence[Document], pattern: str) -> str:
    """``grep`` over the documents' content."""
    return grep_output(_knowledge(documents), pattern)


def KB_search_bm25(data: Any, documents: Sequence[Document], query: str, k: int = 10) -> str:
    """AllTools' BM25 search."""
    return _timed(lambda: _bm25(documents).search(query, int(k)))


def _kb_search_dense(provider: Provider) -> Callable[..., str]:
    def KB_search_dense(data: Any, documents: Sequence[Document], query: str, k: int = 10) -> str:
        """AllTools' dense search."""
        return _timed(lambda: _search(documents, provider, query, int(k)))

    return KB_search_dense


def _exported(documents: Sequence[Document], owner: str, copy_of: Path | None = None) -> Path:
    """The folder of ``owner`` (a session's token, or :data:`READ_ONLY`): the documents exported, or ``copy_of``."""
    key = (id(documents), owner)
    with _LOCK:
        if key not in _EXPORTS:
            folder = new_folder("kb" if copy_of is None else "notes")
            if copy_of is None:
                export_documents(documents, folder)
            else:
                shutil.copytree(copy_of, folder, dirs_exist_ok=True)
            hand_over(folder, writable=copy_of is not None)
            _EXPORTS[key] = (documents, folder)
        return _EXPORTS[key][1]


def open_shell(session: Session) -> None:
    """Give ``session`` a writable shell of its own: its documents are exported at its first command."""
    token = uuid.uuid4().hex
    with session.switch.writing():
        session.data[SESSION_TASK][SHELL_KEY] = token
    weakref.finalize(session, _close_shell, token)


def _close_shell(token: str) -> None:
    with _LOCK:
        owned = [key for key in _EXPORTS if key[1] == token]
        for key in owned:
            remove_folder(_EXPORTS.pop(key)[1])


def _shell(writable: bool) -> Callable[..., str]:
    def shell(data: Any, documents: Sequence[Document], command: str) -> str:
        """The configuration's ``shell``: upstream's texts for a refusal, a failure, no match and no output."""
        pristine = _exported(documents, READ_ONLY)
        if writable:
            token = data.get(SESSION_TASK, {}).get(SHELL_KEY)
            if not isinstance(token, str):
                return "Error: Sandbox not initialized"
            sandbox = Sandbox(_exported(documents, token, copy_of=pristine), writable=True, pristine=pristine)
        else:
            sandbox = Sandbox(pristine, writable=False)
        code, stdout, stderr = sandbox.run(str(command))
        if code == 0:
            return stdout or "(no output)"
        if code == 1 and "grep" in command and not stderr:
            return "No matches found."
        return f"Error (exit code {code}): {stderr}" if stderr else f"Command failed with exit code {code}"

    return shell


def _tool(name: str, function: Callable[..., str]) -> type[Tool]:
    owned(function, AGENT_TOOLKIT)
    function.__qualname__ = f"{AGENT_TOOLKIT}.{name}"
    namespace = {
        "name": name,
        "writes": False,
        "reads_documents": True,
        "blocking": name == "shell",  # a command runs up to 30 s: the env runs it in its worker pool
        "invoke": staticmethod(function),
        "__module__": __name__,
        "__qualname__": f"{AGENT_TOOLKIT}.{name}",
    }
    return type(name.replace("_", ""), (Tool,), namespace)


def retrieval_tools(config: RetrievalConfig) -> tuple[type[Tool], ...]:
    """The configuration's retrieval tools, in the order its tool list starts with."""
    search = config.kb_search
    dense = search.provider if search is not None and search.kind == "embedding" else None
    implementations: dict[str, Callable[..., str]] = {
        "KB_search": _kb_search(dense, reranked=search is not None and search.reranker),
        "KB_search_bm25": KB_search_bm25,
        "KB_search_dense": _kb_search_dense(config.kb_search_dense or "openai"),
        "grep": grep,
        "shell": _shell(writable=config.shell_access == "write"),
    }
    return tuple(_tool(name, implementations[name]) for name in config.tools)
