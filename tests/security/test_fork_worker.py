"""A hostile fork against its real worker: no secret reaches it, no reply runs code, no session reaches another, and
killing its parent does not take the env down.

The fork (``tests/forks/hostilefork.py``) is imported into a cache of the test's own. Two tests go through
``taumesh serve env`` as its own process over gRPC, holding a token, provider keys and a key file; two through the
domain in this process (the same worker, without the service around it).
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import grpc
import pytest

from taumesh.domains import Catalog, ToolCrash
from taumesh.env.v1 import env_pb2, env_pb2_grpc
from taumesh.forks._import import import_fork
from taumesh.forks._plugin import ForkPlugin
from taumesh.forks._sandbox import bwrap_problem, sandbox_mode
from tests.forks.hostilefork import SPOILED, write_hostile_fork
from tests.helpers.cli import taumesh_executable
from tests.helpers.grpc_services import task_ref, tool_call
from tests.helpers.processes import Server

DOMAIN = "fork:hostile/hostile"
TOKEN = "canary-token-7f3a"
PROVIDER_KEY = "canary-provider-key-91bd"
KEY_FILE_TEXT = "canary-key-file-c25e"
SECRETS = (TOKEN, PROVIDER_KEY, KEY_FILE_TEXT)


@pytest.fixture(scope="module")
def hostile_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The hostile fork imported into a fresh cache (the cache is set only while importing)."""
    cache = tmp_path_factory.mktemp("hostile-cache")
    mp = pytest.MonkeyPatch()
    mp.setenv("TAUMESH_CACHE_DIR", str(cache))
    try:
        record = import_fork(write_hostile_fork(tmp_path_factory.mktemp("forks") / "hostile"))
    finally:
        mp.undo()
    assert "hostile" in record.envs, record.failed
    yield cache


@dataclass
class Served:
    server: Server
    secrets_dir: Path

    def stub(self) -> env_pb2_grpc.EnvServiceStub:
        channel = grpc.insecure_channel(self.server.address)
        return env_pb2_grpc.EnvServiceStub(channel)

    def call(self, stub: env_pb2_grpc.EnvServiceStub, session: str, name: str, arguments: object) -> str:
        request = env_pb2.CallToolRequest(session_id=session, tool_call=tool_call(name, json.dumps(arguments)))
        response = stub.CallTool(request, metadata=AUTH, timeout=60)
        return str(response.observation)

    def open(self, stub: env_pb2_grpc.EnvServiceStub) -> str:
        request = env_pb2.OpenSessionRequest(task=task_ref(DOMAIN, "test", 0))
        return str(stub.OpenSession(request, metadata=AUTH, timeout=60).session_id)


AUTH = (("authorization", f"Bearer {TOKEN}"),)


@pytest.fixture
def served(hostile_cache: Path, tmp_path: Path) -> Iterator[Served]:
    """``taumesh serve env`` holding a token file, provider keys in its environment, and a key file beside them."""
    secrets = tmp_path / "secrets"
    secrets.mkdir(mode=0o700)
    (secrets / "token").write_text(TOKEN + "\n")
    (secrets / "provider.key").write_text(KEY_FILE_TEXT)
    for path in secrets.iterdir():
        path.chmod(0o600)
    env = {
        "TAUMESH_CACHE_DIR": str(hostile_cache),
        "TAUMESH_TOKEN_FILE": str(secrets / "token"),
        "TAUMESH_TOKEN": TOKEN,
        "OPENAI_API_KEY": PROVIDER_KEY,
        "ANTHROPIC_API_KEY": PROVIDER_KEY,
        "AWS_SECRET_ACCESS_KEY": PROVIDER_KEY,
        "GITHUB_TOKEN": PROVIDER_KEY,
        "TAUMESH_FORK_TOOL_DEADLINE": "20",
    }
    argv = [taumesh_executable(), "serve", "env", "--port", "0", "--host", "127.0.0.1", "--data-dir", str(tmp_path)]
    server = Server.spawn(argv, tmp_path / "env.log", env)
    server.wait_ready(r"serving taumesh\.env\.v1\.EnvService on (?P<address>127\.0\.0\.1:\d+)")
    yield Served(server, secrets)
    server.kill()


def test_a_fork_tool_reads_no_token_and_no_provider_key(served: Served) -> None:
    stub = served.stub()
    session = served.open(stub)
    paths = [str(served.secrets_dir / "token"), str(served.secrets_dir / "provider.key")]
    stolen = served.call(stub, session, "steal", {"paths": paths})
    found = json.loads(stolen)  # the tool ran and answered
    assert found["environ"], stolen
    for secret in SECRETS:
        assert secret not in stolen, f"{secret} reached the fork's tool: {stolen[:2000]}"
    leaked = sorted(name for name in found["environ"] if name.endswith(("_API_KEY", "_TOKEN")) or "TAUMESH" in name)
    assert leaked == [], leaked


