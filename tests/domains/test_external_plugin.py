"""A domain from a separate distribution, found only through its entry point, served and played over gRPC.

The distribution is built in a temporary directory (pyproject, one module, its data), installed with
``pip install --target`` into a private site directory, and reaches the child processes through PYTHONPATH,
so the test environment itself is not changed.
"""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import grpc
import pytest

from taumesh.env.v1 import env_pb2, env_pb2_grpc
from tests.helpers.cli import ORACLE, assert_ok, load_json, results_path, taumesh, taumesh_executable
from tests.helpers.processes import Server

PYPROJECT = """\
[build-system]
requires = ["setuptools>=61"]
build-backend = "setuptools.build_meta"

[project]
name = "taumesh-counters"
version = "0.1.0"

[project.entry-points."taumesh.domains"]
counters = "taumesh_counters:plugin"

[tool.setuptools]
packages = ["taumesh_counters"]

[tool.setuptools.package-data]
taumesh_counters = ["data/*"]
"""

MODULE = '''\
"""A third-party taumesh domain: counters."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from taumesh.domains import Data, DomainPlugin, Refusal, Tool


class Counter(BaseModel):
    counter_id: str
    value: int


class CountersDatabase(BaseModel):
    counters: dict[str, Counter]


class GetCounter(Tool):
    name = "get_counter"
    description = "Read a counter."
    parameters: dict[str, Any] = {
        "type": "object",
        "properties": {"counter_id": {"type": "string"}},
        "required": ["counter_id"],
    }

    @staticmethod
    def invoke(data: Data, counter_id: str) -> str:
        if counter_id not in data["counters"]:
            raise Refusal("counter not found")
        return json.dumps(data["counters"][counter_id])


class IncrementCounter(Tool):
    name = "increment_counter"
    writes = True
    description = "Increase a counter."
    parameters: dict[str, Any] = {
        "type": "object",
        "properties": {"counter_id": {"type": "string"}, "amount": {"type": "integer"}},
        "required": ["counter_id", "amount"],
    }

    @staticmethod
    def invoke(data: Data, counter_id: str, amount: int) -> str:
        counter = data["counters"][counter_id]
        counter["value"] += amount
        return json.dumps(counter)


plugin = DomainPlugin(
    name="counters",
    tools=(GetCounter, IncrementCounter),
    database=CountersDatabase,
    splits=("test",),
    terminate_tools=frozenset(),
    own_data=Path(__file__).resolve().parent / "data",
)
'''

TASKS = [
    {
        "user_id": "ada",
        "instruction": "You want the visits counter raised by 3, and to know its new value.",
        "actions": [
            {"name": "get_counter", "kwargs": {"counter_id": "visits"}},
            {"name": "increment_counter", "kwargs": {"counter_id": "visits", "amount": 3}},
        ],
        "outputs": ["44"],
    },
    {
        "user_id": "bob",
        "instruction": "You want the signups counter raised by 1.",
        "actions": [{"name": "increment_counter", "kwargs": {"counter_id": "signups", "amount": 1}}],
        "outputs": [],
    },
]


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The distribution, built from source and installed into a private site directory."""
    root = tmp_path_factory.mktemp("counters")
    source = root / "src"
    package = source / "taumesh_counters"
    (package / "data").mkdir(parents=True)
    (source / "pyproject.toml").write_text(PYPROJECT, encoding="utf-8")
    (package / "__init__.py").write_text(MODULE, encoding="utf-8")
    counters = {"visits": {"counter_id": "visits", "value": 41}, "signups": {"counter_id": "signups", "value": 7}}
    (package / "data" / "counters.json").write_text(json.dumps(counters), encoding="utf-8")
    (package / "data" / "tasks_test.json").write_text(json.dumps(TASKS), encoding="utf-8")
    (package / "data" / "wiki.md").write_text("# Counters\n\nRaise counters when asked.\n", encoding="utf-8")
    target = root / "site"
    installed = subprocess.run(
        [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-build-isolation",
         "--target", str(target), str(source)],
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert installed.returncode == 0, installed.stdout + installed.stderr
    assert (target / "taumesh_counters" / "data" / "tasks_test.json").is_file()
    return target


@pytest.fixture
def with_site(site: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Child processes see the installed distribution (the tests' own process does not)."""
    monkeypatch.setenv("PYTHONPATH", str(site))
    monkeypatch.delenv("TAUMESH_DOMAIN_PATH", raising=False)
    return site


def test_the_test_environment_does_not_see_it(site: Path) -> None:
    from taumesh.domains import Registry

    assert importlib.util.find_spec("taumesh_counters") is None
    assert "counters" not in Registry.discover([]).names()


def test_taumesh_run_plays_the_external_domain_over_grpc(with_site: Path, tmp_path: Path) -> None:
    log_dir = tmp_path / "run"
    proc = taumesh(
        "run", "--env", "counters", "--task-split", "test", *ORACLE,
        "--data-dir", tmp_path / "no-data", "--log-dir", log_dir,
    )  # fmt: skip
    assert_ok(proc)
    results = load_json(results_path(log_dir))
    assert sorted(r["task_id"] for r in results) == [0, 1]
    assert all(r["reward"] == 1.0 for r in results), [(r["task_id"], r["reward"], r["info"]) for r in results]
    first = next(r for r in results if r["task_id"] == 0)
    tool_messages = [m["content"] for m in first["traj"] if m["role"] == "tool"]
    assert tool_messages == ['{"counter_id": "visits", "value": 41}', '{"counter_id": "visits", "value": 44}']


@pytest.fixture
def env_server(with_site: Path, tmp_path: Path) -> Iterator[Server]:
    """``taumesh serve env`` as its own process over an empty data directory; stopped after the test."""
    argv = [taumesh_executable(), "serve", "env", "--port", "0", "--host", "127.0.0.1", "--data-dir", str(tmp_path)]
    server = Server.spawn(argv, tmp_path / "env.log")
    yield server
    server.kill()


def test_taumesh_serve_env_lists_the_external_domain(env_server: Server) -> None:
    server = env_server.wait_ready(r"serving taumesh\.env\.v1\.EnvService on (?P<address>127\.0\.0\.1:\d+)")
    with grpc.insecure_channel(server.address) as channel:
        stub = env_pb2_grpc.EnvServiceStub(channel)
        domains = {d.name: d for d in stub.ListDomains(env_pb2.ListDomainsRequest(), timeout=30).domains}
    assert "counters" in domains, server.stderr()
    assert [(split.name, split.task_count) for split in domains["counters"].splits] == [("test", 2)]
    assert "retail" not in domains  # no v1 data in this data directory
