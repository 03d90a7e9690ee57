"""The LLM user with tools of its own (τ²'s telecom, dual control), through the gRPC services and litellm's HTTP path.

A scripted model plays the customer of the telecom task ``airplane_mode_on``: asked about its status bar, it calls
``check_status_bar``; asked to turn airplane mode off, it calls ``toggle_airplane_mode``; then it reports and stops.
The scripted agent looks the customer up with a tool of its own first, which the user must never see.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from taumesh.data import CACHE_DIR_ENV, DatasetMissing, require
from taumesh.domains.tau2._plugin import GREETING as TAU2_GREETING
from taumesh.models import (
    AgentSettings,
    ChatMessage,
    EpisodeContext,
    ModelSettings,
    TaskRef,
    ToolCall,
    ToolSchema,
    UserSettings,
)
from taumesh.orchestrator.benchmark import run_benchmark
from taumesh.orchestrator.config import RunConfig
from taumesh.rpc.errors import FailedPrecondition
from taumesh.services.user_sim.strategies.base import UserTurn
from taumesh.services.user_sim.strategies.llm import LlmUser, user_calls
from taumesh.services.user_sim.strategies.prompts import GREETING, persona_prompt
from taumesh.services.user_sim.strategies.react import ReactUser
from taumesh.services.user_sim.strategies.verify import VerifyUser
from tests.helpers.fake_model import FakeOpenAI, Reply, text, tool_call
from tests.helpers.tau2 import tau2_domain
from tests.llm.scripts import AGENT_MODEL, STOP, USER_MODEL

TASK_ID = "[service_issue]airplane_mode_on[PERSONA:None]"
SPLIT = "small"
MOCK_TASK_ID = "create_task_1"
AGENT_TOOL = "get_customer_by_phone"
AGENT_LINES = (
    "Could you look at the status bar of your phone and tell me what it shows?",
    "Please turn airplane mode off.",
    "Glad it works again. Is there anything else?",
)
OPENING = "My phone has been showing No Service for hours."
REPORTS = {
    "check_status_bar": "The status bar shows airplane mode is on.",
    "toggle_airplane_mode": "Done, I have signal again.",
}


@pytest.fixture(scope="module")
def tau2_root() -> Path:
    """The fetched τ² data (skips when ``taumesh data fetch tau2`` has not run)."""
    try:
        return require("tau2")
    except DatasetMissing as exc:
        pytest.skip(f"τ² data not fetched: {exc}")


def guidelines(root: Path, name: str) -> str:
    return (root / "data" / "user_simulator" / name).read_text(encoding="utf-8")


def agent_script(request: dict[str, Any]) -> Reply:
    """Look the customer up (its own tool), then one line per customer message."""
    messages = request["messages"]
    said = sum(1 for m in messages if m["role"] == "user")
    if not any(m["role"] == "tool" for m in messages):
        return tool_call(AGENT_TOOL, {"phone_number": "555-123-2002"})
    return text(AGENT_LINES[min(said, len(AGENT_LINES)) - 1])


def called_tool(messages: list[dict[str, Any]], call_id: str) -> str:
    """The name of the tool call ``call_id`` among the model's own (assistant) turns."""
    for message in messages:
        for call in message.get("tool_calls") or []:
            if call["id"] == call_id:
                return str(call["function"]["name"])
    raise AssertionError(f"no tool call {call_id!r} before its result")


def user_script(request: dict[str, Any]) -> Reply:
    """The customer: opens, checks or toggles on its phone when asked, reports what its tools said, stops."""
    messages = request["messages"]
    last = messages[-1]
    if len(messages) == 2:  # system prompt and the agent's greeting
        return text(OPENING)
    if last["role"] == "tool":
        return text(REPORTS[called_tool(messages, last["tool_call_id"])])
    asked = str(last["content"]).lower()
    if "status bar" in asked:
        return tool_call("check_status_bar", {})
    if "airplane mode" in asked:
        return tool_call("toggle_airplane_mode", {})
    return text(STOP)


