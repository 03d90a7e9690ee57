"""Bad input over real gRPC: the agent's mistakes come back as observations, the caller's as status codes."""

from __future__ import annotations

import json
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection_pb2, reflection_pb2_grpc

from taumesh.common.v1 import common_pb2
from taumesh.env.v1 import env_pb2, env_pb2_grpc
from taumesh.rpc.errors import error_details
from taumesh.scorer.v1 import scorer_pb2, scorer_pb2_grpc
from tests.helpers.grpc_services import RPC_TIMEOUT, EnvClient, aborted, done, errored, task_ref
from tests.helpers.paths import V1_VECTORS, read_jsonl

RETAIL_INITIAL = "5a4b2cb59f4d12dea7e4adff24a7f8fada510ead49372ea4a729a82bbb5f49b5"
AIRLINE_INITIAL = "4587e6b48ad2b2c4f3e1fecb40aabec7bb2286513273b8f8cec3f5865222f290"
ERROR_CASES = list(read_jsonl(V1_VECTORS / "error_cases.jsonl")) if (V1_VECTORS / "error_cases.jsonl").is_file() else []


def error_case(env: str, tool: str, note: str) -> dict[str, Any]:
    [case] = [c for c in ERROR_CASES if (c["env"], c["tool"], c["note"]) == (env, tool, note)]
    return case


@pytest.fixture
def retail(env: EnvClient) -> Any:
    opened = env.open("retail", "test", 0)
    yield opened.session_id
    env.close(opened.session_id)


@pytest.fixture
def airline(env: EnvClient) -> Any:
    opened = env.open("airline", "test", 0)
    yield opened.session_id
    env.close(opened.session_id)


def rpc_error(call: Callable[[], Any]) -> grpc.RpcError:
    with pytest.raises(grpc.RpcError) as raised:
        call()
    return raised.value


# --- the agent's mistakes: observations, never failures ---------------------------------------------------------


def test_unknown_tool(env: EnvClient, retail: str) -> None:
    result = env.call(retail, "no_such_tool", "{}")
    assert result.observation == "Unknown action no_such_tool"
    assert errored(result)
    assert not done(result)
    assert not aborted(result)


@pytest.mark.parametrize("arguments", ["{not json", '{"order_id": "#W2378156"', "order_id=#W2378156", "{'a': 1}"])
def test_arguments_not_json(env: EnvClient, retail: str, arguments: str) -> None:
    result = env.call(retail, "get_order_details", arguments)
    assert result.observation.startswith("Error: tool arguments are not valid JSON: ")
    assert errored(result)
    assert not done(result)
    assert not aborted(result)


@pytest.mark.parametrize(
    ("arguments", "type_name"), [("[1]", "list"), ('"x"', "str"), ("3", "int"), ("null", "NoneType"), ("true", "bool")]
)
def test_arguments_not_an_object(env: EnvClient, retail: str, arguments: str, type_name: str) -> None:
    result = env.call(retail, "get_order_details", arguments)
    assert result.observation == f"Error: tool arguments must be a JSON object, not {type_name}"
    assert errored(result)
    assert not aborted(result)


@pytest.mark.parametrize(
    ("domain", "tool", "note"),
    [
        ("retail", "get_order_details", "list id (unhashable)"),
        ("retail", "get_order_details", "missing arg"),
        ("retail", "calculate", "wrong type (int)"),
        ("retail", "cancel_pending_order", "unexpected kwarg"),
        ("retail", "find_user_id_by_email", "None email"),
        ("retail", "modify_user_address", "missing fields"),
        ("retail", "exchange_delivered_order_items", "item_ids given as a string (wrong type)"),
        ("airline", "book_reservation", "nonfree_baggages as string"),
        ("airline", "book_reservation", "invalid cabin (KeyError)"),
        ("airline", "update_reservation_baggages", "nonfree_baggages as string"),
    ],
)
def test_wrong_types_and_missing_args(env: EnvClient, domain: str, tool: str, note: str) -> None:
    case = error_case(domain, tool, note)
    assert case["observation"].startswith("Error: ")
    opened = env.open(domain)
    try:
        result = env.call(opened.session_id, tool, json.dumps(case["kwargs"]))
        assert result.observation == case["observation"]
        assert errored(result)
        assert not aborted(result)
        assert env.final(opened.session_id).data_hash == case["hash_after"]
    finally:
        env.close(opened.session_id)


