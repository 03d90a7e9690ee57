"""The lean model-call path: litellm's HTTP handler (not the OpenAI SDK) and per-call work done once per process."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from typing import Any

import pytest
from litellm.integrations.custom_logger import CustomLogger
from litellm.litellm_core_utils.litellm_logging import Logging

from taumesh.llm import complete
from taumesh.llm._litellm import OPENAI_HTTP_HANDLER, litellm
from taumesh.llm.access import ALLOWED_API_BASES_ENV, OperatorGrants, current_grants, granted
from taumesh.llm.client import Completion
from taumesh.models import ChatMessage, ModelSettings, ToolCall, ToolSchema
from tests.helpers.fake_model import FakeOpenAI, Served, text, tool_call
from tests.helpers.paths import PROJECT_ROOT

TOOLS = [
    ToolSchema(
        name="get_order_details",
        description="An order's status and items.",
        parameters={"type": "object", "properties": {"order_id": {"type": "string"}}, "required": ["order_id"]},
    )
]
CONVERSATION = [
    ChatMessage(role="system", content="Help the customer."),
    ChatMessage(role="user", content="Where is order #W1?"),
    ChatMessage(role="assistant", content="", tool_calls=[ToolCall(id="c1", name="get_order_details", arguments="{}")]),
    ChatMessage(role="tool", content='{"error": "order_id missing"}', tool_call_id="c1", name="get_order_details"),
]


async def _ask(fake: FakeOpenAI) -> tuple[Served, Completion]:
    fake.reset(tool_call("get_order_details", {"order_id": "#W1"}, 900, 12))
    settings = ModelSettings(model="gpt-4o", provider="openai", api_base=fake.url, seed=7)
    done = await complete(settings, CONVERSATION, TOOLS)
    [served] = fake.completions()
    return served, done


def _without_call_ids(done: Completion) -> dict[str, object]:
    return done.model_dump(exclude={"message": {"tool_calls": {"__all__": {"id"}}}})


async def test_the_default_path_is_litellms_handler_with_the_sdks_request_and_result(
    fake: FakeOpenAI, monkeypatch: pytest.MonkeyPatch
) -> None:
    lean, lean_done = await _ask(fake)
    assert "x-stainless-lang" not in lean.headers  # the OpenAI SDK was not in the path
    monkeypatch.setenv(OPENAI_HTTP_HANDLER, "false")
    sdk, sdk_done = await _ask(fake)
    assert sdk.headers.get("x-stainless-lang") == "python"  # the switch brings the SDK back
    assert lean.request == sdk.request and lean.path == sdk.path
    assert lean.headers["authorization"] == sdk.headers["authorization"]
    assert _without_call_ids(lean_done) == _without_call_ids(sdk_done)  # the fake names each call afresh
    priced = sum(litellm.cost_per_token(model="gpt-4o", prompt_tokens=900, completion_tokens=12))
    assert lean_done.usage.cost_usd == pytest.approx(priced) and priced > 0
    assert lean_done.message.tool_calls[0].arguments == '{"order_id": "#W1"}'


class _Listener(CustomLogger):
    """A litellm callback: it hears each call's success with litellm's price."""

    def __init__(self) -> None:
        super().__init__()
        self.costs: list[float] = []

    async def async_log_success_event(
        self, kwargs: dict[str, Any], response_obj: object, start_time: object, end_time: object
    ) -> None:
        self.costs.append(float(kwargs["response_cost"]))


async def test_litellms_success_logging_runs_only_when_a_callback_listens(
    fake: FakeOpenAI, monkeypatch: pytest.MonkeyPatch
) -> None:
    handled: list[Logging] = []
    stock = Logging.async_success_handler

    async def counted(self: Logging, *args: Any, **kwargs: Any) -> None:
        handled.append(self)
        await stock(self, *args, **kwargs)

    monkeypatch.setattr(Logging, "async_success_handler", counted)
    for name in ("callbacks", "success_callback", "_async_success_callback"):  # litellm moves callbacks between them
        monkeypatch.setattr(litellm, name, [])
    _, unheard = await _ask(fake)
    await asyncio.sleep(0.1)  # litellm runs its handler as a task of its own
    assert handled == [] and unheard.usage.cost_usd > 0  # priced all the same: the response's own hidden params
    listener = _Listener()
    litellm.callbacks = [listener]
    _, heard = await _ask(fake)
    for _ in range(100):
        if listener.costs:
            break
        await asyncio.sleep(0.02)
    assert len(handled) == 1 and listener.costs == [pytest.approx(heard.usage.cost_usd)]


def test_grants_built_once_per_environment_still_follow_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(ALLOWED_API_BASES_ENV, "http://127.0.0.1:1/v1")
    first = current_grants()
    assert current_grants() is first  # not rebuilt on every model call
    monkeypatch.setenv(ALLOWED_API_BASES_ENV, "http://127.0.0.1:2/v1/")
    assert current_grants().api_bases == {"http://127.0.0.1:2/v1"}
    with granted(OperatorGrants.of(api_bases=["http://127.0.0.1:3/v1"])):
        assert current_grants().api_bases == {"http://127.0.0.1:2/v1", "http://127.0.0.1:3/v1"}
    assert current_grants().api_bases == {"http://127.0.0.1:2/v1"}


async def test_calls_share_one_http_connection(fake: FakeOpenAI) -> None:
    fake.reset(text("ok", prompt_tokens=3, completion_tokens=2))
    settings = ModelSettings(model="openai/m", api_base=fake.url)
    for _ in range(12):
        done = await complete(settings, [{"role": "user", "content": "hi"}])
        assert done.message.content == "ok"
    assert len({served.peer_port for served in fake.served}) == 1  # litellm's HTTP client is kept and reused


def test_a_call_with_tools_skips_litellms_mcp_gateway(fake: FakeOpenAI) -> None:
    """A fresh process's first call with tools imports neither the MCP SDK nor litellm's proxy MCP server (about
    a second, under the import lock, that the first burst of a run's calls waited on), and sends the same body."""
    probe = (
        "import asyncio, json, sys\n"
        "from taumesh.llm import complete\n"
        "from taumesh.models import ModelSettings\n"
        "from tests.llm.test_lean_path import CONVERSATION, TOOLS\n"
        f"settings = ModelSettings(model='gpt-4o', provider='openai', api_base={fake.url!r}, seed=7)\n"
        "asyncio.run(complete(settings, CONVERSATION, TOOLS))\n"
        "heavy = ('litellm_proxy_mcp_handler', 'chat_completions_handler')\n"
        "print(json.dumps(sorted(m for m in sys.modules if m == 'mcp' or m.rpartition('.')[2] in heavy)))\n"
    )
    fake.reset(tool_call("get_order_details", {"order_id": "#W1"}, 900, 12))
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, timeout=120, cwd=PROJECT_ROOT, env=os.environ
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert json.loads(done.stdout.splitlines()[-1]) == []
    [served] = fake.completions()
    assert "_skip_mcp_handler" not in served.request and served.request["tools"][0]["type"] == "function"
