"""The orchestrator's spans and metrics: run, episodes, turns, agent steps, tool calls, user replies, scoring.

A run is a short trace of its own (``taumesh run``); each episode is a new trace whose root span
(``episode``) links to the run's span, so a 1,000-episode run is 1,000 small traces, not one giant
one. Spans of the services join the episode's trace through the ``traceparent`` the gRPC client
interceptor puts in each call's metadata.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager, nullcontext
from typing import Any

import grpc
from opentelemetry import context as otel_context
from opentelemetry import trace
from opentelemetry.trace import Link, Span, SpanKind, Status, StatusCode
from opentelemetry.util.types import AttributeValue

from taumesh.models import AgentSettings, ChatMessage, EpisodeContext, TaskRef, ToolCall, Usage, UserSettings
from taumesh.orchestrator.config import RunConfig
from taumesh.stats import is_success
from taumesh.telemetry import (
    ToolSpan,
    active_service,
    capture_content,
    instruments,
    scrub,
    tool_span,
    trace_id_of,
    tracer,
)
from taumesh.telemetry import attributes as A
from taumesh.telemetry.call_spans import call_span
from taumesh.telemetry.genai import messages_json, model_attributes


def _tracing() -> bool:
    """Whether spans are recorded: when not, the span helpers below skip building names and attributes."""
    return active_service().tracing


def run_attributes(config: RunConfig) -> dict[str, AttributeValue]:
    """What identifies a run's episodes: domain, split and the two strategies and models."""
    return {
        A.TAUMESH_DOMAIN: config.env,
        A.TAUMESH_TASK_SPLIT: config.task_split or "",
        A.TAUMESH_AGENT_STRATEGY: config.agent.strategy,
        A.TAUMESH_AGENT_MODEL: config.agent.model.model,
        A.TAUMESH_USER_STRATEGY: config.user.strategy,
        A.TAUMESH_USER_MODEL: config.user.model.model,
    }


def metric_attributes(config: RunConfig) -> dict[str, AttributeValue]:
    """The low-cardinality run attributes that metrics carry."""
    return {key: value for key, value in run_attributes(config).items() if key != A.TAUMESH_TASK_SPLIT}


@contextmanager
def run_span(config: RunConfig) -> Iterator[Span]:
    """The run's own short trace: listing tasks, computing pass^k; episodes link to it."""
    attributes = run_attributes(config)
    attributes[A.TAUMESH_RUN_CONCURRENCY] = config.max_concurrency
    with tracer().start_as_current_span(A.SPAN_RUN, attributes=attributes) as span:
        yield span


def run_ended(span: Span, episodes: int, errors: int, average_reward: float | None) -> None:
    """What a run's span records at its end: scored episodes, error entries, average reward (-1 when none)."""
    if span.is_recording():
        span.set_attributes(
            {
                A.TAUMESH_RUN_EPISODES: episodes,
                A.TAUMESH_RUN_ERRORS: errors,
                A.TAUMESH_RUN_AVERAGE_REWARD: -1.0 if average_reward is None else average_reward,
            }
        )


def _usage_attributes(usage: Usage) -> dict[str, AttributeValue]:
    if not usage.calls:
        return {}
    return {
        A.GEN_AI_USAGE_INPUT_TOKENS: usage.prompt_tokens,
        A.GEN_AI_USAGE_OUTPUT_TOKENS: usage.completion_tokens,
        A.TAUMESH_COST_USD: usage.cost_usd,
    }


