"""τ-bench v1's user simulators over real gRPC send τ-bench's own requests, body for body.

A τ-bench checkout is built (its ``user.py`` holding τ-bench's prompts, recovered from the recorded requests) and
imported with ``taumesh data import taubench``. The user-sim service, started on loopback over the imported data,
plays every recorded episode of ``../shared/taubench_v1/user_sim/requests.jsonl`` (llm, react, verify, reflection;
retail and airline) against a server replaying the recorded model replies. Each request it sends must equal the
recorded body (keys in the same order), and each reply the text τ-bench's ``reset()``/``step()`` returned.

Not reproduced on purpose (docs/data.md, services/user_sim/strategies/taubench.py): the construction calls, and
the steps after a reply τ-bench could not parse (τ-bench's run ends the task there; here the request is sent again,
then the model counts as unavailable).
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from itertools import groupby
from pathlib import Path
from typing import Any

import grpc
import pytest

from taumesh.common.v1 import common_pb2
from taumesh.convert import message_from_proto, message_to_proto
from taumesh.data import MANIFEST_NAME, USER_PROMPTS_FILE
from taumesh.models import ChatMessage
from taumesh.rpc.errors import error_reason
from taumesh.rpc.server import start_server
from taumesh.services.user_sim import user_sim_service
from taumesh.services.user_sim.strategies.taubench import accepts, litellm_message_text
from taumesh.user_sim.v1 import user_sim_pb2, user_sim_pb2_grpc
from tests.data._commands import clean_env, data, explain
from tests.helpers.fake_model import FakeOpenAI, Script, in_turn, text
from tests.helpers.llm import user_config, user_sim_stub
from tests.helpers.paths import V1_DATA
from tests.llm.taubench_user_checkout import Record, load_records, write_taubench_checkout

RECORDS = V1_DATA / "user_sim" / "requests.jsonl"
TIMEOUT = 60.0


@pytest.fixture(scope="module")
def records() -> list[Record]:
    if not RECORDS.is_file():
        pytest.skip(f"τ-bench's recorded user requests not found at {RECORDS}")
    return load_records(RECORDS)


@pytest.fixture(scope="module")
def imported(records: list[Record], tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The v1 folder ``taumesh data import taubench`` wrote from a checkout with τ-bench's ``user.py``."""
    root = tmp_path_factory.mktemp("taubench")
    checkout = write_taubench_checkout(root / "tau-bench", records)
    proc = data(clean_env(root / "cache"), "import", "taubench", checkout)
    assert proc.returncode == 0, explain(proc)
    assert not list(checkout.rglob("EXECUTED")), "a τ-bench file was executed"
    return root / "cache" / "taubench_v1"


@pytest.fixture
async def stub(imported: Path) -> AsyncIterator[user_sim_pb2_grpc.UserSimServiceStub]:
    async with user_sim_stub(imported) as connected:
        yield connected


def config(strategy: str, fake: FakeOpenAI) -> user_sim_pb2.UserConfig:
    return user_config(strategy, fake, "gpt-4o")


def episode(domain: str, task: int) -> common_pb2.EpisodeContext:
    return common_pb2.EpisodeContext(task=common_pb2.TaskRef(domain=domain, split="test", task_id=str(task)))


def replaying(replies: list[str]) -> Script:
    """The recorded replies in order; the last one again for any request after them (a redraw)."""
    return in_turn(*map(text, replies))


def in_order(value: Any, top: bool = True) -> Any:
    """``value`` with every dict below the top as its list of items: equal only when the keys come in the same order.

    The body's own two keys come in the order litellm writes them (1.106.2: messages first, τ-bench's 1.110.2:
    model first), so only their set is compared; the messages' keys must come in τ-bench's order.
    """
    if isinstance(value, dict):
        items = [(key, in_order(item, False)) for key, item in value.items()]
        return sorted(items) if top else items
    if isinstance(value, list):
        return [in_order(item, False) for item in value]
    return value


def phases(records: list[Record]) -> list[tuple[tuple[str, str, int], list[Record]]]:
    """Each (strategy, domain, task) episode's reset and steps, in order (construction calls left out)."""
    played = [r for r in records if r["phase"] != "construct"]
    return [
        (key, list(group))
        for key, group in groupby(played, key=lambda r: (r["strategy"], r["domain"], r["task_index"]))
    ]


async def ask(
    stub: user_sim_pb2_grpc.UserSimServiceStub,
    cfg: user_sim_pb2.UserConfig,
    instruction: str,
    context: common_pb2.EpisodeContext,
    conversation: list[ChatMessage],
) -> tuple[ChatMessage, bool]:
    if not conversation:
        started = await stub.StartConversation(
            user_sim_pb2.StartConversationRequest(config=cfg, instruction=instruction, episode=context),
            timeout=TIMEOUT,
        )
        return message_from_proto(started.message), started.stop
    replied = await stub.Reply(
        user_sim_pb2.ReplyRequest(
            config=cfg,
            instruction=instruction,
            episode=context,
            conversation=[message_to_proto(m) for m in conversation],
        ),
        timeout=TIMEOUT,
    )
    return message_from_proto(replied.message), replied.stop


