"""Actions read as messages or tool calls; observations stay within their space, oldest messages left out."""

from __future__ import annotations

import json

import pytest

from taumesh.models import ChatMessage
from taumesh.orchestrator.gym import ActionError, parse_action
from taumesh.orchestrator.gym.observations import observation_space, render_observation


def test_the_three_spellings_of_an_action() -> None:
    tools = ["get_user_details"]
    said = parse_action("get_user_details is what I will call", tools, "assistant", "c1")
    assert said.role == "assistant" and said.content == "get_user_details is what I will call" and not said.tool_calls
    by_json = parse_action('{"name": "get_user_details", "arguments": "{\\"n\\": 1.0}"}', tools, "assistant", "c2")
    assert by_json.tool_calls[0].arguments == '{"n": 1.0}'  # the arguments' text untouched
    by_call = parse_action("get_user_details(user_id='a', n=1.0)", tools, "user", "c3")
    assert by_call.role == "user" and by_call.tool_calls[0].requestor == "user"
    assert json.loads(by_call.tool_calls[0].arguments) == {"user_id": "a", "n": 1.0}
    assert parse_action('{"text": "hi"}', tools, "assistant", "c4").content == '{"text": "hi"}'  # no name: words
    with pytest.raises(ActionError, match="keyword arguments only"):
        parse_action("get_user_details('a')", tools, "assistant", "c5")


def test_an_observation_beyond_the_limit_leaves_out_the_oldest_messages() -> None:
    messages = [ChatMessage(role="user", content=f"message {n} caf\u00e9 " + "x" * 80) for n in range(50)]
    whole = render_observation(messages)
    assert whole in observation_space() and "\\u00e9" in whole  # ASCII escapes: printable characters only
    cut = render_observation(messages, limit=1000)
    parsed = json.loads(cut)
    assert len(cut) <= 1000 and parsed["omitted"] + len(parsed["messages"]) == 50
    assert parsed["messages"][-1]["content"].startswith("message 49")
