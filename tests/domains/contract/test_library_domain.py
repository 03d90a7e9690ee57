"""The contract's must-show: a domain written in the tests with only the public API, using every hook, played end
to end over gRPC (the four services, the oracle agent, the scripted user) and scoring 1.0; each hook broken in a
variant of it changes the outcome, so the test can fail.

The domains are the folders of ``domains/`` (found through ``TAUMESH_DOMAIN_PATH``): ``library`` and its variants,
each breaking one hook.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from taumesh.domains import DOMAIN_PATH_ENV, Catalog
from taumesh.models import AgentSettings, UserSettings
from taumesh.orchestrator.benchmark import run_benchmark
from taumesh.orchestrator.config import RunConfig
from taumesh.orchestrator.run.runner import RunSummary

DOMAINS = Path(__file__).parent / "domains"
LEND, ESCALATE = "lend-held-book", "damaged-book"
"""The library's two tasks: a lend that continues a conversation, a damaged book escalated."""


@pytest.fixture(autouse=True)
def domain_path(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(DOMAIN_PATH_ENV, str(DOMAINS))


async def play(env: str, tmp_path: Path, output_format: str = "taubench", max_steps: int = 30) -> RunSummary:
    config = RunConfig(
        env=env,
        task_split="test",
        agent=AgentSettings(strategy="oracle"),
        user=UserSettings(strategy="scripted"),
        log_dir=tmp_path,
        output_format=output_format,
        max_steps=max_steps,
        show_progress=False,
    )
    summary = await run_benchmark(config)
    assert summary.errors == [], summary.errors
    return summary


def by_task(summary: RunSummary) -> dict[str, Any]:
    return {str(result.task_id): result for result in summary.results}


def checks(result: Any) -> dict[str, bool]:
    return {check["basis"]: check["passed"] for check in result.info["reward_checks"]}


async def test_the_library_scores_1_with_every_hook(tmp_path: Path) -> None:
    summary = await play("library", tmp_path, output_format="both")
    assert summary.pass_hat_k == {1: 1.0}
    results = by_task(summary)
    lend, escalate = results[LEND], results[ESCALATE]
    # the message history was continued (its hold replayed), the user's own tool ran, the search read the documents
    assert lend.info["history_messages"] == 4
    (turn,) = lend.info["user_tool_turns"]
    assert [m["content"] for m in turn["messages"]] == ["", "Your card is active."]
    assert any(m["role"] == "tool" and m["content"].startswith("[doc-engine]") for m in lend.traj)
    # the domain's own check reports under its own name, through the scorer's gRPC answer, into the results
    assert lend.info["reward_basis"] == ["DB", "KNOWLEDGE", "COMMUNICATE"]
    assert checks(lend) == {"DB": True, "COMMUNICATE": True, "KNOWLEDGE": True}
    # a task naming a document has a policy of its own (task_policy), the other the desk's
    assert lend.traj[0]["role"] == "system" and lend.traj[0]["content"].endswith("Consult first: doc-engine\n")
    assert escalate.traj[0]["role"] == "system" and "Consult first:" not in escalate.traj[0]["content"]
    # the closing line comes from the policy; the member ends with the domain's own stop token
    assert lend.traj[-2]["content"].endswith("Thank you for visiting the library, goodbye.")
    assert lend.traj[-1] == {"role": "user", "content": "Bye! ###BYE###"}
    assert lend.info["termination"] == "user_stop"
    # the termination tool ends the other task
    assert escalate.info["termination"] == "terminate_tool"
    assert escalate.traj[-1]["name"] == "escalate_to_librarian"
    # τ²'s layout names the custom check in its breakdown too
    (document,) = tmp_path.glob("*.tau2.json")
    simulations = {s["task_id"]: s for s in json.loads(document.read_text(encoding="utf-8"))["simulations"]}
    assert simulations[LEND]["reward_info"]["reward_breakdown"] == {"DB": 1.0, "KNOWLEDGE": 1.0, "COMMUNICATE": 1.0}


def library_gold_hash(task_id: str) -> str:
    domain = Catalog(DOMAINS).get("library")
    return domain.spec.gold_hash(domain, domain.find_task("test", task_id))


async def test_without_the_user_tool_the_loan_is_refused(tmp_path: Path) -> None:
    lend = by_task(await play("library_no_user_tool", tmp_path))[LEND]
    (turn,) = lend.info["user_tool_turns"]
    assert turn["messages"][1]["content"] == "Unknown action activate_card"
    assert any(m["role"] == "tool" and "card of m1 is not active" in m["content"] for m in lend.traj)
    # the variant's own gold replays the same refusal: its state is not the library's gold
    assert lend.info["final_data_hash"] != library_gold_hash(LEND)


async def test_without_the_history_replayed_the_state_misses_the_hold(tmp_path: Path) -> None:
    lend = by_task(await play("library_no_history", tmp_path))[LEND]
    assert lend.reward == 0.0 and checks(lend) == {"DB": False, "COMMUNICATE": True, "KNOWLEDGE": True}


async def test_without_the_documents_the_custom_check_fails_the_episode(tmp_path: Path) -> None:
    lend = by_task(await play("library_no_documents", tmp_path))[LEND]
    assert lend.reward == 0.0 and checks(lend) == {"DB": True, "COMMUNICATE": True, "KNOWLEDGE": False}


async def test_without_the_termination_tool_escalating_does_not_end_the_episode(tmp_path: Path) -> None:
    escalate = by_task(await play("library_no_terminate", tmp_path))[ESCALATE]
    assert escalate.info["termination"] == "user_stop"
    assert escalate.traj[-1] == {"role": "user", "content": "Bye! ###BYE###"}


async def test_without_the_domains_stop_token_the_member_cannot_leave(tmp_path: Path) -> None:
    lend = by_task(await play("library_no_stop_token", tmp_path, max_steps=12))[LEND]
    assert lend.info["termination"] == "max_steps" and lend.reward == 0.0