@pytest.mark.parametrize("arguments", ["", "   ", "\n"])
def test_empty_arguments_are_an_empty_object(env: EnvClient, retail: str, arguments: str) -> None:
    listed = env.call(retail, "list_all_product_types", arguments)
    assert listed.observation == env.call(retail, "list_all_product_types", "{}").observation
    assert listed.observation.startswith('{"Action Camera": "3377618313"')
    assert not errored(listed)
    missing = env.call(retail, "get_order_details", arguments)
    assert missing.observation == error_case("retail", "get_order_details", "missing arg")["observation"]


def test_server_healthy_after_bad_calls(env: EnvClient, retail: str) -> None:
    bad = [
        ("no_such_tool", "{}"),
        ("get_order_details", "{"),
        ("get_order_details", "[1]"),
        ("get_order_details", '{"order_id": ["x"]}'),
        ("cancel_pending_order", '{"order_id": "#W6779827", "reason": "no longer needed", "extra": 1}'),
        ("get_order_details", "\x00"),
        ("get_order_details", json.dumps({"order_id": "#W2378156", "\u00e9\u4e2d": "x" * 10_000})),
    ]
    for name, arguments in bad:
        result = env.call(retail, name, arguments)
        assert errored(result), (name, arguments)
        assert not aborted(result)
    final = env.final(retail)
    assert final.data_hash == RETAIL_INITIAL
    assert final.tool_call_count == len(bad)
    valid = env.call(retail, "get_order_details", '{"order_id": "#W2378156"}')
    assert not errored(valid)
    assert json.loads(valid.observation)["order_id"] == "#W2378156"
    # and a brand-new session still works
    fresh = env.open("retail", "test", 1)
    try:
        assert fresh.initial_data_hash == RETAIL_INITIAL
    finally:
        env.close(fresh.session_id)


# --- the caller's mistakes: status codes ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("domain", "split", "index", "code", "fragment", "reason"),
    [
        ("banking", "test", 0, grpc.StatusCode.NOT_FOUND, "unknown domain 'banking'", "DOMAIN_NOT_FOUND"),
        ("airline", "train", 0, grpc.StatusCode.NOT_FOUND, "no split 'train'", "TASK_NOT_FOUND"),
        ("retail", "nosuch", 0, grpc.StatusCode.NOT_FOUND, "no split 'nosuch'", "TASK_NOT_FOUND"),
        ("retail", "test", 115, grpc.StatusCode.NOT_FOUND, "no task '115'", "TASK_NOT_FOUND"),
        ("airline", "test", 50, grpc.StatusCode.NOT_FOUND, "no task '50'", "TASK_NOT_FOUND"),
        ("retail", "test", -1, grpc.StatusCode.NOT_FOUND, "no task '-1'", "TASK_NOT_FOUND"),
        ("", "test", 0, grpc.StatusCode.INVALID_ARGUMENT, "task needs domain", "INVALID_ARGUMENT"),
        ("retail", "", 0, grpc.StatusCode.INVALID_ARGUMENT, "task needs split", "INVALID_ARGUMENT"),
    ],
    ids=[
        "unknown-domain",
        "airline-train",
        "unknown-split",
        "index-115",
        "airline-50",
        "negative",
        "no-domain",
        "no-split",
    ],
)
def test_open_session_invalid(
    env: EnvClient, domain: str, split: str, index: int, code: grpc.StatusCode, fragment: str, reason: str
) -> None:
    error = rpc_error(lambda: env.open(domain, split, index))
    assert error.code() == code
    assert fragment in error.details()
    assert error_details(error)["reason"] == reason  # clients branch on the google.rpc ErrorInfo, not on text
    if code == grpc.StatusCode.INVALID_ARGUMENT:
        assert error_details(error)["fields"]


