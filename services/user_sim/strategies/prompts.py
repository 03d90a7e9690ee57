"""The prompts of the LLM user strategies: taumesh's own (the mechanics follow τ-bench v1).

A domain may bring its own user prompt (its plugin's ``user_prompt`` hook: τ²'s guidelines, read from its data).
"""

from __future__ import annotations

from collections.abc import Sequence

from taumesh.models import STOP_TOKEN, USER_STOP_TOKENS, ChatMessage

GREETING = "Hello, thanks for getting in touch. What can I do for you today?"
"""The agent's opening line as the simulated user sees it (the user speaks first in the episode itself)."""

_PERSONA = f"""You are role-playing a customer who has contacted a customer-service agent by chat. Stay in this role \
for the whole conversation: you are the customer, never the agent, and never an AI assistant.

# Your situation
{{instruction}}

# How to play the customer
- Write only the customer's next chat message: one message per turn, in plain everyday language.
- Let your request and the details you know come out gradually, as the conversation needs them or the agent asks; \
do not recite your whole situation at once.
- Use only the facts in your situation. When the agent asks for something it does not give you, say that you do \
not know or do not have it; never invent names, numbers, ids, addresses or preferences.
- Say things in your own words rather than copying sentences from your situation, and keep the personality and \
mood it describes.
- When everything you came for has been done, or it clearly cannot be done, end the chat with a message that \
contains only {STOP_TOKEN}."""

_REACT_FORMAT = """

# Format of every answer
First think, privately, about where the conversation stands and what the customer should say next; then write the \
message. The agent sees only the message. Use exactly this layout:
Thought:
<your private reasoning>
User Response:
<the customer's message>"""

VERIFY_SYSTEM = f"""You review the chat messages of a simulated customer. The customer is played by a language model \
that was given a situation to act out, and you check its latest draft before the agent sees it.

Reject the draft when it does any of the following:
- states a fact that is not in the situation, or contradicts it;
- asks for something the situation does not want, or gives up on something it does want;
- ends the conversation ({STOP_TOKEN}) while the goal is neither achieved nor clearly impossible, or fails to end \
it once the goal is achieved;
- speaks as the agent or as an AI, or is not a single chat message.
Otherwise accept it; clumsy wording is fine.

Answer with a JSON object and nothing else: {{"verdict": "accept" or "reject", "reason": "<one sentence>"}}"""

VERIFY_REQUEST = """# The customer's situation
{instruction}

# The conversation so far
{transcript}

# The customer's draft reply
{draft}"""

REGENERATE = """A reviewer rejected your last draft reply:
{draft}

Reason: {reason}

Write the customer's reply again, avoiding that problem. Answer with the message only."""

REFLECT = """A reviewer rejected your last draft reply:
{draft}

Reason: {reason}

Reflect on what went wrong and on what the customer in your situation would really say at this point, then write \
the corrected message. Use exactly this layout:
Reflection:
<your reflection>
Response:
<the customer's corrected message>"""

_STOPS = ", ".join(USER_STOP_TOKENS)

CHECK_SYSTEM = f"""You check one chat message of a simulated customer before the customer-service agent sees it. \
The customer is played by a language model that was given private instructions: who the customer is and what they \
want. Its message must play those instructions faithfully, as a real customer would.

Look for exactly these problems:
- "leaked_goal": the message gives the instructions away: it recites or copies them, mentions having \
instructions, a scenario or a task, or tells at once details of the goal the conversation has not yet called for.
- "invented_facts": the message states a fact (a name, number, id, address, date, item, amount or preference) \
that the instructions do not give and the conversation has not established, or contradicts either.
- "stopped_early": the message ends the conversation (it says one of {_STOPS}) while what the instructions \
want is neither done nor clearly impossible.
Anything else passes: wording, tone, length, and saying that the customer does not know something.

Answer with one JSON object and nothing else, either
{{"verdict": "pass", "problems": [], "reason": ""}}
or
{{"verdict": "fail", "problems": [<one or more of "leaked_goal", "invented_facts", "stopped_early">], \
"reason": "<one sentence>"}}"""
"""The strict user's check (``strict``, ``strict-taumesh``): its system prompt."""

CHECK_REQUEST = """# The customer's instructions
{instruction}

# The conversation so far
{transcript}

# The customer's next message, to check
{candidate}"""

REDRAW = """A check of your last message found a problem ({problems}): {reason}

Write the customer's message again, without that problem. Answer with the message only."""
"""What the strict user's model is told after its failed candidate, before it writes the one redraw."""


def check_transcript(conversation: Sequence[ChatMessage]) -> str:
    """The conversation as the strict user's check reads it: what each side said, the user's own tool use too."""
    lines: list[str] = []
    for message in conversation:
        if message.role == "assistant":
            lines.append(f"Agent: {message.content}")
        elif message.role == "user":
            calls = "".join(f" [calls its tool {call.name}({call.arguments})]" for call in message.tool_calls)
            lines.append(f"Customer: {message.content}{calls}")
        elif message.role == "tool":
            lines.append(f"Result of the customer's tool: {message.content}")
    return "\n".join(lines) or "(nothing yet: this is the customer's first message)"


HUMAN_INTRO = f"""=== You are the customer ===
{{instruction}}

Type the customer's messages and press Enter. An empty line, end of input, or {STOP_TOKEN} ends the conversation."""


def persona_prompt(instruction: str, react: bool = False) -> str:
    """System prompt of the simulated user (with the Thought/User Response layout for react)."""
    return _PERSONA.format(instruction=instruction) + (_REACT_FORMAT if react else "")


def transcript_text(conversation: Sequence[ChatMessage]) -> str:
    """The conversation as the reviewer reads it (the customer's private reasoning left out)."""
    lines = [f"Agent: {GREETING}"]
    for message in conversation:
        speaker = "Customer" if message.role == "user" else "Agent"
        lines.append(f"{speaker}: {message.content}")
    return "\n".join(lines)
