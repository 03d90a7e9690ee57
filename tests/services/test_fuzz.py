"""Fuzz every RPC of the four services, each a separate ``taumesh serve`` process: no INTERNAL, no UNKNOWN, ever.

Requests are made by hypothesis from the message descriptors (every field, nested messages, repeated fields,
unknown enum values), with deeply nested, huge and surrogate-laden JSON in every JSON-as-text field and huge
text anywhere. Raw undecodable bytes go to every method path. The run is derandomized and bounded (500 requests
per RPC, a deadline per call), one case per service, each starting only its own process, so workers spread
them. Models are the fake OpenAI server on loopback, and the services' outbound HTTP goes through a proxy
address where nothing listens: no request reaches the network.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import grpc
import pytest
from google.protobuf import descriptor as d
from google.protobuf import message as pb_message
from google.protobuf import message_factory
from grpc_health.v1 import health_pb2, health_pb2_grpc
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from taumesh.agent.v1 import agent_pb2
from taumesh.common.v1 import common_pb2
from taumesh.env.v1 import env_pb2
from taumesh.rpc.server import CHANNEL_OPTIONS, CONVERSATION_REQUEST_BYTES, TOOL_CALL_REQUEST_BYTES
from taumesh.scorer.v1 import scorer_pb2
from taumesh.user_sim.v1 import user_sim_pb2
from tests.helpers.cli import taumesh_executable
from tests.helpers.fake_model import FakeOpenAI, text
from tests.helpers.paths import V1_DATA
from tests.helpers.processes import Server

pytestmark = pytest.mark.slow

REQUESTS_PER_RPC = 500
RAW_PER_METHOD = 40
CALL_DEADLINE = 10.0
"""Seconds each call may take; a timeout counts as DEADLINE_EXCEEDED, which the test also reports."""
FORBIDDEN = {grpc.StatusCode.INTERNAL, grpc.StatusCode.UNKNOWN, grpc.StatusCode.RESOURCE_EXHAUSTED}
"""INTERNAL and UNKNOWN are bugs; RESOURCE_EXHAUSTED here would be an error that outgrew the metadata limit."""
OVER_THE_CAP = "Received message larger than max"
"""gRPC's own answer to a request over the server's receive cap: allowed only for a request that is over it."""
REQUEST_CAPS = {"env": TOOL_CALL_REQUEST_BYTES}
"""Each service's largest request (``max_request_bytes``); the others take a conversation's."""

SERVICES = {
    "env": env_pb2.DESCRIPTOR.services_by_name["EnvService"],
    "user-sim": user_sim_pb2.DESCRIPTOR.services_by_name["UserSimService"],
    "agent": agent_pb2.DESCRIPTOR.services_by_name["AgentService"],
    "scorer": scorer_pb2.DESCRIPTOR.services_by_name["ScorerService"],
}
MODEL_REPLY = 'Thought:\nfine\nAction:\n{"name": "respond", "arguments": {"content": "hello ###STOP###"}}'

FUZZ = settings(
    max_examples=REQUESTS_PER_RPC,
    derandomize=True,
    database=None,
    deadline=None,
    phases=[Phase.explicit, Phase.generate],  # failures are collected and reported, not shrunk
    suppress_health_check=list(HealthCheck),
)


# ---- strategies built from the descriptors -------------------------------------------------------------------

LONE_SURROGATES = st.sampled_from(["\\ud800", "\\udfff", "a\\udc80b", "\\ud83d"])
"""JSON escapes of lone surrogates: valid JSON text that decodes to a str UTF-8 cannot carry."""


def nested_json(depth: int, kind: str) -> str:
    return "[" * depth + "]" * depth if kind == "list" else '{"a":' * depth + "1" + "}" * depth


json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False)
    | st.text(max_size=20)
    | LONE_SURROGATES.map(lambda s: json.loads(f'"{s}"')),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)
json_texts = st.one_of(
    st.dictionaries(st.text(max_size=10), json_values, max_size=5).map(json.dumps),
    json_values.map(json.dumps),  # valid JSON that is not an object
    st.builds(nested_json, st.sampled_from([50, 5_000, 200_000]), st.sampled_from(["list", "dict"])),
    st.builds(lambda n: '{"amount": ' + "9" * n + "}", st.sampled_from([4_301, 5_000, 100_000])),
    st.builds(lambda n: '{"x": "' + "y" * n + '"}', st.sampled_from([100_000, 400_000])),
    LONE_SURROGATES.map(lambda s: f'{{"order_id": "{s}", "{s}": 1}}'),
    st.sampled_from(["", "{not json", "null", "[]", '{"a": NaN}', '{"a": Infinity}', "{" * 3000, '"\\u0000"']),
    st.text(max_size=40),
)


def mostly(usual: st.SearchStrategy[Any], odd: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    """``usual`` about four times in five, else ``odd``: most requests get past the first checks."""
    # hypothesis draws the ends of a range more often than the middle: the odd branch is a band inside it
    return st.integers(0, 99).flatmap(lambda roll: odd if 40 <= roll < 60 else usual)


def some_text() -> st.SearchStrategy[str]:
    """Short text mostly; one time in ten a huge run of one character (errors that echo it must stay small)."""
    huge = st.builds(
        lambda c, n: c * n, st.sampled_from(["x", "é", "😀", "\u0000"]), st.sampled_from([10_000, 300_000])
    )
    return st.integers(0, 9).flatmap(lambda roll: huge if roll == 0 else st.text(max_size=30))


@dataclass
class Hints:
    """Field-name-specific values that reach past the first validation: real domains, tasks, sessions, tools."""

    session_ids: list[str]
    tool_names: list[str]
    model_url: str
    by_name: dict[str, st.SearchStrategy[Any]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        any_text = some_text()
        self.by_name = {
            "session_id": mostly(st.sampled_from(self.session_ids), any_text),
            "domain": mostly(st.sampled_from(["retail", "airline"]), any_text),
            "split": mostly(st.sampled_from(["test", "train", "dev"]), any_text),
            "task_id": mostly(st.sampled_from(["0", "1", "7", "-1", "1e3", "99999999999999999999"]), any_text),
            "name": mostly(st.sampled_from(self.tool_names), any_text),
            "strategy": mostly(
                st.sampled_from(
                    [
                        "oracle",
                        "tool-calling",
                        "act",
                        "react",
                        "few-shot",
                        "scripted",
                        "llm",
                        "verify",
                        "reflection",
                        "human",
                    ]
                ),
                any_text,
            ),
            "provider": st.sampled_from(["", "openai", "no-such-provider"]),
            "model": mostly(st.sampled_from(["gpt-4o", "fake-model", ""]), any_text),
            "api_base": st.sampled_from(["", "", "", "http://127.0.0.1:9/v1", "file:///etc/passwd"]),
            "role": mostly(st.sampled_from(["user", "assistant", "tool", "system", ""]), any_text),
        }

    def string(self, f: d.FieldDescriptor) -> st.SearchStrategy[Any]:
        if f.name.endswith("_json"):
            return json_texts
        return self.by_name.get(f.name, some_text() | LONE_SURROGATES)


def scalar(f: d.FieldDescriptor, hints: Hints) -> st.SearchStrategy[Any]:
    t = f.type
    if t == d.FieldDescriptor.TYPE_STRING:
        return hints.string(f)
    if t == d.FieldDescriptor.TYPE_BYTES:
        return st.binary(max_size=64)
    if t == d.FieldDescriptor.TYPE_BOOL:
        return st.booleans()
    if t in (d.FieldDescriptor.TYPE_DOUBLE, d.FieldDescriptor.TYPE_FLOAT):
        return mostly(st.floats(0, 2), st.floats(width=32 if t == d.FieldDescriptor.TYPE_FLOAT else 64))
    if t == d.FieldDescriptor.TYPE_ENUM:
        assert f.enum_type is not None
        known = [v.number for v in f.enum_type.values]
        return mostly(st.sampled_from([n for n in known if n] or known), st.integers(-3, 1000))
    signed64 = t in (d.FieldDescriptor.TYPE_INT64, d.FieldDescriptor.TYPE_SINT64, d.FieldDescriptor.TYPE_SFIXED64)
    unsigned = t in (d.FieldDescriptor.TYPE_UINT32, d.FieldDescriptor.TYPE_FIXED32, d.FieldDescriptor.TYPE_UINT64,
                     d.FieldDescriptor.TYPE_FIXED64)  # fmt: skip
    if unsigned:
        top = 2**64 - 1 if t in (d.FieldDescriptor.TYPE_UINT64, d.FieldDescriptor.TYPE_FIXED64) else 2**32 - 1
        return st.sampled_from([0, 1, 3, 100, 10_000, top]) | st.integers(0, top)
    bound = 2**63 if signed64 else 2**31
    return st.sampled_from([0, 1, -1, 3, 1000, 10_000, bound - 1, -bound]) | st.integers(-bound, bound - 1)


def message_strategy(desc: d.Descriptor, hints: Hints, depth: int = 0) -> st.SearchStrategy[pb_message.Message]:
    """Messages of type ``desc``: all fields or any subset of them set, nested messages down to a few levels."""
    cls = message_factory.GetMessageClass(desc)
    fields: dict[str, st.SearchStrategy[Any]] = {}
    for f in desc.fields:
        if f.type == d.FieldDescriptor.TYPE_MESSAGE:
            assert f.message_type is not None
            if f.message_type.GetOptions().map_entry:
                key, value = f.message_type.fields_by_name["key"], f.message_type.fields_by_name["value"]
                if value.type == d.FieldDescriptor.TYPE_MESSAGE:
                    continue
                fields[f.name] = st.dictionaries(scalar(key, hints), scalar(value, hints), max_size=3)
                continue
            if depth >= 4 or f.message_type.full_name.startswith("google.protobuf."):
                continue
            value_strategy: st.SearchStrategy[Any] = st.deferred(
                lambda f=f: message_strategy(f.message_type, hints, depth + 1)
            )
        else:
            value_strategy = scalar(f, hints)
        is_list = f.is_repeated
        fields[f.name] = st.lists(value_strategy, max_size=4 if depth < 2 else 1) if is_list else value_strategy

    composite = _composite_names(desc)  # once per message type, not once per field of every request

    def build(values: dict[str, Any]) -> pb_message.Message:
        built = cls()
        for name, value in values.items():
            target = getattr(built, name) if name in composite else None
            if target is None:
                setattr(built, name, value)
            elif isinstance(value, dict):
                target.update(value)
            elif isinstance(value, list):
                target.extend(value) if not value or not isinstance(value[0], pb_message.Message) else [
                    target.add().CopyFrom(v) for v in value
                ]
            else:
                target.CopyFrom(value)
        return built

    # every field set most of the time (a request that gets past validation), any subset of them otherwise
    return mostly(st.fixed_dictionaries(fields), st.fixed_dictionaries({}, optional=fields)).map(build)


def _composite_names(desc: d.Descriptor) -> set[str]:
    return {f.name for f in desc.fields if f.is_repeated or f.type == d.FieldDescriptor.TYPE_MESSAGE}


def offline_models(request: pb_message.Message, model_url: str) -> pb_message.Message:
    """Every ModelConfig without an ``api_base`` gets the fake server's: an empty one would mean the provider."""
    for f, value in request.ListFields():
        if f.type != d.FieldDescriptor.TYPE_MESSAGE or (f.message_type and f.message_type.GetOptions().map_entry):
            continue
        for item in value if f.is_repeated else [value]:
            if isinstance(item, common_pb2.ModelConfig) and not item.api_base:
                item.api_base = model_url
            offline_models(item, model_url)
    return request