def test_list_tasks_unknown(env_stub: env_pb2_grpc.EnvServiceStub) -> None:
    error = rpc_error(lambda: env_stub.ListTasks(env_pb2.ListTasksRequest(domain="airline", split="dev")))
    assert error.code() == grpc.StatusCode.NOT_FOUND
    assert "no split 'dev'" in error.details()
    error = rpc_error(lambda: env_stub.ListTasks(env_pb2.ListTasksRequest(domain="bank", split="test")))
    assert error.code() == grpc.StatusCode.NOT_FOUND
    assert "unknown domain 'bank'" in error.details()


def test_session_calls_invalid(env: EnvClient, env_stub: env_pb2_grpc.EnvServiceStub, retail: str) -> None:
    error = rpc_error(lambda: env.call("0123abcd", "think", '{"thought": "x"}'))
    assert error.code() == grpc.StatusCode.NOT_FOUND
    assert error_details(error)["reason"] == "SESSION_NOT_FOUND"
    assert "0123abcd" not in error.details()  # a session id is a bearer token: never echoed
    error = rpc_error(lambda: env.call("", "think", '{"thought": "x"}'))
    assert error.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert "session_id is required" in error.details()
    error = rpc_error(lambda: env.call(retail, "", "{}"))
    assert error.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert "tool_call.name is required" in error.details()
    error = rpc_error(lambda: env.final("0123abcd"))
    assert error.code() == grpc.StatusCode.NOT_FOUND
    error = rpc_error(lambda: env.final(""))
    assert error.code() == grpc.StatusCode.INVALID_ARGUMENT
    error = rpc_error(lambda: env.close(""))
    assert error.code() == grpc.StatusCode.INVALID_ARGUMENT
    # the rejected calls did not count as tool calls
    assert env.final(retail).tool_call_count == 0


def test_closed_session_is_gone(env: EnvClient) -> None:
    opened = env.open("retail", "dev", 3)
    assert env.call(opened.session_id, "think", '{"thought": "x"}').observation == ""
    env.close(opened.session_id)
    env.close(opened.session_id)  # closing twice (or an unknown id) succeeds
    env.close("never-opened")
    error = rpc_error(lambda: env.call(opened.session_id, "think", '{"thought": "x"}'))
    assert error.code() == grpc.StatusCode.NOT_FOUND


def _score(stub: scorer_pb2_grpc.ScorerServiceStub, **fields: Any) -> scorer_pb2.ScoreEpisodeResponse:
    fields.setdefault("task", task_ref("retail", "test", 0))
    if "ended" in fields:
        ended = fields.pop("ended")
        fields["termination"] = common_pb2.TERMINATION_USER_STOP if ended else common_pb2.TERMINATION_MAX_STEPS
    return stub.ScoreEpisode(scorer_pb2.ScoreEpisodeRequest(**fields), timeout=RPC_TIMEOUT)