class EpisodeTrace:
    """The root span of one episode (all its attempts), and the episode metrics."""

    def __init__(self, span: Span, config: RunConfig) -> None:
        self.span = span
        self.config = config
        self.started = time.monotonic()

    @property
    def trace_id(self) -> str | None:
        """The episode's trace id (32 hex digits), or None when it is not traced."""
        if not self.span.get_span_context().trace_flags.sampled:
            return None
        return trace_id_of(self.span)

    def attempt_failed(self, exc: grpc.aio.AioRpcError, attempt: int, final: bool) -> None:
        """An infrastructure fault lost attempt ``attempt``; ``final``: the episode is given up."""
        code = exc.code().name
        cause = scrub(f"{code}: {exc.details()}")
        instruments().infra_errors.add(
            1, {**metric_attributes(self.config), A.TAUMESH_ERROR_CODE: code, A.TAUMESH_ERROR_FINAL: final}
        )
        self.span.add_event(
            "attempt failed",
            {A.TAUMESH_EPISODE_ATTEMPTS: attempt, A.TAUMESH_ERROR_CODE: code, A.TAUMESH_ERROR_CAUSE: cause},
        )
        if final:
            self.span.set_attributes(
                {A.TAUMESH_OUTCOME: "error", A.TAUMESH_EPISODE_ATTEMPTS: attempt, A.ERROR_TYPE: code}
            )
            self.span.set_status(Status(StatusCode.ERROR, cause))
            self._count("error", None)

    def scored(
        self,
        *,
        reward: float,
        termination: str,
        steps: int,
        episode_id: str,
        attempts: int,
        agent_usage: Usage,
        user_usage: Usage,
    ) -> None:
        """The episode ended and was scored."""
        outcome = "success" if is_success(reward) else "failure"
        self.span.set_attributes(
            {
                A.TAUMESH_REWARD: reward,
                A.TAUMESH_OUTCOME: outcome,
                A.TAUMESH_TERMINATION: termination,
                A.TAUMESH_STEPS: steps,
                A.TAUMESH_EPISODE_ID: episode_id,
                A.GEN_AI_CONVERSATION_ID: episode_id,
                A.TAUMESH_EPISODE_ATTEMPTS: attempts,
                A.TAUMESH_AGENT_COST_USD: agent_usage.cost_usd,
                A.TAUMESH_USER_COST_USD: user_usage.cost_usd,
                A.TAUMESH_COST_USD: agent_usage.cost_usd + user_usage.cost_usd,
            }
        )
        timings = instruments()
        base = metric_attributes(self.config)
        timings.reward.record(reward, base)
        for role, usage in (("agent", agent_usage), ("user", user_usage)):
            if not usage.calls:
                continue
            by_role = {**base, A.TAUMESH_ROLE: role}
            timings.tokens.add(usage.prompt_tokens, {**by_role, A.GEN_AI_TOKEN_TYPE: "input"})
            timings.tokens.add(usage.completion_tokens, {**by_role, A.GEN_AI_TOKEN_TYPE: "output"})
            timings.cost.add(usage.cost_usd, by_role)
        self._count(outcome, termination)

    def _count(self, outcome: str, termination: str | None) -> None:
        attributes = {**metric_attributes(self.config), A.TAUMESH_OUTCOME: outcome}
        if termination:
            attributes[A.TAUMESH_TERMINATION] = termination
        timings = instruments()
        timings.episodes.add(1, attributes)
        timings.episode_duration.record(time.monotonic() - self.started, attributes)


_UNTRACED: AbstractContextManager[None] = nullcontext()
"""What the span helpers below return when nothing is traced: no generator, no span, no attributes built."""


def episode_span(config: RunConfig, task: TaskRef, trial: int) -> AbstractContextManager[EpisodeTrace]:
    """A new trace for one episode, linked to the current (run) span rather than a child of it."""
    if not _tracing():
        return nullcontext(EpisodeTrace(trace.INVALID_SPAN, config))
    return _episode_span(config, task, trial)


@contextmanager
def _episode_span(config: RunConfig, task: TaskRef, trial: int) -> Iterator[EpisodeTrace]:
    run = trace.get_current_span().get_span_context()
    attributes = run_attributes(config)
    attributes.update(
        {A.TAUMESH_TASK_ID: task.task_id, A.TAUMESH_TRIAL: trial, A.GEN_AI_AGENT_NAME: config.agent.strategy}
    )
    with tracer().start_as_current_span(
        A.SPAN_EPISODE,
        context=otel_context.Context(),  # no parent: a trace of its own
        links=[Link(run)] if run.is_valid else [],
        attributes=attributes,
    ) as span:
        yield EpisodeTrace(span, config)


class Turns:
    """``turn <n>`` spans: the agent's steps after a user message, through to the user's next message.

    The turn loop is not shaped like the turns (a turn spans several loop iterations), so each
    iteration enters :meth:`step`, which opens the turn when none is open; :meth:`end` closes it.
    """

    def __init__(self, config: RunConfig) -> None:
        self.index = 0
        self._open = False
        self._span: Span | None = None
        self._started = 0.0
        self._attributes = metric_attributes(config)

    def step(self) -> AbstractContextManager[Any]:
        """Enter for one iteration of the turn loop: opens a turn when none is open; its span is current inside."""
        if not self._open:
            self.index += 1
            self._open = True
            self._started = time.perf_counter()
            if _tracing():
                self._span = tracer().start_span(
                    f"{A.SPAN_TURN} {self.index}", attributes={A.TAUMESH_TURN_INDEX: self.index}
                )
        if self._span is None:
            return _UNTRACED
        return trace.use_span(self._span, end_on_exit=False)

    def end(self) -> None:
        """Close the open turn, if any (the user answered, or the episode ended)."""
        if not self._open:
            return
        self._open = False
        if self._span is not None:
            self._span.end()
            self._span = None
        instruments().turn_duration.record(time.perf_counter() - self._started, self._attributes)


