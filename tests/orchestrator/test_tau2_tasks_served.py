"""τ²'s document records the tasks and policy the env serves (``ListTasks`` with ``include_records``): the
orchestrator reads no domain data itself.
"""

from __future__ import annotations

import ast
import json
from pathlib import Path

import grpc

from taumesh.domains import Catalog
from taumesh.env.v1 import env_pb2, env_pb2_grpc
from taumesh.models import AgentSettings, UserSettings
from taumesh.orchestrator.benchmark import run_benchmark
from taumesh.orchestrator.config import RunConfig
from taumesh.orchestrator.results import tau2_layout as tau2_results
from taumesh.orchestrator.results.tau2_layout import TASK_FIELDS
from taumesh.rpc.server import start_server
from taumesh.services.env.servicer import env_service


async def served(env: str, split: str, include: bool, data_dir: Path) -> env_pb2.ListTasksResponse:
    running = await start_server([env_service(Catalog(data_dir))])
    try:
        async with grpc.aio.insecure_channel(running.address) as channel:
            request = env_pb2.ListTasksRequest(domain=env, split=split, page_size=3, include_records=include)
            response: env_pb2.ListTasksResponse = await env_pb2_grpc.EnvServiceStub(channel).ListTasks(request)
            return response
    finally:
        await running.stop(grace=1)


async def test_records_and_policy_only_when_asked(tau2_data: Path, v1_data_dir: Path) -> None:
    plain = await served("tau2-mock", "base", False, v1_data_dir)
    assert plain.policy == "" and all(task.record_json == "" for task in plain.tasks)
    full = await served("tau2-mock", "base", True, v1_data_dir)
    domain = Catalog(v1_data_dir).get("tau2-mock")
    assert full.policy == domain.policy
    first = json.loads(full.tasks[0].record_json)
    assert first["id"] == full.tasks[0].task_id and "evaluation_criteria" in first


async def test_the_tau2_document_holds_what_the_env_served(tau2_data: Path, v1_data_dir: Path, tmp_path: Path) -> None:
    config = RunConfig(
        env="tau2-mock",
        task_split="base",
        task_ids=[0, 1],
        agent=AgentSettings(strategy="oracle"),
        user=UserSettings(strategy="scripted"),
        log_dir=tmp_path,
        output_format="tau2",
        show_progress=False,
    )
    summary = await run_benchmark(config)
    document = json.loads(summary.results_path.read_text(encoding="utf-8"))
    full = await served("tau2-mock", "base", True, v1_data_dir)
    records = [json.loads(task.record_json) for task in full.tasks[:2]]
    assert document["tasks"] == [{k: v for k, v in r.items() if k in TASK_FIELDS} for r in records]
    assert document["info"]["environment_info"]["policy"] == full.policy


def test_tau2_results_imports_no_domain_module() -> None:
    tree = ast.parse(Path(tau2_results.__file__).read_text(encoding="utf-8"))
    imported = [n.module or "" for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)]
    imported += [a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names]
    assert not [name for name in imported if name.startswith("taumesh.domains")], imported