def test_score_episode_invalid(scorer_stub: scorer_pb2_grpc.ScorerServiceStub) -> None:
    error = rpc_error(
        lambda: _score(scorer_stub, task=task_ref("retail", "test", 500), ended=True, final_data_hash="x")
    )
    assert error.code() == grpc.StatusCode.NOT_FOUND
    assert "no task '500'" in error.details()
    assert error_details(error)["reason"] == "TASK_NOT_FOUND"
    error = rpc_error(lambda: _score(scorer_stub, task=task_ref("banking", "test", 0), ended=True, final_data_hash="x"))
    assert error.code() == grpc.StatusCode.NOT_FOUND
    assert "unknown domain 'banking'" in error.details()
    error = rpc_error(lambda: _score(scorer_stub, task=task_ref("airline", "dev", 0), ended=True, final_data_hash="x"))
    assert error.code() == grpc.StatusCode.NOT_FOUND
    assert "no split 'dev'" in error.details()
    error = rpc_error(lambda: _score(scorer_stub, task=task_ref("retail", "test", 0), termination=0))
    assert error.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert error_details(error)["fields"] == [("termination", "must be set")]
    error = rpc_error(lambda: _score(scorer_stub, ended=True))
    assert error.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert "final_data_hash is required" in error.details()
    unspecified = common_pb2.Message(role=common_pb2.ROLE_UNSPECIFIED, content="hello")
    error = rpc_error(lambda: _score(scorer_stub, ended=True, final_data_hash="x", conversation=[unspecified]))
    assert error.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert "role" in error.details()
    unknown_role = common_pb2.Message(role=42, content="hello")  # type: ignore[arg-type]
    error = rpc_error(lambda: _score(scorer_stub, ended=True, final_data_hash="x", conversation=[unknown_role]))
    assert error.code() == grpc.StatusCode.INVALID_ARGUMENT
    # still serving
    assert _score(scorer_stub, ended=False).reward == 0.0


# --- idempotency and isolation -----------------------------------------------------------------------------------


def test_request_id_applies_a_write_once(env: EnvClient, airline: str) -> None:
    case = error_case("airline", "send_certificate", "valid (certificate_3221322)")
    arguments = json.dumps(case["kwargs"])
    first = env.call(airline, "send_certificate", arguments, request_id="req-1")
    again = env.call(airline, "send_certificate", arguments, request_id="req-1")
    assert first.observation == again.observation == case["observation"]
    final = env.final(airline)
    assert final.data_hash == case["hash_after"] != AIRLINE_INITIAL
    assert final.tool_call_count == 1
    # a new request id is a new call: the tool runs again
    other = env.call(airline, "send_certificate", arguments, request_id="req-2")
    assert "certificate_3221323" in other.observation
    assert env.final(airline).data_hash not in (case["hash_after"], AIRLINE_INITIAL)
    # and no request id means no deduplication
    third = env.call(airline, "send_certificate", arguments)
    assert "certificate_3221324" in third.observation


def test_request_ids_are_per_session(env: EnvClient) -> None:
    case = error_case("airline", "send_certificate", "valid (certificate_3221322)")
    sessions = [env.open("airline").session_id for _ in range(2)]
    try:
        for session_id in sessions:
            result = env.call(session_id, "send_certificate", json.dumps(case["kwargs"]), request_id="same")
            assert result.observation == case["observation"]
            assert env.final(session_id).data_hash == case["hash_after"]
    finally:
        for session_id in sessions:
            env.close(session_id)


def test_sessions_are_isolated(env: EnvClient) -> None:
    case = error_case("retail", "cancel_pending_order", "valid: gift-card refund updates balance")
    a = env.open("retail", "test", 5).session_id
    b = env.open("retail", "test", 5).session_id
    try:
        order_id = case["kwargs"]["order_id"]
        before = env.call(b, "get_order_details", json.dumps({"order_id": order_id})).observation
        assert json.loads(before)["status"] == "pending"
        result = env.call(a, "cancel_pending_order", json.dumps(case["kwargs"]))
        assert result.observation == case["observation"]
        assert json.loads(result.observation)["status"] == "cancelled"
        assert env.final(a).data_hash == case["hash_after"]
        assert env.final(b).data_hash == RETAIL_INITIAL
        assert env.call(b, "get_order_details", json.dumps({"order_id": order_id})).observation == before
        assert env.final(b).copied_records == 0
        # a session opened after the write sees fresh data too
        c = env.open("retail", "test", 5).session_id
        try:
            assert env.call(c, "get_order_details", json.dumps({"order_id": order_id})).observation == before
            assert env.final(c).data_hash == RETAIL_INITIAL
        finally:
            env.close(c)
    finally:
        env.close(a)
        env.close(b)


