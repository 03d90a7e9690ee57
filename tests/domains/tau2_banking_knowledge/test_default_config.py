"""The plain name ``tau2-banking-knowledge`` is upstream's default, ``alltools``, refused on load where it cannot run.

Without an embedding model the env answers OpenSession with FAILED_PRECONDITION naming ``TAUMESH_EMBEDDING_MODEL``,
``taumesh run`` refuses before it plays and the REST API answers 422 naming ``env``, while ListDomains, ``tools
export`` and ``domain check`` still work; given a model (a scripted OpenAI-compatible embeddings server on
127.0.0.1) and a working bubblewrap, an oracle run of the plain name scores.
"""

from __future__ import annotations

import json
from pathlib import Path

import grpc
import httpx
import pytest

from taumesh.common.v1 import common_pb2
from taumesh.domains.tau2_banking_knowledge.retrieval_tools import (
    EMBEDDING_API_BASE_ENV,
    EMBEDDING_API_KEY_ENV,
    EMBEDDING_MODEL_ENV,
)
from taumesh.domains.tau2_banking_knowledge.sandbox import sandbox_problem
from taumesh.env.v1 import env_pb2, env_pb2_grpc
from taumesh.rpc.errors import error_reason
from tests.domains.tau2_banking_knowledge.keyword_vectors import vector
from tests.domains.tau2_banking_knowledge.support import ENV, NEEDS_FIXTURES_AND_CHECKOUT, RPC_TIMEOUT, env_and_scorer
from tests.helpers.api_thread import start_thread_server
from tests.helpers.cli import ORACLE, explain_result, invoke, results_path
from tests.helpers.fake_model import FakeOpenAI

pytestmark = NEEDS_FIXTURES_AND_CHECKOUT


@pytest.fixture
def without_model(monkeypatch: pytest.MonkeyPatch) -> str:
    """No embedding model in this process; what the refusal names first (the sandbox, when bubblewrap fails here)."""
    monkeypatch.delenv(EMBEDDING_MODEL_ENV, raising=False)
    return "bubblewrap" if sandbox_problem() is not None else EMBEDDING_MODEL_ENV


def test_the_env_lists_the_plain_name_and_refuses_its_session_without_a_model(
    data_dir: Path, without_model: str
) -> None:
    with env_and_scorer(data_dir) as (channel, _):
        env = env_pb2_grpc.EnvServiceStub(channel)
        listed = env.ListDomains(env_pb2.ListDomainsRequest(), timeout=RPC_TIMEOUT).domains
        assert ENV in {domain.name for domain in listed}
        ref = common_pb2.TaskRef(domain=ENV, split="base", task_id="task_001")
        with pytest.raises(grpc.RpcError) as refused:
            env.OpenSession(env_pb2.OpenSessionRequest(task=ref), timeout=RPC_TIMEOUT)
    assert refused.value.code() == grpc.StatusCode.FAILED_PRECONDITION
    assert error_reason(refused.value) == "DOMAIN_NOT_RUNNABLE"
    assert "retrieval config 'alltools'" in str(refused.value.details())
    assert without_model in str(refused.value.details())


def test_a_run_of_the_plain_name_without_a_model_is_refused_before_it_plays(
    data_dir: Path, without_model: str, tmp_path: Path
) -> None:
    result = invoke("run", "--env", ENV, *ORACLE, "--data-dir", data_dir, "--log-dir", tmp_path, "--task-ids", "0")
    assert result.exit_code == 2, explain_result(result)
    assert "retrieval config 'alltools'" in result.output and without_model in result.output
    assert not list(tmp_path.glob("*.json"))


def test_listings_of_the_plain_name_work_without_a_model(data_dir: Path, without_model: str, tmp_path: Path) -> None:
    """``tools export`` gives AllTools' schemas (``KB_search_dense`` first among them) and ``domain check`` replays."""
    out = tmp_path / "tools.json"
    exported = invoke("tools", "export", "--env", ENV, "--format", "openai", "--data-dir", data_dir, "-o", out)
    assert exported.exit_code == 0, explain_result(exported)
    names = [schema["function"]["name"] for schema in json.loads(out.read_text(encoding="utf-8"))]
    assert names[:3] == ["KB_search_bm25", "KB_search_dense", "shell"]
    checked = invoke("domain", "check", ENV, "--data-dir", data_dir)
    assert checked.exit_code == 0, explain_result(checked)


@pytest.mark.skipif(sandbox_problem() is not None, reason=f"no sandbox here: {sandbox_problem()}")
def test_an_oracle_run_of_the_plain_name_scores_given_a_model_and_bubblewrap(
    data_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with FakeOpenAI(embed=vector) as embeddings:
        monkeypatch.setenv(EMBEDDING_MODEL_ENV, "openai/text-embedding-3-large")
        monkeypatch.setenv(EMBEDDING_API_BASE_ENV, embeddings.url)
        monkeypatch.setenv(EMBEDDING_API_KEY_ENV, "sk-loopback")
        args = ["--data-dir", data_dir, "--log-dir", tmp_path, "--task-ids", "0", "--task-ids", "1"]
        result = invoke("run", "--env", ENV, *ORACLE, *args)
    assert result.exit_code == 0, explain_result(result)
    results = json.loads(results_path(tmp_path).read_text(encoding="utf-8"))
    assert sorted((result["task_id"], result["reward"]) for result in results) == [("task_001", 1.0), ("task_002", 1.0)]


def test_the_rest_api_answers_422_naming_env_for_the_plain_name_without_a_model(
    data_dir: Path, without_model: str, tmp_path: Path
) -> None:
    """Not 404: the domain exists; the request names what this deployment lacks, and nothing is stored or played."""
    server = start_thread_server(f"sqlite:///{tmp_path / 'api.db'}", tmp_path / "api", data_dir)
    try:
        with httpx.Client(base_url=server.base_url, headers=server.headers, timeout=60) as client:
            listed = client.post("/api/v1/list-tasks", json={"env": ENV})
            started = client.post("/api/v1/validate-tasks", json={"env": ENV, "task_ids": [0]})
            runs = client.get("/api/v1/runs").json()
    finally:
        server.stop()
    for response in (listed, started):
        assert response.status_code == 422, response.text
        body = response.json()
        assert body["error_type"] == "validation_error"
        assert "retrieval config 'alltools'" in body["message"] and without_model in body["message"]
        assert body["details"]["errors"][0]["loc"] == ["body", "env"]
    assert runs["runs"] == []
