"""The ``a2a`` agent strategy plays τ-bench v1 retail against purple A2A agents started as separate processes.

Everything goes through the real path: taumesh's services on loopback gRPC, the agent service as an a2a-sdk
client, the purple agent's JSON-RPC or gRPC binding. Agent URLs are allowed as agents (``agent_urls``), and so is
every URL of a card that is dialed.
"""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest

from taumesh.llm.access import OperatorGrants, granted
from taumesh.models import AgentSettings, ModelSettings, UserSettings
from taumesh.orchestrator.benchmark import run_benchmark
from taumesh.orchestrator.config import RunConfig
from taumesh.orchestrator.run.runner import RunSummary
from tests.helpers.a2a import StartAgent
from tests.helpers.cli import explain_result, invoke, load_json, results_path
from tests.helpers.paths import V1_DATA
from tests.security.canary import Listener, json_answer


def card_urls(url: str) -> list[str]:
    """Every interface URL the agent's card names."""
    card = httpx.get(f"{url}/.well-known/agent-card.json", timeout=10).json()
    return [interface["url"] for interface in card["supportedInterfaces"]]


async def play(
    url: str, data_dir: Path, log_dir: Path, transport: str, task_ids: list[int] | None, also: list[str] | None = None
) -> RunSummary:
    config = RunConfig(
        env="retail",
        task_split="test",
        task_ids=task_ids,
        agent=AgentSettings(strategy="a2a", model=ModelSettings(model=transport, api_base=url)),
        user=UserSettings(strategy="scripted"),
        max_concurrency=8,
        data_dir=data_dir,
        log_dir=log_dir,
        show_progress=False,
    )
    with granted(OperatorGrants.of(agent_urls=[url, *(also or [])])):  # as `taumesh run` allows its --api-base
        return await run_benchmark(config)


def assert_all_solved(summary: RunSummary, count: int) -> None:
    assert len(summary.results) == count
    assert not summary.errors, [r.info.get("error") for r in summary.errors]
    failed = [
        (r.task_id, r.info.get("termination"), r.info.get("agent_gave_up")) for r in summary.results if r.reward != 1.0
    ]
    assert not failed
    assert summary.pass_hat_k[1] == 1.0


@pytest.mark.slow
async def test_text_agent_solves_all_of_retail_test(start_agent: StartAgent, v1_data_dir: Path, tmp_path: Path) -> None:
    """115/115 over JSON-RPC (about 15 s here, so in the default tier)."""
    url = start_agent("text")
    summary = await play(url, v1_data_dir, tmp_path, "jsonrpc", None)
    assert_all_solved(summary, 115)
    traj = summary.results[0].traj
    calls = [m for m in traj if m["role"] == "assistant" and m.get("tool_calls")]
    assert calls and calls[0]["tool_calls"][0]["function"]["name"] == "find_user_id_by_name_zip"


@pytest.mark.slow
async def test_text_agent_over_grpc(start_agent: StartAgent, v1_data_dir: Path, tmp_path: Path) -> None:
    url = start_agent("text", grpc=True)
    grpc_target = next(u for u in card_urls(url) if not u.startswith("http"))
    summary = await play(url, v1_data_dir, tmp_path, "grpc", list(range(5)), also=[grpc_target])
    assert_all_solved(summary, 5)


@pytest.mark.slow
async def test_a_card_interface_the_operator_did_not_allow_is_never_dialed(
    start_agent: StartAgent, v1_data_dir: Path, tmp_path: Path
) -> None:
    """An allowed agent's card names an attacker first: the episodes go to the allowed interface, the attacker
    hears nothing; a card naming only the attacker (or a gRPC target not allowed) is refused, PERMISSION_DENIED."""
    gold = start_agent("text")

    gold_card = httpx.get(f"{gold}/.well-known/agent-card.json", timeout=10).json()

    def card(*urls: str) -> dict[str, object]:  # the gold agent's card, naming other interfaces
        interfaces = [{"url": u, "protocolBinding": "JSONRPC", "protocolVersion": "1.0"} for u in urls]
        return {**gold_card, "supportedInterfaces": interfaces}

    with Listener() as attacker, Listener() as relay:
        relay.answer = json_answer(card(attacker.url + "/", gold + "/"))
        summary = await play(relay.url, v1_data_dir, tmp_path, "a2a", [0, 1], also=[gold])
        assert_all_solved(summary, 2)
        assert attacker.seen == [], "an interface the operator did not allow was dialed"

        relay.answer = json_answer(card(attacker.url))
        summary = await play(relay.url, v1_data_dir, tmp_path / "only", "a2a", [0])
        [error] = summary.errors
        assert "PERMISSION_DENIED: the agent card of" in str(error.info["error"]), error.info
        assert "interface this server's operator allowed (not allowed: JSONRPC" in str(error.info["error"])
        assert attacker.seen == []
    grpc_agent = start_agent("text", grpc=True)
    summary = await play(grpc_agent, v1_data_dir, tmp_path / "grpc", "grpc", [0])  # its gRPC target not allowed
    assert len(summary.errors) == 1 and "names no GRPC interface" in str(summary.errors[0].info["error"])


