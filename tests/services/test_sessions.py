"""Env sessions: expiry that takes effect at once, a reaper on a timer, a cap, and ids kept out of errors and logs."""

from __future__ import annotations

import logging
import time
from collections.abc import Iterator
from dataclasses import dataclass

import grpc
import pytest

from taumesh.domains import Catalog, Session
from taumesh.env.v1 import env_pb2, env_pb2_grpc
from taumesh.rpc.errors import ResourceExhausted, error_details
from taumesh.rpc.server import CHANNEL_OPTIONS, RunningServer, start_server
from taumesh.services.env import env_service
from taumesh.services.env.sessions import SessionStore
from tests.helpers.grpc_services import LoopThread, task_ref


class Clock:
    """A monotonic clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def store_with(catalog: Catalog, clock: Clock, idle: float = 10.0, cap: int = 3) -> tuple[SessionStore, Session]:
    domain = catalog.get("retail")
    return SessionStore(idle_timeout=idle, max_sessions=cap, clock=clock), Session(domain)


def test_an_expired_session_is_gone_when_asked_for_before_any_reap(catalog: Catalog) -> None:
    clock = Clock()
    store, session = store_with(catalog, clock)
    task = catalog.get("retail").tasks("test")[0]
    kept, expiring = store.open(session, task), store.open(Session(catalog.get("retail")), task)
    clock.now += 6
    assert store.get(kept) is not None  # used: its idle time starts again
    clock.now += 5  # `expiring` is 11 s idle, `kept` 5 s
    assert store.get(expiring) is None
    assert len(store) == 1, "asking for the expired session dropped it"
    assert store.get(kept) is not None


def test_reaping_looks_only_at_the_oldest_sessions(catalog: Catalog) -> None:
    clock = Clock()
    store, _ = store_with(catalog, clock, cap=100)
    task = catalog.get("retail").tasks("test")[0]
    ids = []
    for _ in range(5):
        ids.append(store.open(Session(catalog.get("retail")), task))
        clock.now += 1
    store.get(ids[0])  # the first one is now the most recently used
    clock.now += 6.5  # ids[1..4] are now 10.5, 9.5, 8.5 and 7.5 s idle, ids[0] 6.5 s
    assert store.reap() == 1  # only ids[1] is past 10 s
    assert store.get(ids[1]) is None and store.get(ids[0]) is not None
    clock.now += 100
    assert store.reap() == 4 and len(store) == 0


def test_the_cap_refuses_with_session_limit_and_a_retry_delay(catalog: Catalog) -> None:
    clock = Clock()
    store, _ = store_with(catalog, clock, idle=30.0, cap=2)
    task = catalog.get("retail").tasks("test")[0]
    first = store.open(Session(catalog.get("retail")), task)
    clock.now += 10
    store.open(Session(catalog.get("retail")), task)
    with pytest.raises(ResourceExhausted) as refused:
        store.open(Session(catalog.get("retail")), task)
    assert refused.value.reason == "SESSION_LIMIT"
    assert refused.value.retry_after == pytest.approx(20.0)  # the oldest frees in 30 - 10 s
    assert "at most 2 open sessions" in str(refused.value)
    store.close(first)
    store.open(Session(catalog.get("retail")), task)  # room again


@dataclass
class SmallEnv:
    """An env server with a short idle timeout (2 s) and a cap of 2, on its own loop."""

    running: RunningServer
    store: SessionStore
    stub: env_pb2_grpc.EnvServiceStub


IDLE = 2.0


@pytest.fixture
def small_env(catalog: Catalog) -> Iterator[SmallEnv]:
    loop = LoopThread()
    service = env_service(catalog, idle_timeout=IDLE, max_sessions=2)
    running = loop.run(start_server([service]))
    try:
        with grpc.insecure_channel(running.address, options=CHANNEL_OPTIONS) as channel:
            yield SmallEnv(running, service.servicer.sessions, env_pb2_grpc.EnvServiceStub(channel))
    finally:
        loop.run(running.stop(grace=0.5))
        assert all(task.done() for task in running.tasks), "the reaper stops with the server"
        loop.close()


def open_session(env: SmallEnv) -> str:
    request = env_pb2.OpenSessionRequest(task=task_ref("retail"))
    opened: env_pb2.OpenSessionResponse = env.stub.OpenSession(request, timeout=60)
    return opened.session_id


def test_over_grpc_the_cap_answers_resource_exhausted_and_the_reaper_frees_abandoned_sessions(
    small_env: SmallEnv, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="taumesh.services.env.sessions")
    warm_up = open_session(small_env)  # the first session loads and hashes the domain's data
    small_env.stub.CloseSession(env_pb2.CloseSessionRequest(session_id=warm_up), timeout=10)
    ids = [open_session(small_env), open_session(small_env)]
    with pytest.raises(grpc.RpcError) as refused:
        open_session(small_env)
    assert refused.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
    details = error_details(refused.value)
    assert details["reason"] == "SESSION_LIMIT" and details["retry_after"] > 0
    # nobody uses them: the reaper (no OpenSession, no lookup) drops both within the idle time plus one interval
    deadline = time.monotonic() + IDLE + small_env.store.reap_interval + 1.0
    while len(small_env.store) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert len(small_env.store) == 0
    reaped = [r.getMessage() for r in caplog.records if "reaped" in r.getMessage()]
    assert reaped and reaped[-1].endswith("; 0 open")
    for session_id in ids:  # expired sessions answer NOT_FOUND, without echoing the id, and never reach a log
        with pytest.raises(grpc.RpcError) as lost:
            small_env.stub.GetFinalState(env_pb2.GetFinalStateRequest(session_id=session_id), timeout=10)
        assert lost.value.code() == grpc.StatusCode.NOT_FOUND
        assert error_details(lost.value)["reason"] == "SESSION_NOT_FOUND"
        assert session_id not in (lost.value.details() or "")
        assert not [r for r in caplog.records if session_id in r.getMessage()]
    open_session(small_env)  # room again


def test_get_final_state_closes_the_session_only_when_asked(small_env: SmallEnv) -> None:
    kept, closed = open_session(small_env), open_session(small_env)
    first = small_env.stub.GetFinalState(env_pb2.GetFinalStateRequest(session_id=kept), timeout=10)
    again = small_env.stub.GetFinalState(env_pb2.GetFinalStateRequest(session_id=kept), timeout=10)
    assert again.data_hash == first.data_hash  # still open: the default keeps it
    final = small_env.stub.GetFinalState(
        env_pb2.GetFinalStateRequest(session_id=closed, close_session=True), timeout=10
    )
    assert final.data_hash == first.data_hash and len(small_env.store) == 1
    with pytest.raises(grpc.RpcError) as gone:  # as after CloseSession: a retry finds no session
        small_env.stub.GetFinalState(env_pb2.GetFinalStateRequest(session_id=closed, close_session=True), timeout=10)
    assert gone.value.code() == grpc.StatusCode.NOT_FOUND
    assert error_details(gone.value)["reason"] == "SESSION_NOT_FOUND"
    small_env.stub.CloseSession(env_pb2.CloseSessionRequest(session_id=kept), timeout=10)
    assert len(small_env.store) == 0


def test_a_tool_span_records_a_digest_of_the_session_never_its_id(monkeypatch: pytest.MonkeyPatch) -> None:
    from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

    from taumesh.telemetry import setup_telemetry, shutdown_telemetry, tool_span
    from taumesh.telemetry.genai import session_ref
    from tests.helpers.environment import OTEL_VARIABLES

    for name in OTEL_VARIABLES:
        monkeypatch.delenv(name, raising=False)
    memory = InMemorySpanExporter()
    session_id = "0123456789abcdef0123456789abcdef"
    setup_telemetry("orchestrator", set_global=False, span_exporter=memory)
    try:
        for call in ("first", "second"):
            with tool_span("get_user_details", f"call_{call}", "{}", session_id=session_id) as span:
                span.answered("observation", error=False, done=False, aborted=False)
    finally:
        shutdown_telemetry()
    spans = memory.get_finished_spans()
    assert len(spans) == 2
    for span in spans:
        attributes = dict(span.attributes or {})
        assert session_id not in repr(attributes)
        assert attributes["taumesh.session.ref"] == session_ref(session_id)  # the same for every call of a session
    assert session_ref(session_id) != session_ref(session_id[:-1] + "0")
