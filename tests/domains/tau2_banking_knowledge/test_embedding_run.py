"""An embedding-RAG configuration end to end: ``taumesh run --env tau2-banking-knowledge:openai_embeddings``.

A tool-calling agent (a scripted OpenAI-compatible chat server) searches the knowledge base once per task with
``KB_search``; the search embeds through litellm against a scripted embeddings server, both on 127.0.0.1. Over
three tasks run at once the corpus is embedded once (each document's text sent exactly once, then only the
queries); a second run, naming the model by ``--embedding-model``/``--embedding-api-base`` instead of the
environment, embeds only its queries, the corpus coming from the embeddings cache.
"""

from __future__ import annotations

import json
import os
import subprocess
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from taumesh.domains.tau2_banking_knowledge.knowledge import load_documents
from taumesh.domains.tau2_banking_knowledge.retrieval_tools import (
    EMBEDDING_API_BASE_ENV,
    EMBEDDING_API_KEY_ENV,
    EMBEDDING_MODEL_ENV,
)
from taumesh.testing.processes import taumesh_executable
from tests.domains.tau2_banking_knowledge.keyword_vectors import vector
from tests.domains.tau2_banking_knowledge.support import ENV, FIXTURES, NEEDS_FIXTURES_AND_CHECKOUT, imported_cache
from tests.helpers.fake_model import FakeOpenAI, Reply, text, tool_call

pytestmark = [
    *NEEDS_FIXTURES_AND_CHECKOUT,
    pytest.mark.slow,
]
QUERY = "What do I do about a lost debit card?"
TASKS = ("0", "1", "2")
"""Indices: task_001, task_002, task_003."""


def searching_agent(request: dict[str, Any], ordinal: int) -> Reply:
    """Searches once, then answers (the scripted user then stops)."""
    if request["messages"][-1]["role"] == "tool":
        return text("I looked it up for you.")
    return tool_call("KB_search", {"query": QUERY})


@pytest.fixture(scope="module")
def servers(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[dict[str, str], str, FakeOpenAI]]:
    with (
        imported_cache(tmp_path_factory.mktemp("cache")) as cache,
        FakeOpenAI(searching_agent) as chat,
        FakeOpenAI(embed=vector) as embeddings,
    ):
        environ = {
            **os.environ,
            "TAUMESH_CACHE_DIR": str(cache),
            EMBEDDING_MODEL_ENV: "openai/text-embedding-3-large",
            EMBEDDING_API_BASE_ENV: embeddings.url,
            EMBEDDING_API_KEY_ENV: "sk-loopback",
        }
        yield environ, chat.url, embeddings


def _run(log_dir: Path, environ: dict[str, str], chat: str, by_flags: bool = False) -> list[dict[str, Any]]:
    argv = [taumesh_executable(), "run", "--env", f"{ENV}:openai_embeddings", "--agent-strategy", "tool-calling"]
    if by_flags:
        argv += [
            "--embedding-model",
            environ[EMBEDDING_MODEL_ENV],
            "--embedding-api-base",
            environ[EMBEDDING_API_BASE_ENV],
        ]
        environ = {
            name: value for name, value in environ.items() if name not in (EMBEDDING_MODEL_ENV, EMBEDDING_API_BASE_ENV)
        }
    argv += ["--model", "openai/agent", "--api-base", chat, "--user-strategy", "scripted"]
    argv += ["--log-dir", str(log_dir), "--max-concurrency", "3", "--quiet"]
    for task in TASKS:
        argv += ["--task-ids", task]
    done = subprocess.run(argv, env=environ, capture_output=True, text=True, timeout=900, check=False)
    assert done.returncode in (0, 1), done.stdout[-3000:] + done.stderr[-3000:]  # 1: tasks not solved
    (path,) = [path for path in log_dir.glob("*.json") if not path.name.endswith((".tau2.json", ".errors.json"))]
    results: list[dict[str, Any]] = json.loads(path.read_text(encoding="utf-8"))
    return results


def _searched(result: dict[str, Any]) -> list[str]:
    return [message["content"] for message in result["traj"] if message.get("role") == "tool"]


def test_an_embedding_configuration_runs_and_embeds_the_corpus_once(
    servers: tuple[dict[str, str], str, FakeOpenAI], tmp_path: Path
) -> None:
    environ, chat, embeddings = servers
    corpus = {document.content for document in load_documents(FIXTURES / "data")}
    results = _run(tmp_path / "first", environ, chat)
    assert sorted(result["task_id"] for result in results) == ["task_001", "task_002", "task_003"]
    for result in results:
        (observation,) = _searched(result)
        assert observation.startswith("1. ") and "   Score: " in observation and "[Timing: retrieval=" in observation
    sent = Counter(embeddings.embedded_inputs())
    assert {text for text in sent if text in corpus} == corpus
    assert all(sent[text] == 1 for text in corpus)  # each document embedded once, over three concurrent tasks
    assert sent[QUERY] == len(TASKS)
    assert sum(sent.values()) == len(corpus) + len(TASKS)

    before = len(embeddings.embedded_inputs())
    _run(tmp_path / "second", environ, chat, by_flags=True)
    assert embeddings.embedded_inputs()[before:] == [QUERY] * len(TASKS)  # the corpus came from the cache