def script(request: dict[str, Any], ordinal: int) -> Reply:
    return agent_script(request) if request["model"] == AGENT_MODEL else user_script(request)


def tau2_config(fake: FakeOpenAI, log_dir: Path, env: str, split: str, task_id: str) -> RunConfig:
    """A run of one τ² task whose agent (tool-calling) and user (llm) models are served by ``fake``."""
    position = [task.id for task in tau2_domain(env.removeprefix("tau2-")).tasks(split)].index(task_id)
    return RunConfig(
        env=env,
        task_split=split,
        task_ids=[position],
        agent=AgentSettings(
            strategy="tool-calling", model=ModelSettings(model=AGENT_MODEL, provider="openai", api_base=fake.url)
        ),
        user=UserSettings(strategy="llm", model=ModelSettings(model=USER_MODEL, provider="openai", api_base=fake.url)),
        log_dir=log_dir,
        show_progress=False,
    )


def tool_results(request: dict[str, Any]) -> list[dict[str, Any]]:
    return [m for m in request["messages"] if m["role"] == "tool"]


async def test_llm_user_calls_its_own_tools(tau2_root: Path, fake: FakeOpenAI, tmp_path: Path) -> None:
    fake.reset(script)
    summary = await run_benchmark(tau2_config(fake, tmp_path, "tau2-telecom", SPLIT, TASK_ID))
    task = next(t for t in tau2_domain("telecom").tasks(SPLIT) if t.id == TASK_ID)
    scenario = f"\n\n<scenario>\n{task.instruction}\n</scenario>"
    # this episode's user calls: the process's one fake server may still take a call an earlier test left in flight
    users = [s.request for s in fake.completions(USER_MODEL) if s.request["messages"][0]["content"].endswith(scenario)]
    agents = [s.request for s in fake.completions(AGENT_MODEL)]

    # The phone's state changed in the env session: τ²'s assertions (airplane mode off, service back) pass.
    (result,) = summary.results
    assert result.reward == 1.0, result.info
    assert result.info["termination"] == "user_stop"
    assertions = [c for c in result.info["reward_checks"] if c["basis"] == "ENV_ASSERTION"]
    assert assertions and all(c["passed"] for c in assertions)

    # The prompts: τ²'s tool-using guidelines, the task's instructions as the scenario, τ²'s greeting.
    system = users[0]["messages"][0]
    assert system["role"] == "system"
    assert system["content"].startswith(guidelines(tau2_root, "simulation_guidelines_tools.md"))
    assert system["content"].endswith(f"\n\n<scenario>\n{task.instruction}\n</scenario>")
    assert users[0]["messages"][1] == {"role": "user", "content": TAU2_GREETING}

    # The model is offered exactly the user's tools, on every call.
    expected_tools = tau2_domain("telecom").user_tool_schemas
    assert all(request["tools"] == expected_tools for request in users)

    # Each user tool ran in the env for the user, and its result came back to the user's next prompt, answering the
    # model's own call (same id); the agent's own tool call and its result never reach the user.
    after_check, after_toggle = (r for r in users if r["messages"][-1]["role"] == "tool")
    checked, toggled = tool_results(after_check)[-1], tool_results(after_toggle)[-1]
    assert called_tool(after_check["messages"], checked["tool_call_id"]) == "check_status_bar"
    assert called_tool(after_toggle["messages"], toggled["tool_call_id"]) == "toggle_airplane_mode"
    assert checked["content"].startswith("Status Bar: ") and "Airplane Mode" in checked["content"]
    assert toggled["content"].startswith("Airplane Mode is now OFF")
    final_prompt = users[-1]["messages"]
    assert [m["role"] for m in final_prompt] == [
        "system", "user",  # guidelines, greeting
        "assistant", "user",  # opening; the agent asks about the status bar
        "assistant", "tool", "assistant", "user",  # check_status_bar, its result, the report; next request
        "assistant", "tool", "assistant", "user",  # toggle_airplane_mode, its result, the report; the closing
    ]  # fmt: skip
    (looked_up,) = tool_results(agents[-1])
    assert "C1001" in looked_up["content"]  # the agent's own result: John Smith's customer record
    assert AGENT_TOOL not in str(users) and "C1001" not in str(users)

    # The agent never sees the user's tool calls nor their results: only what the user said.
    agent_view = agents[-1]["messages"]
    assert [m["content"] for m in agent_view if m["role"] == "user"] == [OPENING, *REPORTS.values()]
    assert not any(call["function"]["name"] in REPORTS for m in agent_view for call in m.get("tool_calls") or [])