# ---- the servers ----------------------------------------------------------------------------------------------


@dataclass
class Outcomes:
    """Status codes seen per method, and the calls that broke a rule."""

    codes: dict[str, Counter[str]] = field(default_factory=dict)
    broken: list[str] = field(default_factory=list)

    def record(self, method: str, call: Callable[[], Any], shown: Callable[[], str], over_cap: bool = False) -> None:
        """Make ``call``; ``over_cap``: the request is larger than the service takes, so gRPC may refuse it."""
        try:
            call()
            code = grpc.StatusCode.OK
        except grpc.RpcError as exc:
            code = exc.code()
            refused_for_size = over_cap and code == grpc.StatusCode.RESOURCE_EXHAUSTED
            if code in FORBIDDEN and not (refused_for_size and OVER_THE_CAP in str(exc.details())):
                self.broken.append(f"{method}: {code.name} {str(exc.details())[:300]!r} <- {shown()}")
        self.codes.setdefault(method, Counter())[code.name] += 1


@dataclass
class Service:
    """One service as its own ``taumesh serve`` process, and the fake model server it may call."""

    name: str
    server: Server
    channel: grpc.Channel
    model: FakeOpenAI


@pytest.fixture
def service(request: pytest.FixtureRequest, tmp_path: Path, fake: FakeOpenAI) -> Iterator[Service]:
    """The service named by the test's ``service`` parameter, started alone: each case needs only its own."""
    name: str = request.param
    fake.reset(text(MODEL_REPLY))
    offline = {
        **fake.environment(),
        "HTTP_PROXY": "http://127.0.0.1:9",  # nothing listens: any request not for loopback fails at once
        "HTTPS_PROXY": "http://127.0.0.1:9",
        "ALL_PROXY": "http://127.0.0.1:9",
        "NO_PROXY": "127.0.0.1,localhost",
    }
    server = Server.spawn(
        [taumesh_executable(), "serve", name, "--port", "0", "--data-dir", str(V1_DATA)],
        tmp_path / f"{name}.log",
        env=offline,
    )
    channel: grpc.Channel | None = None
    try:
        server.wait_ready(r"serving \S+ on (?P<address>127\.0\.0\.1:\d+)")
        channel = grpc.insecure_channel(server.address, options=CHANNEL_OPTIONS)
        yield Service(name, server, channel, fake)
    finally:
        if channel is not None:
            channel.close()
        server.kill()


