"""τ²'s episodes open with the agent's greeting: the env sends it, and the LLM user answers it once.

τ²'s orchestrator seeds every fresh trajectory with ``DEFAULT_FIRST_AGENT_MESSAGE`` and none after a task's message
history; τ-bench v1's user opens. The env answers OpenSession with the domain's ``opening_message``, and the τ² user's
prompt takes the greeting from the conversation when the orchestrator put it there, never a second time.
"""

from __future__ import annotations

from typing import Any

from taumesh.common.v1 import common_pb2
from taumesh.env.v1 import env_pb2, env_pb2_grpc
from taumesh.models import ChatMessage, EpisodeContext, ModelSettings, TaskRef, UserSettings
from taumesh.services.user_sim.strategies.base import UserTurn
from taumesh.services.user_sim.strategies.llm import LlmUser

TAU2_GREETING = "Hi! How can I help you today?"
"""τ²'s ``DEFAULT_FIRST_AGENT_MESSAGE`` (``tau2/orchestrator/orchestrator.py``)."""
HISTORY_TASK = "update_task_with_message_history"
"""A τ² mock task with a message history."""


def opened(stub: env_pb2_grpc.EnvServiceStub, domain: str, split: str, task_id: str) -> env_pb2.OpenSessionResponse:
    request = env_pb2.OpenSessionRequest(task=common_pb2.TaskRef(domain=domain, split=split, task_id=task_id))
    response: env_pb2.OpenSessionResponse = stub.OpenSession(request, timeout=60)
    stub.CloseSession(env_pb2.CloseSessionRequest(session_id=response.session_id), timeout=60)
    return response


def test_a_v1_session_has_no_opening_message(env_stub: env_pb2_grpc.EnvServiceStub) -> None:
    assert opened(env_stub, "retail", "test", "0").opening_agent_message == ""


def test_a_fresh_tau2_session_opens_with_tau2s_greeting(tau2_stubs: Any) -> None:
    env, _ = tau2_stubs
    for domain, task_id in [("tau2-retail", "10"), ("tau2-mock", "create_task_1")]:
        response = opened(env, domain, "base", task_id)
        assert response.opening_agent_message == TAU2_GREETING, domain
        assert not response.history


def test_a_tau2_task_with_a_history_has_no_greeting(tau2_stubs: Any) -> None:
    env, _ = tau2_stubs
    response = opened(env, "tau2-mock", "base", HISTORY_TASK)
    assert response.history and response.opening_agent_message == ""


def mock_turn(conversation: list[ChatMessage]) -> UserTurn:
    return UserTurn(
        instruction="Create a task.",
        conversation=conversation,
        settings=UserSettings(strategy="llm", model=ModelSettings(model="user-model", provider="openai")),
        episode=EpisodeContext(task=TaskRef(domain="tau2-mock", split="base", task_id="create_task_1")),
    )


def test_the_tau2_user_sees_the_greeting_once(tau2_stubs: Any) -> None:
    user = LlmUser()
    greeting = ChatMessage(role="assistant", content=TAU2_GREETING)
    opening = user.prompt(mock_turn([]))  # asked to open: the domain's greeting comes from its prompt
    assert [(m["role"], m["content"]) for m in opening[1:]] == [("user", TAU2_GREETING)]
    conversation = [greeting, ChatMessage(role="user", content="Hi."), ChatMessage(role="assistant", content="Sure.")]
    reply = user.prompt(mock_turn(conversation))  # the orchestrator's conversation starts with it: not added again
    assert [(m["role"], m["content"]) for m in reply[1:]] == [
        ("user", TAU2_GREETING),
        ("assistant", "Hi."),
        ("user", "Sure."),
    ]
    after_history = [ChatMessage(role="user", content="Hi."), ChatMessage(role="assistant", content="Sure.")]
    assert [m["content"] for m in user.prompt(mock_turn(after_history))[1:]] == ["Hi.", "Sure."]  # τ²: no greeting