@pytest.mark.slow
def test_taumesh_run_allows_its_own_a2a_agent_url(start_agent: StartAgent, tmp_path: Path) -> None:
    """``taumesh run --agent-strategy a2a --api-base URL``: the URL is the run's own agent, with no list set."""
    url = start_agent("text")
    result = invoke(
        "run", "--env", "retail", "--task-split", "test", "--task-ids", "0", "--data-dir", V1_DATA,
        "--agent-strategy", "a2a", "--model", "jsonrpc", "--api-base", url, "--user-strategy", "scripted",
        "--quiet", "--log-dir", tmp_path,
    )  # fmt: skip
    assert result.exit_code == 0, explain_result(result)
    [entry] = load_json(results_path(tmp_path))
    assert entry["reward"] == 1.0, entry["info"]


@pytest.mark.slow
async def test_structured_data_agent(start_agent: StartAgent, v1_data_dir: Path, tmp_path: Path) -> None:
    """The same 115 tasks, answered through tasks whose artifacts hold ``{"tool_calls": [...]}`` data parts."""
    url = start_agent("data", grpc=True)
    summary = await play(url, v1_data_dir, tmp_path, "a2a", None)
    assert_all_solved(summary, 115)
    first_call = next(m for m in summary.results[0].traj if m.get("tool_calls"))["tool_calls"][0]
    assert first_call["id"] == "gold-0"  # the agent's own call id is kept


@pytest.mark.slow
async def test_garbage_once_is_the_agents_failure(start_agent: StartAgent, v1_data_dir: Path, tmp_path: Path) -> None:
    url = start_agent("text", garbage_once=True)
    summary = await play(url, v1_data_dir, tmp_path, "jsonrpc", list(range(5)))
    assert not summary.errors  # never an infrastructure error
    zero = [r for r in summary.results if r.reward == 0.0]
    assert len(zero) == 1 and sum(r.reward == 1.0 for r in summary.results) == 4
    info = zero[0].info
    assert info["termination"] == "agent_gave_up"
    assert info["agent_gave_up"].startswith("unparsable A2A reply: <json> block is not JSON")


@pytest.mark.slow
async def test_agent_url_the_operator_did_not_allow_is_refused(
    start_agent: StartAgent, v1_data_dir: Path, tmp_path: Path
) -> None:
    url = start_agent("text")
    config = RunConfig(
        env="retail",
        task_split="test",
        task_ids=[0],
        agent=AgentSettings(strategy="a2a", model=ModelSettings(model="jsonrpc", api_base=url)),
        user=UserSettings(strategy="scripted"),
        data_dir=v1_data_dir,
        log_dir=tmp_path,
        show_progress=False,
    )
    summary = await run_benchmark(config)  # no grant: the agent service must not connect
    assert len(summary.errors) == 1
    error = str(summary.errors[0].info["error"])
    assert "PERMISSION_DENIED" in error and "TAUMESH_ALLOWED_AGENT_URLS" in error, error


async def test_unreachable_agent_is_an_infrastructure_error(v1_data_dir: Path, tmp_path: Path) -> None:
    from tests.helpers.processes import free_port

    url = f"http://127.0.0.1:{free_port()}"
    config = RunConfig(
        env="retail",
        task_split="test",
        task_ids=[0],
        agent=AgentSettings(strategy="a2a", model=ModelSettings(model="jsonrpc", api_base=url)),
        user=UserSettings(strategy="scripted"),
        data_dir=v1_data_dir,
        log_dir=tmp_path,
        show_progress=False,
        max_episode_attempts=1,
    )
    with granted(OperatorGrants.of(agent_urls=[url])):
        summary = await run_benchmark(config)
    assert len(summary.errors) == 1 and summary.errors[0].reward is None
    error = summary.errors[0].info["error"]
    assert "UNAVAILABLE" in str(error), error