def rpc(channel: grpc.Channel, service: d.ServiceDescriptor, method: d.MethodDescriptor, raw: bool = False) -> Any:
    response_cls = message_factory.GetMessageClass(method.output_type)
    return channel.unary_unary(
        f"/{service.full_name}/{method.name}",
        request_serializer=None if raw else (lambda m: m.SerializeToString()),
        response_deserializer=response_cls.FromString,
    )


def open_sessions(env: grpc.Channel) -> list[str]:
    stub = rpc(env, SERVICES["env"], SERVICES["env"].methods_by_name["OpenSession"])
    return [
        stub(
            env_pb2.OpenSessionRequest(task=common_pb2.TaskRef(domain=domain, split="test", task_id="0")), timeout=60
        ).session_id
        for domain in ("retail", "airline")
    ]


def tool_names() -> list[str]:
    names = {"transfer_to_human_agents", "think", "calculate"}
    for domain in ("retail", "airline"):
        tools = (V1_DATA / domain / "tools").glob("*.py") if (V1_DATA / domain / "tools").is_dir() else []
        names |= {Path(p).stem for p in tools}
    names |= {"get_user_details", "get_order_details", "cancel_pending_order", "book_reservation", "update_address"}
    return sorted(names)


def run_fuzz(
    outcomes: Outcomes,
    label: str,
    call: Any,
    requests: st.SearchStrategy[pb_message.Message],
    model_url: str,
    cap: int = CONVERSATION_REQUEST_BYTES,
) -> None:
    """Send ``REQUESTS_PER_RPC`` generated requests through ``call``; a few may be over the service's ``cap``
    (several huge texts in one request), and only those may be refused for their size."""

    @FUZZ
    @given(requests, st.integers())  # the integer: a space never exhausted before 500 examples
    def fuzz(request: pb_message.Message, _: int) -> None:
        request = offline_models(request, model_url)
        over_cap = request.ByteSize() > cap
        outcomes.record(label, lambda: call(request, timeout=CALL_DEADLINE), lambda: _shown(request), over_cap)

    fuzz()


