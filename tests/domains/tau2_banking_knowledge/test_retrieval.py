"""Every offline retrieval configuration against upstream's recorded outputs (shared ``retrieval.jsonl``).

The policy of each of the 20 configurations (and the per-task policies of ``golden_retrieval``), and every
recorded output of the BM25 and grep tools, with the knowledge base in sorted file-name order and the timing
line at the recorded 0 ms.
"""

from __future__ import annotations

import json
from functools import cache
from typing import Any

import pytest

from taumesh.domains import DataError
from taumesh.domains.tau2_banking_knowledge import configs, sandbox
from taumesh.domains.tau2_banking_knowledge.configs import CONFIGS, DEFAULT_CONFIG, check_runnable, retrieval_config
from taumesh.domains.tau2_banking_knowledge.knowledge import KnowledgeDocument, load_documents
from taumesh.domains.tau2_banking_knowledge.policy import compose_policy
from taumesh.domains.tau2_banking_knowledge.sandbox import sandbox_problem
from taumesh.domains.tau2_banking_knowledge.search import Bm25Index, grep_output, search_output
from tests.helpers.paths import SHARED

FIXTURES = SHARED / "tau2" / "head_banking_knowledge"
DOMAIN = FIXTURES / "data"

pytestmark = pytest.mark.skipif(not DOMAIN.is_dir(), reason=f"{DOMAIN} is not there")


@cache
def records(kind: str) -> list[dict[str, Any]]:
    with (FIXTURES / "retrieval.jsonl").open(encoding="utf-8") as lines:
        return [record for record in map(json.loads, lines) if record["record"] == kind]


@cache
def documents() -> tuple[KnowledgeDocument, ...]:
    return load_documents(DOMAIN)


def test_documents_are_in_sorted_file_name_order() -> None:
    assert [document.id for document in documents()] == records("meta")[0]["document_ids_in_order_used"]


def test_the_configurations_are_upstreams() -> None:
    recorded = {record["config"]: record for record in records("config")}
    assert set(CONFIGS) == set(recorded)
    assert records("meta")[0]["default_retrieval_variant"] == DEFAULT_CONFIG
    assert retrieval_config("AllTools").name == "alltools" and retrieval_config(None).name == "alltools"
    for name, record in recorded.items():
        retrieval_tools = [tool["function"]["name"] for tool in record["agent_tools"]][: len(CONFIGS[name].tools)]
        assert list(CONFIGS[name].tools) == retrieval_tools, name
        shell_only = name.startswith("terminal_use")  # upstream's sandbox-runtime is not "offline"; bubblewrap here is
        assert CONFIGS[name].offline == (record["fully_offline"] or (shell_only and sandbox_problem() is None)), name
    with pytest.raises(DataError, match=r"unknown retrieval config 'bm26'.*bm25"):
        retrieval_config("bm26")


@pytest.mark.parametrize("name", sorted(CONFIGS))
def test_policy_equals_upstreams(name: str) -> None:
    record = next(record for record in records("config") if record["config"] == name)
    if record["policy_is_task_specific"]:
        for golden in records("golden_policy"):
            policy = compose_policy(CONFIGS[name], DOMAIN, documents(), golden["required_documents"])
            assert policy == golden["policy"], golden["task_id"]
        return
    assert compose_policy(CONFIGS[name], DOMAIN, documents()) == record["policy"]


def test_search_outputs_equal_upstreams() -> None:
    bm25 = Bm25Index(documents())
    outputs = records("tool_output")
    assert len(outputs) == 122
    for record in outputs:
        arguments = record["arguments"]
        if record["tool"] == "grep":
            produced = grep_output(documents(), arguments["pattern"])
        else:
            ranked = bm25.search(arguments["query"], arguments.get("k"))
            produced = search_output(ranked, retrieval_ms=0.0, total_ms=0.0)
        assert produced == record["output"], (record["tool"], arguments)


def test_what_a_config_needs_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    with monkeypatch.context() as without_bwrap:
        without_bwrap.setattr(configs, "sandbox_problem", lambda: sandbox.sandbox_problem.__wrapped__())
        without_bwrap.setattr(sandbox, "bwrap_path", lambda: None)
        for name in ("terminal_use", "terminal_use_write", "alltools"):
            with pytest.raises(DataError, match=r"sandboxed shell.*needs bubblewrap.*choose one of: no_knowledge"):
                check_runnable(CONFIGS[name])
            assert "a sandboxed shell (bubblewrap)" in CONFIGS[name].needs
    with pytest.raises(DataError, match="name one in TAUMESH_EMBEDDING_MODEL"):
        check_runnable(CONFIGS["alltools"])  # its KB_search_dense
    with pytest.raises(DataError, match="needs an LLM reranker"):
        check_runnable(CONFIGS["bm25_reranker_grep"])
    with pytest.raises(DataError, match="name one in TAUMESH_EMBEDDING_MODEL"):
        check_runnable(CONFIGS["openai_embeddings"])
    check_runnable(CONFIGS["openai_embeddings"], embedding_model="openai/text-embedding-3-large")
    shells = {"terminal_use", "terminal_use_write"} if sandbox_problem() is None else set()
    for name, config in CONFIGS.items():
        if config.offline:
            check_runnable(config)
            assert name in {"no_knowledge", "full_kb", "golden_retrieval", "bm25", "bm25_grep", "grep_only", *shells}