def test_a_fork_killing_its_parent_leaves_the_env_serving(served: Served) -> None:
    stub = served.stub()
    bystander = served.open(stub)
    assert served.call(stub, bystander, "increment", {"counter_id": "a", "amount": 4}) == '{"value": 5}'
    killer = served.open(stub)
    request = env_pb2.CallToolRequest(session_id=killer, tool_call=tool_call("kill_parent", "{}"))
    answered = stub.CallTool(request, metadata=AUTH, timeout=60)
    assert served.server.proc.poll() is None, served.server.stderr()[-3000:]
    ok_or_lost = (env_pb2.TOOL_CALL_STATUS_OK, env_pb2.TOOL_CALL_STATUS_ABORTED)  # it may answer before it dies
    assert answered.status in ok_or_lost, answered
    assert served.call(stub, bystander, "get_counter", {"counter_id": "a"}) == '{"value": 5}'  # replayed
    fresh = served.open(stub)
    assert served.call(stub, fresh, "get_counter", {"counter_id": "a"}) == '{"value": 1}'
    assert served.server.proc.poll() is None, served.server.stderr()[-3000:]


@pytest.fixture
def domain(hostile_cache: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[Catalog]:
    monkeypatch.setenv("TAUMESH_CACHE_DIR", str(hostile_cache))
    monkeypatch.setenv("TAUMESH_FORK_TOOL_DEADLINE", "20")
    catalog = Catalog(tmp_path / "no-v1-data")
    yield catalog
    plugin = catalog.get(DOMAIN).spec
    assert isinstance(plugin, ForkPlugin) and plugin.worker is not None
    plugin.worker.close()


def test_a_forged_pickle_reply_runs_nothing_in_the_env(domain: Catalog, tmp_path: Path) -> None:
    hostile = domain.get(DOMAIN)
    task = hostile.find_task("test", "0")
    marker = tmp_path / "forged-reply-ran"
    session = hostile.open_session(task)
    with pytest.raises(ToolCrash):
        hostile.call_tool(session, "forge_reply", {"marker": str(marker)})
    assert not marker.exists(), "the worker's reply ran code in this process"
    after = hostile.open_session(task)
    assert hostile.call_tool(after, "get_counter", {"counter_id": "a"}).observation == '{"value": 1}'


def test_a_reply_of_the_wrong_type_ends_only_its_session(domain: Catalog) -> None:
    hostile = domain.get(DOMAIN)
    task = hostile.find_task("test", "0")
    bystander, forger = hostile.open_session(task), hostile.open_session(task)
    assert hostile.call_tool(bystander, "increment", {"counter_id": "a", "amount": 2}).observation == '{"value": 3}'
    with pytest.raises(ToolCrash, match="malformed reply to tool 'forge_json'"):
        hostile.call_tool(forger, "forge_json", {})
    assert hostile.call_tool(bystander, "get_counter", {"counter_id": "a"}).observation == '{"value": 3}'


def test_a_session_reaches_neither_another_session_nor_the_pristine_data(domain: Catalog) -> None:
    hostile = domain.get(DOMAIN)
    task = hostile.find_task("test", "0")
    gold = hostile.gold_hash(task)  # replayed on fresh data: the pristine copy
    bystander, spoiler = hostile.open_session(task), hostile.open_session(task)
    assert hostile.call_tool(bystander, "increment", {"counter_id": "a", "amount": 2}).observation == '{"value": 3}'
    touched = hostile.call_tool(spoiler, "spoil", {}).observation
    assert touched.startswith("touched "), touched
    assert hostile.call_tool(spoiler, "get_counter", {"counter_id": "a"}).observation == f'{{"value": {SPOILED}}}'
    assert hostile.call_tool(bystander, "get_counter", {"counter_id": "a"}).observation == '{"value": 3}'
    fresh = hostile.open_session(task)
    assert hostile.call_tool(fresh, "get_counter", {"counter_id": "a"}).observation == '{"value": 1}'
    assert hostile.gold_hash(task) == gold
    plugin = hostile.spec
    assert isinstance(plugin, ForkPlugin) and plugin.worker is not None
    plugin.worker.close()  # a new worker loads the checkout's files again
    restarted = hostile.open_session(task)
    assert hostile.call_tool(restarted, "get_counter", {"counter_id": "a"}).observation == '{"value": 1}'
    assert hostile.call_tool(bystander, "get_counter", {"counter_id": "a"}).observation == '{"value": 3}'
    assert hostile.gold_hash(task) == gold


def test_the_worker_runs_without_the_env_s_environment(domain: Catalog, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", PROVIDER_KEY)
    monkeypatch.setenv("TAUMESH_TOKEN", TOKEN)
    monkeypatch.setenv("SOME_SERVICE_SECRET", PROVIDER_KEY)
    hostile = domain.get(DOMAIN)
    plugin = hostile.spec
    assert isinstance(plugin, ForkPlugin) and plugin.worker is not None
    plugin.worker.close()  # started again under this environment
    session = hostile.open_session(hostile.find_task("test", "0"))
    stolen = hostile.call_tool(session, "steal", {"paths": []}).observation
    environ = json.loads(stolen)["environ"]
    assert PROVIDER_KEY not in stolen and TOKEN not in stolen, environ
    assert environ["HOME"] != os.environ.get("HOME"), environ


def test_a_session_killing_the_others_costs_them_nothing(domain: Catalog) -> None:
    """Under bubblewrap, a tool that kills the other sessions' processes loses them nothing: each is rebuilt."""
    if sandbox_mode() == "process" or bwrap_problem() is not None:
        pytest.skip(f"needs bubblewrap: {bwrap_problem() or 'TAUMESH_FORK_SANDBOX=process'}")
    hostile = domain.get(DOMAIN)
    task = hostile.find_task("test", "0")
    first, second, killer = (hostile.open_session(task) for _ in range(3))
    assert hostile.call_tool(first, "increment", {"counter_id": "a", "amount": 2}).observation == '{"value": 3}'
    assert hostile.call_tool(second, "increment", {"counter_id": "b", "amount": 1}).observation == '{"value": 8}'
    plugin = hostile.spec
    assert isinstance(plugin, ForkPlugin) and plugin.worker is not None
    restarts = plugin.worker.restarts
    killed = hostile.call_tool(killer, "kill_others", {}).observation
    assert killed.startswith("killed ") and int(killed.split()[1]) >= 2, killed  # the two sessions at least
    assert hostile.call_tool(first, "get_counter", {"counter_id": "a"}).observation == '{"value": 3}'
    assert hostile.call_tool(second, "get_counter", {"counter_id": "b"}).observation == '{"value": 8}'
    assert plugin.worker.restarts == restarts  # rebuilt in the same worker


def test_without_bubblewrap_the_worker_still_holds_no_secret(domain: Catalog, monkeypatch: pytest.MonkeyPatch) -> None:
    """``TAUMESH_FORK_SANDBOX=process``: the worker's own session, a clean environment, uid 65534 under root.

    Where uid 65534 cannot run this interpreter (root's pyenv under a closed /root), the worker is refused with the
    reason instead, before anything runs.
    """
    monkeypatch.setenv("TAUMESH_FORK_SANDBOX", "process")
    monkeypatch.setenv("OPENAI_API_KEY", PROVIDER_KEY)
    monkeypatch.setenv("TAUMESH_TOKEN", TOKEN)
    hostile = domain.get(DOMAIN)
    plugin = hostile.spec
    assert isinstance(plugin, ForkPlugin) and plugin.worker is not None
    plugin.worker.close()
    task = hostile.find_task("test", "0")
    bystander, spoiler = hostile.open_session(task), hostile.open_session(task)
    if os.geteuid() == 0 and not _reachable_by_nobody(Path(sys.executable).resolve()):
        with pytest.raises(ToolCrash, match="uid 65534, which cannot run"):
            hostile.call_tool(bystander, "get_counter", {"counter_id": "a"})
        return
    assert hostile.call_tool(bystander, "increment", {"counter_id": "a", "amount": 2}).observation == '{"value": 3}'
    stolen = hostile.call_tool(spoiler, "steal", {"paths": []}).observation
    assert PROVIDER_KEY not in json.dumps(json.loads(stolen)["environ"]) and TOKEN not in stolen.split('"files"')[0]
    hostile.call_tool(spoiler, "spoil", {})
    assert hostile.call_tool(bystander, "get_counter", {"counter_id": "a"}).observation == '{"value": 3}'
    hostile.call_tool(spoiler, "kill_parent", {})  # the template: its keeper, never this process, is its parent
    assert hostile.call_tool(bystander, "get_counter", {"counter_id": "a"}).observation == '{"value": 3}'


def _reachable_by_nobody(path: Path) -> bool:
    return all(folder.stat().st_mode & 0o001 for folder in path.parents)