@pytest.mark.slow
async def test_every_recorded_request_is_sent_as_taubench_sent_it(
    stub: user_sim_pb2_grpc.UserSimServiceStub,
    fake: FakeOpenAI,
    records: list[Record],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("TAUMESH_LLM_MAX_ATTEMPTS", "2")
    compared = 0
    for (strategy, domain, task), played in phases(records):
        instruction = played[0]["instruction"]
        context, cfg = episode(domain, task), config(strategy, fake)
        conversation: list[ChatMessage] = []
        for (phase, step), group in groupby(played, key=lambda r: (r["phase"], r["step"])):
            calls = list(group)
            where = f"{strategy} {domain} {task} {phase} {step}"
            if phase == "step":
                conversation.append(ChatMessage(role="assistant", content=calls[0]["agent_message"]))
            fake.reset(replaying([r["fake_reply"] for r in calls]))
            if calls[0]["error"]:  # τ-bench raised: the same request again, then UNAVAILABLE
                with pytest.raises(grpc.aio.AioRpcError) as failed:
                    await ask(stub, cfg, instruction, context, conversation)
                assert failed.value.code() == grpc.StatusCode.UNAVAILABLE, where
                sent = [served.request for served in fake.served]
                expected = [r["request_body"] for r in calls] + [calls[-1]["request_body"]]
                assert [in_order(r) for r in sent] == [in_order(r) for r in expected], where
                compared += len(calls)
                break  # τ-bench's run ends the task here
            message, stop = await ask(stub, cfg, instruction, context, conversation)
            sent = [served.request for served in fake.served]
            assert [served.path for served in fake.served] == ["/v1/chat/completions"] * len(sent), where
            assert len(sent) == len(calls), where
            for request, record in zip(sent, calls, strict=True):
                assert in_order(request) == in_order(record["request_body"]), f"{where} call {record['call_index']}"
            assert message.content == calls[0]["returned"], where
            assert stop == ("###STOP###" in message.content), where
            compared += len(calls)
            conversation.append(message)
    # every request but the 10 made after τ-bench's three parse errors (react twice, reflection once)
    assert compared == len([r for r in records if r["phase"] != "construct"]) - 10 == 158


def test_the_import_records_the_prompts_in_the_manifest(imported: Path) -> None:
    manifest = json.loads((imported / MANIFEST_NAME).read_text(encoding="utf-8"))
    assert USER_PROMPTS_FILE in manifest["files"]
    prompts = json.loads((imported / USER_PROMPTS_FILE).read_text(encoding="utf-8"))
    assert set(prompts["system"]) == {"llm", "react"} and "{transcript}" in prompts["verify"]


def test_the_verdict_is_read_as_taubench_reads_it() -> None:
    for verdict in ("true", "True.", "TRUE", "not true", "The response is true"):
        assert accepts(verdict), verdict
    for verdict in ("false", "False.", "no", ""):
        assert not accepts(verdict), verdict
    assert litellm_message_text("I'm here.") == (
        "Message(content=\"I'm here.\", role='assistant', tool_calls=None, function_call=None, "
        "provider_specific_fields=None)"
    )


async def test_not_true_accepts_the_draft(stub: user_sim_pb2_grpc.UserSimServiceStub, fake: FakeOpenAI) -> None:
    fake.reset(replaying(["Hello, I need a refund.", "This is not true."]))
    message, _ = await ask(stub, config("verify", fake), "You want a refund.", episode("retail", 0), [])
    assert message.content == "Hello, I need a refund." and message.model_turns is None
    assert len(fake.served) == 2


async def test_an_unparsable_react_reply_is_drawn_again(
    stub: user_sim_pb2_grpc.UserSimServiceStub, fake: FakeOpenAI
) -> None:
    replies = ["I just want my order cancelled.", "Thought:\nAsk.\nUser Response:\nCancel my order."]
    fake.reset(replaying(replies))
    message, _ = await ask(stub, config("react", fake), "You want a refund.", episode("retail", 0), [])
    assert message.content == "Ask.\nUser Response:\nCancel my order." and message.reasoning == replies[1]
    assert len(fake.served) == 2 and fake.served[0].request == fake.served[1].request


async def test_verify_keeps_no_draft_every_check_rejected(
    stub: user_sim_pb2_grpc.UserSimServiceStub, fake: FakeOpenAI
) -> None:
    """The last draft is sent but not kept: the next request has the agent's two messages in a row."""
    fake.reset(lambda request, ordinal: text("false" if ordinal % 2 else f"draft {ordinal // 2}"))
    cfg, context = config("verify", fake), episode("retail", 0)
    message, _ = await ask(stub, cfg, "You want a refund.", context, [])
    assert message.content == "draft 2" and message.model_turns == [] and len(fake.served) == 6
    fake.reset(replaying(["Yes.", "true"]))
    conversation = [message, ChatMessage(role="assistant", content="Your email?")]
    await ask(stub, cfg, "You want a refund.", context, conversation)
    roles = [m["role"] for m in fake.served[0].request["messages"]]
    assert roles == ["system", "user", "user"]


async def test_without_imported_prompts_the_error_names_the_import(
    fake: FakeOpenAI, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TAUMESH_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("TAUMESH_DATA_DIR", raising=False)
    server = await start_server([user_sim_service(data_dir=tmp_path / "v1")])
    try:
        async with grpc.aio.insecure_channel(server.address) as channel:
            with pytest.raises(grpc.aio.AioRpcError) as failed:
                await ask(
                    user_sim_pb2_grpc.UserSimServiceStub(channel),
                    config("llm", fake),
                    "You want a refund.",
                    episode("retail", 0),
                    [],
                )
    finally:
        await server.stop(grace=1.0)
    assert failed.value.code() == grpc.StatusCode.FAILED_PRECONDITION
    assert "taumesh data import taubench" in (failed.value.details() or "")
    assert error_reason(failed.value) == "USER_PROMPTS_MISSING"
    assert not fake.served


def test_taumesh_prompts_keep_their_own_names() -> None:
    from taumesh.services.user_sim.strategies import STRATEGIES

    for name in ("llm", "react", "verify", "reflection"):
        assert {name, f"{name}-taumesh"} <= set(STRATEGIES)
