"""Dual control on the library: the oracle agent and the scripted user play telecom tasks together.

The loop here is the orchestrator's, in miniature: the user's tool calls run in the session for the
user before the agent hears anything, the agent's for the agent, and the episode is scored on the
whole timeline (both sides' calls, in order) as τ²'s evaluator sees it.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from taumesh.domains import Catalog, Episode, Registry
from taumesh.domains._arguments import parse_arguments
from taumesh.domains.tau2 import Tau2Task, call_tool, gold_hash, open_session
from taumesh.domains.tau2_telecom import plugin
from taumesh.models import STOP_TOKEN, ChatMessage, EpisodeContext, Score, TaskRef, ToolSchema
from taumesh.services.agent.strategies.base import AgentTurn
from taumesh.services.agent.strategies.oracle import HANDOVER_LINE, OracleAgent
from taumesh.services.user_sim.strategies.base import UserTurn
from taumesh.services.user_sim.strategies.scripted import DONE_LINE, ScriptedUser

MAX_MESSAGES = 200


def _schemas(raw: list[dict[str, object]]) -> list[ToolSchema]:
    return [ToolSchema.model_validate(schema["function"]) for schema in raw]


async def _play(catalog: Catalog, task: Tau2Task, split: str) -> tuple[Score, list[ChatMessage]]:
    domain = catalog.get(plugin.name)
    context = EpisodeContext(task=TaskRef(domain=plugin.name, split=split, task_id=task.id or ""))
    user, agent = ScriptedUser(catalog), OracleAgent(catalog)
    user_tools, agent_tools = _schemas(domain.user_tool_schemas), _schemas(domain.tool_schemas)
    session = open_session(domain, task)
    user_view: list[ChatMessage] = []
    agent_view: list[ChatMessage] = []
    timeline: list[ChatMessage] = []
    while len(timeline) < MAX_MESSAGES:
        user_turn = UserTurn(instruction=task.instruction, conversation=user_view, episode=context, tools=user_tools)
        reply = (await user.reply(user_turn)).message
        if reply.tool_calls:
            results = []
            for call in reply.tool_calls:
                arguments = parse_arguments(call.arguments)
                assert isinstance(arguments, dict)
                step = call_tool(session, call.name, arguments, "user")
                results.append(ChatMessage(role="tool", content=step.observation, tool_call_id=call.id))
            user_view += [reply, *results]
            timeline += [reply, *results]
            continue
        user_view.append(reply)
        agent_view.append(reply)
        timeline.append(reply)
        if STOP_TOKEN in reply.content:
            break
        while True:
            agent_turn = AgentTurn(episode=context, policy="", tools=agent_tools, conversation=agent_view)
            answer = (await agent.next_message(agent_turn)).message
            agent_view.append(answer)
            timeline.append(answer)
            if not answer.tool_calls:
                user_view.append(ChatMessage(role="assistant", content=answer.content))
                break
            for call in answer.tool_calls:
                arguments = parse_arguments(call.arguments)
                assert isinstance(arguments, dict)
                step = call_tool(session, call.name, arguments, "assistant")
                result = ChatMessage(role="tool", content=step.observation, tool_call_id=call.id)
                agent_view.append(result)
                timeline.append(result)
    score = plugin.score(Episode(domain, task, timeline, "user_stop", session.data_hash(), gold_hash(domain, task)))
    return score, timeline


@pytest.fixture(scope="module")
def catalog(tau2_data: Path) -> Catalog:
    return Catalog(Path(), Registry(plugins={plugin.name: plugin}))


@pytest.mark.parametrize("split", ["small", "base"])
def test_every_task_scores_one_in_the_gold_order(catalog: Catalog, split: str) -> None:
    tasks = catalog.get(plugin.name).tasks(split)
    assert tasks
    for task in tasks:
        assert isinstance(task, Tau2Task)
        score, timeline = asyncio.run(_play(catalog, task, split))
        assert score.reward == 1.0, (task.id, [(c.basis, c.subject, c.passed) for c in score.checks])
        played = [
            (call.requestor, call.name) for message in timeline if message.role != "tool" for call in message.tool_calls
        ]
        assert played == [(gold.requestor, gold.name) for gold in task.gold_actions], task.id


def test_the_user_acts_before_it_opens_and_answers_each_handover(catalog: Catalog) -> None:
    task = next(
        t
        for t in catalog.get(plugin.name).tasks("full")
        if isinstance(t, Tau2Task) and t.handovers() and t.user_turns()[0]
    )
    _, timeline = asyncio.run(_play(catalog, task, "full"))
    assert timeline[0].role == "user" and timeline[0].tool_calls  # its phone first, then it speaks
    texts = [(m.role, m.content) for m in timeline if not m.tool_calls and m.role != "tool"]
    assert texts[0] == ("user", task.instruction)
    assert texts.count(("assistant", HANDOVER_LINE)) == len(task.handovers())
    assert texts.count(("user", DONE_LINE)) == len(task.handovers())
    assert texts[-1] == ("user", STOP_TOKEN)