def test_concurrent_sessions(env: EnvClient) -> None:
    """Gold replays of several tasks interleaved from many client threads give each its own final hash."""
    tasks = [row for row in read_jsonl(V1_VECTORS / "retail_test.jsonl")][:24]

    def replay(task: dict[str, Any]) -> str:
        opened = env.open("retail", "test", task["task_id"])
        try:
            for action in task["actions"]:
                env.call(opened.session_id, action["name"], json.dumps(action["kwargs"]))
            return env.final(opened.session_id).data_hash
        finally:
            env.close(opened.session_id)

    with ThreadPoolExecutor(max_workers=8) as pool:
        hashes = list(pool.map(replay, tasks))
    assert hashes == [task["final_hash"] for task in tasks]
    assert len(set(hashes)) > 10


# --- health checking and reflection ------------------------------------------------------------------------------


@pytest.mark.parametrize("service", ["", "taumesh.env.v1.EnvService"])
def test_env_health(env_channel: grpc.Channel, service: str) -> None:
    response = health_pb2_grpc.HealthStub(env_channel).Check(
        health_pb2.HealthCheckRequest(service=service), timeout=RPC_TIMEOUT
    )
    assert response.status == health_pb2.HealthCheckResponse.SERVING


def test_scorer_health_and_unknown_service(scorer_channel: grpc.Channel) -> None:
    stub = health_pb2_grpc.HealthStub(scorer_channel)
    response = stub.Check(health_pb2.HealthCheckRequest(service="taumesh.scorer.v1.ScorerService"), timeout=RPC_TIMEOUT)
    assert response.status == health_pb2.HealthCheckResponse.SERVING
    error = rpc_error(lambda: stub.Check(health_pb2.HealthCheckRequest(service="taumesh.env.v1.EnvService")))
    assert error.code() == grpc.StatusCode.NOT_FOUND


def _reflect(channel: grpc.Channel, request: reflection_pb2.ServerReflectionRequest) -> Any:
    stub = reflection_pb2_grpc.ServerReflectionStub(channel)
    [response] = list(stub.ServerReflectionInfo(iter([request]), timeout=RPC_TIMEOUT))
    return response


def test_env_reflection(env_channel: grpc.Channel) -> None:
    response = _reflect(env_channel, reflection_pb2.ServerReflectionRequest(list_services=""))
    names = {service.name for service in response.list_services_response.service}
    assert {"taumesh.env.v1.EnvService", "grpc.health.v1.Health", "grpc.reflection.v1alpha.ServerReflection"} <= names
    assert "taumesh.scorer.v1.ScorerService" not in names
    response = _reflect(
        env_channel, reflection_pb2.ServerReflectionRequest(file_containing_symbol="taumesh.env.v1.EnvService")
    )
    assert response.WhichOneof("message_response") == "file_descriptor_response"
    assert response.file_descriptor_response.file_descriptor_proto


def test_scorer_reflection(scorer_channel: grpc.Channel) -> None:
    response = _reflect(scorer_channel, reflection_pb2.ServerReflectionRequest(list_services=""))
    names = {service.name for service in response.list_services_response.service}
    assert "taumesh.scorer.v1.ScorerService" in names


def test_a_request_id_answers_only_the_call_it_was_first_used_for(env: EnvClient, retail: str) -> None:
    first = env.call(retail, "think", '{"thought": "a"}', request_id="same")
    assert env.call(retail, "think", '{"thought": "a"}', request_id="same") == first  # a retry: the first answer
    error = rpc_error(lambda: env.call(retail, "think", '{"thought": "b"}', request_id="same"))
    assert error.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert error_details(error)["reason"] == "REQUEST_ID_REUSED"
    assert env.final(retail).tool_call_count == 1  # neither the retry nor the refused call ran the tool
