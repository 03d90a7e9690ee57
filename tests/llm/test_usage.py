"""Token and cost totals in the results equal what the server reported, per episode (agent, user) and per run."""

from __future__ import annotations

import json
from pathlib import Path

from rich.console import Console

from taumesh.llm._litellm import litellm
from taumesh.models import Usage
from taumesh.orchestrator.benchmark import run_benchmark
from taumesh.orchestrator.run.console import print_summary
from tests.helpers.fake_model import FakeOpenAI, Served
from tests.helpers.llm import run_config
from tests.llm.scripts import AGENT_MODEL, USER_MODEL, GoldAgent, Router, ScriptedLlmUser, TaskIndex

TASKS = [0, 10, 19, 24]


def reported(served: list[Served], model: str) -> Usage:
    """What the server reported for ``served``, priced by litellm's table (as a provider's invoice would be)."""
    total = Usage()
    for s in served:
        prompt, completion = s.reply.prompt_tokens, s.reply.completion_tokens
        cost = sum(litellm.cost_per_token(model=model, prompt_tokens=prompt, completion_tokens=completion))
        total += Usage(prompt_tokens=prompt, completion_tokens=completion, cost_usd=cost, calls=1)
    return total


async def test_cost_and_tokens_add_up(
    fake: FakeOpenAI, task_index: TaskIndex, v1_data_dir: Path, tmp_path: Path
) -> None:
    fake.reset(Router(GoldAgent(task_index), ScriptedLlmUser(task_index)))
    summary = await run_benchmark(run_config(fake, v1_data_dir, tmp_path, TASKS, user="llm-taumesh"))
    assert not summary.errors
    written = {r["task_id"]: r for r in json.loads(summary.results_path.read_text())}
    run_total = Usage()
    for task_id in TASKS:
        info = written[task_id]["info"]
        for key, model in (("agent_usage", AGENT_MODEL), ("user_usage", USER_MODEL)):
            served = [s for s in fake.completions(model) if task_index.of_request(s.request) == task_id]
            expected = reported(served, model)
            recorded = Usage.model_validate(info[key])
            assert recorded.calls == expected.calls > 0
            assert (recorded.prompt_tokens, recorded.completion_tokens) == (
                expected.prompt_tokens,
                expected.completion_tokens,
            )
            assert abs(recorded.cost_usd - expected.cost_usd) < 1e-12 and recorded.cost_usd > 0
            run_total += recorded
        assert info["user_cost"] == info["user_usage"]["cost_usd"]  # τ-bench's field
    everything = reported(fake.completions(AGENT_MODEL), AGENT_MODEL) + reported(
        fake.completions(USER_MODEL), USER_MODEL
    )
    assert (run_total.prompt_tokens, run_total.completion_tokens, run_total.calls) == (
        everything.prompt_tokens,
        everything.completion_tokens,
        everything.calls,
    )
    assert abs(run_total.cost_usd - everything.cost_usd) < 1e-12
    # gpt-4o-mini is priced lower than gpt-4o: the user's and the agent's costs were priced separately
    agent = Usage.model_validate(written[0]["info"]["agent_usage"])
    user = Usage.model_validate(written[0]["info"]["user_usage"])
    assert agent.cost_usd / (agent.prompt_tokens + agent.completion_tokens) > user.cost_usd / (
        user.prompt_tokens + user.completion_tokens
    )

    console = Console(record=True, width=200)
    print_summary(summary, console)
    shown = console.export_text()
    agent_total = sum((Usage.model_validate(r["info"]["agent_usage"]) for r in written.values()), Usage())
    assert f"agent: {agent_total.prompt_tokens}+{agent_total.completion_tokens} tokens" in shown
    assert f"${agent_total.cost_usd:.4f}" in shown
