"""The ``react`` user reads the model's text as τ-bench's ``ReactUserSimulationEnv.parse_response`` does.

The table was derived by reading that method (sierra-research/tau-bench, tau_bench/envs/user.py): ``###STOP###``
anywhere wins; then ``Thought:`` is looked for before ``User Response:``; the text is split on the first marker
found and unpacked into exactly two parts; no marker raises ValueError("Invalid response format").
"""

from __future__ import annotations

import pytest

from taumesh.llm import ModelUnavailable
from taumesh.models import STOP_TOKEN, ModelSettings, UserSettings
from taumesh.services.user_sim.strategies.base import UserTurn
from taumesh.services.user_sim.strategies.react import ReactUser, UnparsableReply, parse_react_reply
from tests.helpers.fake_model import FakeOpenAI, in_turn, text

INVALID = None  # τ-bench raises

VECTORS: list[tuple[str, str | None]] = [
    # the documented format: τ-bench checks Thought: first, so the thought and the marker reach the agent
    ("Thought:\nI need my order.\n\nUser Response:\nWhere is it?", "I need my order.\n\nUser Response:\nWhere is it?"),
    ("User Response:\nWhere is my order?", "Where is my order?"),
    ("User Response:   hi there  \n", "hi there"),
    ("Thought:\nthinking only", "thinking only"),
    ("Thought:", ""),
    ("My Thought: hmm", "hmm"),  # a marker anywhere counts
    ("User Response: a\nThought: b", "b"),  # Thought: wins whatever the order
    ("Thought: x\nUser Response: y\nUser Response: z", "x\nUser Response: y\nUser Response: z"),
    # ###STOP### anywhere, even in the thought, is the whole message
    ("Thought:\nDone.\nUser Response:\n###STOP###", STOP_TOKEN),
    ("I will say ###STOP### later", STOP_TOKEN),
    ("Thought: a\nThought: b\n###STOP###", STOP_TOKEN),
    # what τ-bench cannot parse
    ("Where is my order?", INVALID),
    ("   \n", INVALID),
    ("thought: lower case\nuser response: hi", INVALID),
    ("Thought: a\nThought: b\nUser Response: c", INVALID),  # two parts expected, three found
    ("User Response: a\nUser Response: b", INVALID),
    ("Thought - no colon\nUser Response - none either", INVALID),
]


@pytest.mark.parametrize(("model_text", "reply"), VECTORS)
def test_parsed_as_tau_bench_does(model_text: str, reply: str | None) -> None:
    if reply is INVALID:
        with pytest.raises(UnparsableReply):
            parse_react_reply(model_text)
        return
    assert parse_react_reply(model_text) == reply
    message = ReactUser().parse(model_text)
    assert (message.content, message.reasoning) == (reply, model_text)  # the raw text stays for the next prompt
    assert ReactUser().own_turn(message) == model_text


def turn(fake: FakeOpenAI) -> UserTurn:
    model = ModelSettings(model="user-model", provider="openai", api_base=fake.url)
    return UserTurn(instruction="You want a refund.", settings=UserSettings(strategy="react", model=model))


async def test_an_unparsable_text_is_drawn_again(fake: FakeOpenAI) -> None:
    fake.reset(in_turn(text("no markers at all", 30, 4), text("User Response:\nI want a refund.", 31, 6)))
    reply = await ReactUser().reply(turn(fake))
    assert reply.message.content == "I want a refund." and len(fake.served) == 2
    # the discarded text was billed, but only the parsed one is a successful call
    assert (reply.usage.prompt_tokens, reply.usage.completion_tokens, reply.usage.calls) == (61, 10, 1)


async def test_always_unparsable_is_the_model_being_unavailable(
    fake: FakeOpenAI, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TAUMESH_LLM_MAX_ATTEMPTS", "3")
    fake.reset(in_turn(text("Thought: a\nThought: b")))
    with pytest.raises(ModelUnavailable) as raised:
        await ReactUser().reply(turn(fake))
    assert len(fake.served) == 3 and raised.value.attempts == 3
    assert "'Thought:' appears 2 times" in raised.value.cause