def closing_user(request: dict[str, Any]) -> Reply:
    """Opens with a line, stops at the agent's first answer."""
    return text("I need a task created." if len(request["messages"]) == 2 else STOP)


async def test_llm_user_without_tools_in_a_tau2_domain(tau2_root: Path, fake: FakeOpenAI, tmp_path: Path) -> None:
    fake.reset(lambda request, n: text("Done.") if request["model"] == AGENT_MODEL else closing_user(request))
    summary = await run_benchmark(tau2_config(fake, tmp_path, "tau2-mock", "base", MOCK_TASK_ID))
    assert [r.info["termination"] for r in summary.results] == ["user_stop"]
    users = [s.request for s in fake.completions(USER_MODEL)]
    assert len(users) == 2
    instruction = next(t.instruction for t in tau2_domain("mock").tasks("base") if t.id == MOCK_TASK_ID)
    plain = guidelines(tau2_root, "simulation_guidelines.md")
    for request in users:
        assert request["messages"][0]["content"] == f"{plain}\n\n<scenario>\n{instruction}\n</scenario>"
        assert request["messages"][1]["content"] == TAU2_GREETING
        assert "tools" not in request


def telecom_turn(tools: bool = True) -> UserTurn:
    schemas = tau2_domain("telecom").user_tool_schemas if tools else []
    return UserTurn(
        instruction="My phone has no service.",
        settings=UserSettings(strategy="llm", model=ModelSettings(model=USER_MODEL, provider="openai")),
        episode=EpisodeContext(task=TaskRef(domain="tau2-telecom", split=SPLIT, task_id=TASK_ID)),
        tools=[ToolSchema(name=s["function"]["name"], parameters=s["function"]["parameters"]) for s in schemas],
    )


async def test_missing_guidelines_name_the_fetch(
    tau2_root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    turn = telecom_turn()  # read while the data is there
    monkeypatch.setenv(CACHE_DIR_ENV, str(tmp_path))
    with pytest.raises(FailedPrecondition, match="taumesh data fetch tau2") as raised:
        await LlmUser().reply(turn)
    assert raised.value.reason == "USER_GUIDELINES_MISSING"


def test_tau_bench_strategies_keep_their_prompt_and_no_tools(tau2_root: Path) -> None:
    """react's layout and verify's review are τ-bench's: a subclass plays τ²'s user only when it declares it."""
    turn = telecom_turn()
    assert ReactUser().prompt(turn)[:2] == [
        {"role": "system", "content": persona_prompt(turn.instruction, react=True)},
        {"role": "user", "content": GREETING},
    ]
    assert not VerifyUser().plays_tau2(turn)
    assert LlmUser().plays_tau2(turn)

    class Tau2Ready(LlmUser):
        follows_tau2 = True

    assert Tau2Ready().plays_tau2(telecom_turn(tools=False))  # a τ² domain, even without tools


def test_user_tool_calls_without_ids_get_unique_ones() -> None:
    earlier = [ChatMessage(role="user", tool_calls=[ToolCall(id="call_a", name="check_status_bar", requestor="user")])]
    calls = user_calls([ToolCall(id="", name="toggle_data"), ToolCall(id="call_b", name="toggle_wifi")], earlier)
    assert [(c.id, c.requestor) for c in calls] == [("user_call_1", "user"), ("call_b", "user")]
