"""``Transcript.continue_from``: each side starts from what τ² gives it of a task's message history."""

from __future__ import annotations

from taumesh.models import ChatMessage, ToolCall
from taumesh.orchestrator.episode.transcript import Transcript

AGENT_CALL = ToolCall(id="a1", name="get_customer", arguments="{}")
USER_CALL = ToolCall(id="u1", name="check_status_bar", arguments="{}", requestor="user")
HISTORY = [
    ChatMessage(role="user", content="My phone has no signal."),
    ChatMessage(role="assistant", tool_calls=[AGENT_CALL]),
    ChatMessage(role="tool", content="customer C1", tool_call_id="a1", name="get_customer"),
    ChatMessage(role="assistant", content="Please check your status bar."),
    ChatMessage(role="user", tool_calls=[USER_CALL]),
    ChatMessage(role="tool", content="no bars", tool_call_id="u1", name="check_status_bar"),
]


def test_each_view_holds_what_tau2_gives_that_side() -> None:
    transcript = Transcript()
    transcript.continue_from(HISTORY)
    user_text, agent_call, agent_result, agent_text, user_call, user_result = HISTORY
    # τ²'s is_valid_agent_history_message: assistant messages, user texts, results of the assistant's calls
    assert transcript.agent == transcript.traj == [user_text, agent_call, agent_result, agent_text]
    # is_valid_user_history_message: user messages, assistant texts, results of the user's calls
    assert transcript.user == [user_text, agent_text, user_call, user_result]
    assert transcript.scored == HISTORY