class AgentStep:
    """One NextMessage call: the agent's answer and what it cost."""

    def __init__(self, span: Span) -> None:
        self.span = span

    def answered(self, message: ChatMessage, usage: Usage) -> None:
        if not self.span.is_recording():
            return
        self.span.set_attributes(_usage_attributes(usage))
        self.span.set_attribute(A.TAUMESH_AGENT_TOOL_CALLS, len(message.tool_calls))
        if capture_content():
            self.span.set_attribute(A.GEN_AI_OUTPUT_MESSAGES, messages_json([message.openai()]))


def agent_step(settings: AgentSettings, episode: EpisodeContext, step: int) -> AbstractContextManager[AgentStep]:
    """``invoke_agent <strategy>``: one call of the agent under test (GenAI ``invoke_agent``).

    The span stands for the ``NextMessage`` call: the agent's server span is its child, with no gRPC client span.
    """
    if not _tracing():
        return nullcontext(AgentStep(trace.INVALID_SPAN))
    return _agent_step(settings, episode, step)


@contextmanager
def _agent_step(settings: AgentSettings, episode: EpisodeContext, step: int) -> Iterator[AgentStep]:
    attributes: dict[str, AttributeValue] = {
        A.GEN_AI_OPERATION_NAME: A.OP_INVOKE_AGENT,
        A.GEN_AI_AGENT_NAME: settings.strategy,
        A.GEN_AI_CONVERSATION_ID: episode.episode_id,
        A.TAUMESH_STEP_INDEX: step,
    }
    if settings.model.model:
        attributes.update(model_attributes(settings.model))
    name = f"{A.OP_INVOKE_AGENT} {settings.strategy}"
    with tracer().start_as_current_span(name, kind=SpanKind.CLIENT, attributes=attributes) as span, call_span(span):
        yield AgentStep(span)


class UserTurn:
    """One call of the user simulator."""

    def __init__(self, span: Span) -> None:
        self.span = span

    def replied(self, message: ChatMessage, usage: Usage, stop: bool = False) -> None:
        if not self.span.is_recording():
            return
        self.span.set_attributes(_usage_attributes(usage))
        self.span.set_attribute(A.TAUMESH_USER_STOP, stop)
        if capture_content():
            self.span.set_attribute(A.GEN_AI_OUTPUT_MESSAGES, messages_json([message.openai()]))


def user_turn(settings: UserSettings, phase: str) -> AbstractContextManager[UserTurn]:
    """``simulate_user``: the simulated user's opening message (``start``) or a reply (``reply``).

    The span stands for the ``StartConversation``/``Reply`` call (no gRPC client span under it).
    """
    if not _tracing():
        return nullcontext(UserTurn(trace.INVALID_SPAN))
    return _user_turn(settings, phase)


@contextmanager
def _user_turn(settings: UserSettings, phase: str) -> Iterator[UserTurn]:
    attributes: dict[str, AttributeValue] = {A.TAUMESH_USER_STRATEGY: settings.strategy, A.TAUMESH_USER_PHASE: phase}
    if settings.model.model:
        attributes.update(model_attributes(settings.model))
    with (
        tracer().start_as_current_span(A.SPAN_SIMULATE_USER, kind=SpanKind.CLIENT, attributes=attributes) as span,
        call_span(span),
    ):
        yield UserTurn(span)


def tool_call(call: ToolCall, session_id: str) -> AbstractContextManager[ToolSpan]:
    """``execute_tool <name>``: one tool call (the env service's ``CallTool`` server span runs inside it)."""
    if not _tracing():
        return nullcontext(ToolSpan(None))
    return tool_span(call.name, call.id, call.arguments, session_id=session_id)


class Scoring:
    """Final state and score of an episode."""

    def __init__(self, span: Span) -> None:
        self.span = span

    def scored(self, reward: float, final_data_hash: str, info: dict[str, Any] | None) -> None:
        if not self.span.is_recording():
            return
        self.span.set_attributes({A.TAUMESH_REWARD: reward, A.TAUMESH_FINAL_DATA_HASH: final_data_hash})
        checks = (info or {}).get("info") or {}
        if "r_actions" in checks:
            self.span.set_attribute(A.TAUMESH_REWARD_ACTIONS, float(checks["r_actions"]))
            self.span.set_attribute(A.TAUMESH_GOLD_DATA_HASH, str(checks.get("gt_data_hash", "")))
        if "r_outputs" in checks:
            self.span.set_attribute(A.TAUMESH_REWARD_OUTPUTS, float(checks["r_outputs"]))


def scoring() -> AbstractContextManager[Scoring]:
    """``score_episode``: reading the final state and scoring it."""
    if not _tracing():
        return nullcontext(Scoring(trace.INVALID_SPAN))
    return _scoring()


@contextmanager
def _scoring() -> Iterator[Scoring]:
    with tracer().start_as_current_span(A.SPAN_SCORE) as span:
        yield Scoring(span)
