"""NL assertions judged by a model: one call per episode rules on every assertion of the task.

The judge reads the conversation as text and the task's assertions, numbered, and answers one JSON object with a
verdict per assertion (``expectedOutcome``, ``reasoning``, ``metExpectation``, τ²'s field names). An unreadable
answer is asked again (at most :data:`MAX_ASKS` calls in all); a model that stays unavailable or never answers
readably is an infrastructure fault (:class:`JudgeUnavailable`), never a failed assertion.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from taumesh.llm import ModelUnavailable, find_json_object
from taumesh.llm.errors import ModelRateLimited
from taumesh.llm.retry import caller_retries_rate_limits
from taumesh.models import ChatMessage, ModelSettings, RewardCheck, Usage
from taumesh.services.scorer.asking import ask_until_readable
from taumesh.services.scorer.fault_analysis import render_message

MAX_ASKS = 3
"""Model calls per episode: the question and at most two re-asks after unreadable answers."""

SYSTEM = """You review a finished conversation between a customer-service agent and a customer, and decide, for \
each numbered expectation, whether the agent's behaviour in the conversation fulfils it. Judge only from what the \
conversation shows: the messages, the tools the agent called and what they returned. An expectation the \
conversation gives no evidence for is not met.

Reply with a single JSON object and nothing else, holding one entry per expectation in the order given:
{"results": [{"expectedOutcome": "<the expectation, restated>", "reasoning": "<one or two sentences citing the \
conversation>", "metExpectation": true | false}, ...]}"""

REASK = """That reply could not be used: {problem}. Reply again with only the JSON object, {count} entr{plural} in \
"results", each with "expectedOutcome", "reasoning" and "metExpectation" (true or false)."""


class JudgeUnavailable(Exception):
    """The judge model could not give a usable verdict (down, or unreadable after every re-ask)."""


class AssertionVerdict(BaseModel):
    """The judge's ruling on one assertion."""

    model_config = ConfigDict(populate_by_name=True)

    expected_outcome: str = Field(default="", alias="expectedOutcome")
    reasoning: str = ""
    met: bool = Field(alias="metExpectation")


class Judgement(BaseModel):
    """One NL_ASSERTION check per assertion, in the task's order, and what the judge cost."""

    checks: list[RewardCheck]
    usage: Usage

    @property
    def reward(self) -> float:
        """1.0 when every assertion is met (τ²'s NL component), else 0.0."""
        return 1.0 if all(check.passed for check in self.checks) else 0.0


def question(trajectory: Sequence[ChatMessage], assertions: Sequence[str]) -> str:
    """The user message of the judging prompt: the conversation, then the numbered expectations."""
    conversation = "\n".join(render_message(i, m) for i, m in enumerate(trajectory) if m.role != "system")
    expectations = "\n".join(f"{i}. {text}" for i, text in enumerate(assertions, start=1))
    return f"# Conversation\n{conversation or '(empty)'}\n\n# Expectations\n{expectations}"


def read_verdicts(text: str, count: int) -> list[AssertionVerdict]:
    """The ``count`` verdicts in a judge's answer; ValueError saying what is wrong with it."""
    answer = find_json_object(text)
    if answer is None:
        raise ValueError("no JSON object found")
    results: Any = answer.get("results")
    if not isinstance(results, list):
        raise ValueError('"results" is not a list')
    if len(results) != count:
        raise ValueError(f'"results" has {len(results)} entries, {count} expected')
    try:
        return [AssertionVerdict.model_validate(result) for result in results]
    except ValidationError as exc:
        raise ValueError(f"an entry is malformed: {exc.errors()[0]['msg']}") from exc


async def judge_assertions(
    settings: ModelSettings, trajectory: Sequence[ChatMessage], assertions: Sequence[str]
) -> Judgement:
    """Ask the judge about every assertion at once; one RewardCheck per assertion.

    Raises :class:`JudgeUnavailable` when the model is unavailable or answers unreadably :data:`MAX_ASKS` times,
    and lets :class:`taumesh.llm.ModelRequestError` through (a refused request: credentials, unknown model), and
    a 429 when the caller retries rate limits itself (:data:`~taumesh.llm.retry.RATE_LIMITS_METADATA`).
    """
    count = len(assertions)
    asked = await ask_until_readable(
        settings,
        SYSTEM,
        question(trajectory, assertions),
        lambda content: read_verdicts(content, count),
        lambda problem: REASK.format(problem=problem, count=count, plural="y" if count == 1 else "ies"),
        MAX_ASKS,
    )
    if isinstance(asked.error, ModelRateLimited) and caller_retries_rate_limits():
        raise asked.error  # the caller holds the provider's permits: it waits and asks again
    if isinstance(asked.error, ModelUnavailable):
        error = asked.error
        raise JudgeUnavailable(f"judge model unavailable after {error.attempts} attempt(s): {error.cause}") from error
    if asked.error is not None:
        raise asked.error
    if asked.answer is None:
        raise JudgeUnavailable(f"the judge model gave no usable answer in {MAX_ASKS} tries ({asked.problem})")
    checks = [
        RewardCheck(basis="NL_ASSERTION", subject=text, passed=verdict.met, explanation=verdict.reasoning)
        for text, verdict in zip(assertions, asked.answer, strict=True)
    ]
    return Judgement(checks=checks, usage=asked.usage)