def run_raw(outcomes: Outcomes, label: str, call: Any) -> None:
    """Send random and known-undecodable bytes through ``call``."""

    @settings(FUZZ, max_examples=RAW_PER_METHOD)
    @given(st.binary(min_size=1, max_size=2048) | st.sampled_from(UNDECODABLE))
    def fuzz_raw(data: bytes) -> None:
        outcomes.record(label, lambda: call(data, timeout=CALL_DEADLINE), lambda: repr(data[:80]))

    fuzz_raw()


NO_SESSIONS = ["no-env-in-this-case"]
"""Only the env's requests have a ``session_id``; the other services' cases never draw from this."""


@pytest.mark.parametrize("service", list(SERVICES), indirect=True)
def test_every_rpc_survives_generated_requests_and_undecodable_bytes(service: Service) -> None:
    """One case per service, so workers share the run; each sends every RPC of its service 500 requests."""
    desc = SERVICES[service.name]
    sessions = open_sessions(service.channel) if service.name == "env" else NO_SESSIONS
    hints = Hints(session_ids=sessions, tool_names=tool_names(), model_url=service.model.url)
    outcomes = Outcomes()
    for method in desc.methods:
        call = rpc(service.channel, desc, method)
        cap = REQUEST_CAPS.get(service.name, CONVERSATION_REQUEST_BYTES)
        run_fuzz(outcomes, method.name, call, message_strategy(method.input_type, hints), service.model.url, cap)
    for method in desc.methods:
        run_raw(outcomes, f"{method.name} (raw)", rpc(service.channel, desc, method, raw=True))

    report = "\n".join(f"{service.name}.{m}: {dict(c)}" for m, c in outcomes.codes.items())
    print(report)  # what each method answered (pytest -s)
    if outcomes.broken:
        pytest.fail(f"{len(outcomes.broken)} forbidden outcomes:\n" + "\n".join(outcomes.broken[:30]), pytrace=False)
    for method in desc.methods:
        if sum(outcomes.codes[method.name].values()) < REQUESTS_PER_RPC:
            pytest.fail(f"fewer than {REQUESTS_PER_RPC} requests to {service.name}.{method.name}:\n{report}")
        raw_codes = outcomes.codes[f"{method.name} (raw)"]
        assert raw_codes["INVALID_ARGUMENT"] > 0, report  # undecodable bytes are the caller's fault, said so
    health = health_pb2_grpc.HealthStub(service.channel).Check(health_pb2.HealthCheckRequest(), timeout=10)
    assert health.status == health_pb2.HealthCheckResponse.SERVING, service.name
    assert service.server.proc.poll() is None
    assert "Traceback" not in service.server.stderr(), service.server.stderr()
    outbound = [s.path for s in service.model.served]
    assert all(re.fullmatch(r"/v1/.*", path) for path in outbound), outbound[:5]


UNDECODABLE = [
    b"\x0a\x03\xed\xa0\x80",  # field 1 (a string everywhere it exists) holding a UTF-8-encoded lone surrogate
    b"\x0a\x02\xff\xfe",  # field 1 holding bytes that are not UTF-8
    b"\x0a\xff\xff\xff\xff\x0f",  # a length far past the end
    b"\xff" * 11,  # a varint longer than ten bytes
    b"\x0b",  # a group start never ended
    b"\x0a\x7f",  # truncated
]


def _shown(request: pb_message.Message) -> str:
    text_form = str(request)
    return f"{type(request).__name__}({text_form[:200]!r}{'…' if len(text_form) > 200 else ''})"
