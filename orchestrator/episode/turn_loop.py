"""The turn loop: one episode of user ↔ agent ↔ tools, across the four services.

    user opens → agent answers → its tool calls run in the env → … → the agent speaks to the user →
    the user replies → … until the user stops, a terminate tool runs, or the step limit is hit.

The user stops by saying one of the domain's stop tokens (``OpenSessionResponse.user_stop_tokens``: v1's
``###STOP###``; τ²'s also ``###TRANSFER###`` and ``###OUT-OF-SCOPE###``), which the orchestrator checks itself as τ²
does. τ² domains have no terminate tool: their episodes end so, or at the step or error limit.

In τ² domains the agent speaks first: the domain's opening message (τ²'s greeting, from the env's OpenSession) opens
every view and the user's opening answers it, as τ²'s orchestrator seeds it. A τ² task with a message history starts
from it instead, as τ² does: every view holds it, and the next turn is whoever's it is after its last message
(:meth:`_Episode.begin`).

Then the env reports the final state, the scorer scores it, and the session is closed.

The env session is the episode's :class:`~taumesh.orchestrator.episode.env_session.EpisodeSession`: every env call goes
to the replica holding it, and a session lost with its replica is rebuilt elsewhere by replaying the tool calls.
"""

from __future__ import annotations

import logging
import time
import uuid
from functools import partial
from typing import Any

import grpc
from pydantic import BaseModel, Field

from taumesh.agent.v1 import agent_pb2
from taumesh.common.v1 import common_pb2
from taumesh.convert import (
    agent_settings_to_proto,
    episode_to_proto,
    message_from_proto,
    message_to_proto,
    model_to_proto,
    score_from_proto,
    task_ref_to_proto,
    termination_to_proto,
    tool_call_from_proto,
    tool_call_to_proto,
    usage_from_proto,
    user_settings_to_proto,
)
from taumesh.env.v1 import env_pb2
from taumesh.models import (
    STOP_TOKEN,
    ChatMessage,
    EpisodeContext,
    RewardBasis,
    RewardCheck,
    Score,
    TaskRef,
    Termination,
    ToolCall,
    Usage,
)
from taumesh.orchestrator import tracing
from taumesh.orchestrator.clients import ServiceClients, with_retries
from taumesh.orchestrator.config import RunConfig
from taumesh.orchestrator.domain_info import resolve_domain
from taumesh.orchestrator.episode.env_session import EpisodeSession
from taumesh.orchestrator.episode.grading import GRADERS
from taumesh.orchestrator.episode.mcp_agent import McpEpisode, bind_episode
from taumesh.rpc.errors import clip
from taumesh.scorer.v1 import scorer_pb2
from taumesh.user_sim.v1 import user_sim_pb2

log = logging.getLogger(__name__)

MAX_USER_TOOL_CALLS_PER_TURN = 10
"""Tool calls a simulated user may make before it must speak to the agent (a bound on a looping model)."""


CALL_ID_RULE = "The call was not run: give every tool call an id unique within the episode."
"""The end of the observation answering an agent's tool call whose id is empty or repeated."""

MODEL_RPC_ATTEMPTS = 2
"""Attempts at an agent or user-sim call. Those services already retry their model with backoff, so the
orchestrator retries only once more (a replica that died); retrying a provider that is down several times
over would multiply the load on it."""


class Transcript(BaseModel):
    """The four views of one conversation the loop keeps in step."""

    agent: list[ChatMessage] = Field(default_factory=list)
    """What the agent sees: user turns (without the user's private reasoning), its own turns, tool results."""
    user: list[ChatMessage] = Field(default_factory=list)
    """What the user simulator sees: its own turns (with reasoning) and the agent's texts."""
    traj: list[ChatMessage] = Field(default_factory=list)
    """τ-bench's trajectory: the system prompt (the agent's, else the policy), then everything the agent saw."""
    scored: list[ChatMessage] = Field(default_factory=list)
    """What the scorer replays: everything in time order, the user's own tool calls and their results too."""

    def continue_from(self, history: list[ChatMessage]) -> set[str]:
        """Start from a task's message history, each side seeing what τ² gives it (``get_init_state``).

        The agent (and ``traj``) sees the assistant's messages, the user's texts and the results of the assistant's
        calls; the user its own messages, the assistant's texts and the results of its own calls; the scorer all.
        Returns the ids of the user's own calls in it.
        """
        users_calls: set[str] = set()
        for message in history:
            if message.role == "user" and message.tool_calls:
                users_calls.update(call.id for call in message.tool_calls)
                self.user_acted(message, [])
            elif message.role == "user":
                self.user_said(message)
            elif message.role == "tool" and message.tool_call_id in users_calls:
                self.user_acted(message, [])
            elif message.role == "tool":
                self.tool_answered(message)
            else:
                self.agent_said(message)
                if not message.tool_calls:
                    self.agent_told_user(message)
        return users_calls

    def user_said(self, message: ChatMessage) -> None:
        self.user.append(message)
        visible = ChatMessage(role="user", content=message.content)
        self.agent.append(visible)
        self.traj.append(visible)
        self.scored.append(visible)

    def user_acted(self, message: ChatMessage, results: list[ChatMessage]) -> None:
        """The user called its own tools: only the user (and the scorer) see the calls and their results."""
        self.user += [message, *results]
        self.scored += [message.model_copy(update={"reasoning": ""}), *results]

    def agent_said(self, message: ChatMessage) -> None:
        self.agent.append(message)
        self.traj.append(message)
        self.scored.append(message)

    def agent_told_user(self, message: ChatMessage) -> None:
        self.user.append(ChatMessage(role="assistant", content=message.content))

    def tool_answered(self, message: ChatMessage) -> None:
        self.agent.append(message)
        self.traj.append(message)
        self.scored.append(message)


class EpisodeOutcome(BaseModel):
    """What one episode produced: its reward, reward info and trajectory."""

    task: TaskRef
    trial: int
    episode_id: str
    reward: float
    reward_info: dict[str, Any] | None
    termination: Termination
    steps: int
    traj: list[ChatMessage]
    agent_usage: Usage
    user_usage: Usage
    duration_s: float
    final_data_hash: str
    source: str
    required_outputs: list[str]
    checks: list[RewardCheck]
    """Every check of the task's reward basis, each with its outcome (empty when the episode was not evaluated)."""
    reward_basis: list[RewardBasis] = Field(default_factory=list)
    """The check kinds the reward is the product of (others are reported as diagnostics)."""
    gave_up: str = ""
    """Why the agent stopped, when it could not go on (termination ``agent_gave_up``)."""
    tool_errors: int = 0
    """Tool results (the agent's and the user's) that were errors."""
    judge_usage: Usage = Field(default_factory=Usage)
    """What the scorer's judge model spent on this episode's NL assertions (τ²)."""
    scored: list[ChatMessage] = Field(default_factory=list)
    """The whole conversation in time order, the user's own tool calls and their results too (``Transcript.scored``)."""
    history_messages: int = 0
    """How many messages of the task's message history (τ²) the episode continued from: the first messages of
    ``scored``, and of ``traj`` after its system prompt those the agent saw (0 when the task has none)."""


class EpisodeInterrupted(Exception):
    """An infrastructure fault ended an attempt at an episode, after it had spent ``agent_usage``/``user_usage``.

    The spend travels with the fault so that no model cost goes unaccounted when the episode is retried.
    """

    def __init__(self, error: grpc.aio.AioRpcError, agent_usage: Usage, user_usage: Usage) -> None:
        super().__init__(f"{error.code().name}: {error.details()}")
        self.error = error
        self.agent_usage = agent_usage
        self.user_usage = user_usage


class _Episode:
    """One episode in progress: the services, its env session, the transcript and the running totals."""

    def __init__(self, clients: ServiceClients, config: RunConfig, task: TaskRef, trial: int) -> None:
        self.clients, self.config, self.task = clients, config, task
        self.limits = config.limits  # the run's, else its domain's: RuntimeError when the run was never resolved
        self.tool_errors = 0
        self.context = EpisodeContext(task=task, trial=trial, episode_id=uuid.uuid4().hex)
        self.context_pb = episode_to_proto(self.context)
        self.agent_config = agent_settings_to_proto(config.agent)
        self.user_config = user_settings_to_proto(config.user)
        self.transcript = Transcript()
        self.agent_usage, self.user_usage = Usage(), Usage()
        self.steps, self.agent_steps, self.tool_calls, self.source = 0, 0, 0, "user"
        self.termination: Termination | None = None
        self.turns = tracing.Turns(config)
        self.env = EpisodeSession(clients, config, task, self.context.episode_id, self.name)
        self.gave_up = ""  # why the agent stopped, when it answered OUT_OF_RANGE
        self.call_ids: set[str] = set()  # the agent's tool call ids so far: each must be new
        self.judge_usage = Usage()  # what the scorer's judge model spent on this episode
        self.history_messages = 0  # how many messages of the task's message history the episode continued from
        self._wire: dict[int, tuple[ChatMessage, common_pb2.Message]] = {}
        self._agent_base = (self.session, agent_pb2.NextMessageRequest())  # rebuilt for each new session
        self.mcp: McpEpisode | None = None  # the episode's MCP endpoint, with --agent-tools mcp

    def wire(self, messages: list[ChatMessage]) -> list[common_pb2.Message]:
        """``messages`` as protobuf, each converted once per episode: every call resends the whole conversation."""
        converted = []
        for message in messages:
            known = self._wire.get(id(message))
            if known is None or known[0] is not message:  # an id is reused only once its message is gone
                known = self._wire[id(message)] = (message, message_to_proto(message))
            converted.append(known[1])
        return converted

    @property
    def name(self) -> str:
        """The episode in log lines: domain, task and trial."""
        return f"{self.task.domain} task {self.task.task_id} trial {self.context.trial}"

    @property
    def session(self) -> env_pb2.OpenSessionResponse:
        """The env's answer to the current session's OpenSession (policy, tools, the user's instruction and more)."""
        return self.env.opened

    async def open(self) -> env_pb2.OpenSessionResponse:
        """A fresh env session for the task; the policy starts the trajectory."""
        await self.env.open()
        self.transcript.traj.append(ChatMessage(role="system", content=self.session.policy))
        return self.session

    async def begin(self) -> None:
        """The episode's first turn: the user opens or answers the agent's greeting, or whoever's it is after a history.

        The domain's opening agent message (τ²'s greeting, ``OpenSessionResponse.opening_agent_message``) opens every
        view; the user's opening (StartConversation) answers it. After a task's message history, after its assistant
        text (or a result of the user's own call) the user replies to that conversation; after a user's text the
        agent answers (unless the user stopped).
        """
        history = [message_from_proto(message) for message in self.session.history]
        if not history:
            if self.session.opening_agent_message:  # τ²'s greeting: every view starts with it, then the user opens
                greeting = ChatMessage(role="assistant", content=self.session.opening_agent_message)
                self.transcript.continue_from([greeting])
            await self.user_opens()
            return
        user_called = self.transcript.continue_from(history)
        self.history_messages = len(history)
        self.call_ids.update(call.id for message in history for call in message.tool_calls)  # taken: never reused
        last = history[-1]
        if (last.role == "assistant" and not last.tool_calls) or (
            last.role == "tool" and last.tool_call_id in user_called
        ):
            await self.user_speaks(*await self.ask_user())
        elif last.role == "user" and self.domain_user_stop(last, opening=False):
            self.termination = "user_stop"

    async def user_opens(self) -> None:
        """The simulated user's first message (after any tool calls of its own)."""
        request = user_sim_pb2.StartConversationRequest(
            config=self.user_config,
            instruction=self.session.user_instruction,
            episode=self.context_pb,
            tools=self.session.user_tools,
            stop_tokens=self.session.user_stop_tokens,
        )
        with tracing.user_turn(self.config.user, "start") as span:
            started: user_sim_pb2.StartConversationResponse = await with_retries(
                partial(self.clients.user.StartConversation, request, timeout=self.config.model_timeout),
                attempts=MODEL_RPC_ATTEMPTS,
            )
            message = message_from_proto(started.message, role="user")
            span.replied(message, usage_from_proto(started.usage))
        self.user_usage += usage_from_proto(started.usage)
        await self.user_speaks(message, stop=started.stop, opening=True)

    async def user_speaks(self, message: ChatMessage, stop: bool, opening: bool = False) -> None:
        """Take the user's message; while it calls the user's own tools, run them and ask the user again."""
        for _ in range(MAX_USER_TOOL_CALLS_PER_TURN):
            if not message.tool_calls or self.termination is not None:
                break
            results = [
                await self.run_tool(call.model_copy(update={"requestor": "user"})) for call in message.tool_calls
            ]
            self.transcript.user_acted(message, results)
            if self.termination is not None:
                return
            message, stop = await self.ask_user()
        self.transcript.user_said(message)
        if stop or self.domain_user_stop(message, opening):
            self.termination = "user_stop"

    def domain_user_stop(self, message: ChatMessage, opening: bool) -> bool:
        """Whether the user's text holds one of the domain's stop tokens (``OpenSessionResponse.user_stop_tokens``).

        Checked whatever the user-sim's ``stop`` said (τ²'s ``UserSimulator.is_stop``, τ-bench's ``env.step``); the
        opening only where the domain says so (τ²), as τ-bench never checks it. A session opened by an env that
        sends no tokens is checked for ``###STOP###`` alone.
        """
        if message.tool_calls or (opening and not self.session.user_opening_stops):
            return False
        tokens = self.session.user_stop_tokens or (STOP_TOKEN,)
        return any(token in message.content for token in tokens)

    async def ask_user(self) -> tuple[ChatMessage, bool]:
        """The user's answer to the last message of its conversation (the agent's, or its own tool's result)."""
        request = user_sim_pb2.ReplyRequest(
            config=self.user_config,
            instruction=self.session.user_instruction,
            conversation=self.wire(self.transcript.user),
            episode=self.context_pb,
            tools=self.session.user_tools,
            stop_tokens=self.session.user_stop_tokens,
        )
        with tracing.user_turn(self.config.user, "reply") as span:
            reply: user_sim_pb2.ReplyResponse = await with_retries(
                partial(self.clients.user.Reply, request, timeout=self.config.model_timeout),
                attempts=MODEL_RPC_ATTEMPTS,
            )
            message = message_from_proto(reply.message, role="user")
            span.replied(message, usage_from_proto(reply.usage), reply.stop)
        self.user_usage += usage_from_proto(reply.usage)
        return message, reply.stop

    async def agent_answers(self) -> ChatMessage:
        """The agent's next message, given the whole conversation so far."""
        if self._agent_base[0] is not self.session:  # policy and tools: copied in C, not rebuilt, on each call
            base = agent_pb2.NextMessageRequest(
                episode=self.context_pb, policy=self.session.policy, tools=self.session.tools, config=self.agent_config
            )
            self._agent_base = (self.session, base)
        request = agent_pb2.NextMessageRequest()
        request.CopyFrom(self._agent_base[1])
        request.conversation.extend(self.wire(self.transcript.agent))
        if self.config.agent_tools == "mcp":
            self.serve_tools_over_mcp(request)
        self.agent_steps += 1
        with tracing.agent_step(self.config.agent, self.context, self.agent_steps) as span:
            answer: agent_pb2.NextMessageResponse = await with_retries(
                partial(self.clients.agent.NextMessage, request, timeout=self.config.model_timeout),
                attempts=MODEL_RPC_ATTEMPTS,
            )
            for call in answer.message.tool_calls:
                call.requestor = common_pb2.REQUESTOR_ASSISTANT  # the agent's calls are the agent's
            message = message_from_proto(answer.message, role="assistant")  # whatever role an agent sent
            span.answered(message, usage_from_proto(answer.usage))
        self.agent_usage += usage_from_proto(answer.usage)
        if answer.system_prompt:  # τ-bench records the prompt the agent gave its model, not the bare policy
            self.transcript.traj[0] = ChatMessage(role="system", content=answer.system_prompt)
        if self.mcp is not None:
            self.take_mcp_calls()
        self.transcript.agent_said(message)
        return message

    def serve_tools_over_mcp(self, request: agent_pb2.NextMessageRequest) -> None:
        """Give the agent its episode's MCP endpoint instead of the tools (bound at its first turn)."""
        if self.mcp is None:
            self.mcp = bind_episode(self.session.session_id, self.context.episode_id, list(self.session.tools))
            if self.mcp is None:
                raise RuntimeError("--agent-tools mcp needs the run's MCP gateway (mcp_agent.serving_mcp)")
        self.mcp.follow(self.session.session_id)  # a rebuilt session has a new id
        del request.tools[:]
        request.mcp_url = self.mcp.url

    def take_mcp_calls(self) -> None:
        """The calls the agent made over MCP while answering: each one step, in the trajectory in the order it ran."""
        assert self.mcp is not None
        for recorded in self.mcp.new_calls():
            call = tool_call_from_proto(recorded.tool_call)
            self.steps += 1
            self.tool_calls += 1
            self.source = call.name
            self.call_ids.add(call.id)
            self.env.ran(recorded.tool_call, recorded.answer)
            self.transcript.agent_said(ChatMessage(role="assistant", tool_calls=[call]))
            self.transcript.tool_answered(
                ChatMessage(role="tool", content=recorded.answer.observation, tool_call_id=call.id, name=call.name)
            )
            self.took(recorded.answer.status)

    async def run_tools(self, calls: list[ToolCall]) -> None:
        """Run the agent's tool calls in order, each one step, until one ends the episode."""
        for call in calls:
            if self.steps >= self.limits.max_steps:
                return
            self.steps += 1
            self.source = call.name
            problem = self.call_id_problem(call.id)
            if problem:  # the agent's mistake: answered like a bad argument, never run
                self.transcript.tool_answered(
                    ChatMessage(role="tool", content=problem, tool_call_id=call.id, name=call.name)
                )
                continue
            self.transcript.tool_answered(await self.run_tool(call))
            if self.termination is not None:
                return

    def call_id_problem(self, call_id: str) -> str:
        """Why an agent's tool call id is unusable (empty, or used before in this episode), or ""."""
        if not call_id:
            return f"Error: tool call id is empty. {CALL_ID_RULE}"
        if call_id in self.call_ids:
            return f"Error: tool call id {clip(call_id, 64)!r} was already used in this episode. {CALL_ID_RULE}"
        self.call_ids.add(call_id)
        return ""

    async def run_tool(self, call: ToolCall) -> ChatMessage:
        """Run one tool call in the env session (for its requestor); a tool that ends the episode says so."""
        self.tool_calls += 1
        tool_call = tool_call_to_proto(call)
        request_id = f"{self.context.episode_id}:{self.tool_calls}"  # a retried call runs once
        with tracing.tool_call(call, self.session.session_id) as span:
            result = await self.env.call_tool(tool_call, request_id)
            status = result.status
            span.answered(
                result.observation,
                error=status == env_pb2.TOOL_CALL_STATUS_ERROR,
                done=status == env_pb2.TOOL_CALL_STATUS_TERMINATED,
                aborted=status == env_pb2.TOOL_CALL_STATUS_ABORTED,
            )
        self.took(status)
        return ChatMessage(role="tool", content=result.observation, tool_call_id=call.id, name=call.name)

    def took(self, status: env_pb2.ToolCallStatus.ValueType) -> None:
        """Count a tool result's error; end the episode when the tool (or the error limit) ends it."""
        if status == env_pb2.TOOL_CALL_STATUS_ERROR:
            self.tool_errors += 1  # τ²: every error counts, consecutive or not
        if status == env_pb2.TOOL_CALL_STATUS_ABORTED:
            self.termination = "env_abort"
        elif self.limits.max_errors is not None and self.tool_errors >= self.limits.max_errors:
            self.termination = "too_many_errors"  # scored 0, as τ² does
        elif status == env_pb2.TOOL_CALL_STATUS_TERMINATED:
            self.termination = "terminate_tool"

    async def user_replies(self, message: ChatMessage) -> None:
        """Send the agent's text to the user and take the reply (one step)."""
        self.steps += 1
        self.source = "user"
        self.transcript.agent_told_user(message)
        reply, stop = await self.ask_user()
        await self.user_speaks(reply, stop)

    async def play(self) -> None:
        """The turn loop: agent steps until the user stops, a tool ends the episode, or the steps run out."""
        await self.begin()
        while self.steps < self.limits.max_steps and self.termination is None:
            with self.turns.step():
                try:
                    message = await self.agent_answers()
                except grpc.aio.AioRpcError as exc:
                    if exc.code() != grpc.StatusCode.OUT_OF_RANGE:
                        raise
                    self.termination = "agent_gave_up"  # the agent's failure: scored as it stands
                    self.gave_up = exc.details() or "agent cannot continue"
                    break
                if self.termination is not None:  # a tool it called over MCP ended the episode
                    break
                if message.tool_calls:
                    await self.run_tools(message.tool_calls)
                    continue
                await self.user_replies(message)
                self.turns.end()  # the user answered: the next agent step opens a new turn
        self.turns.end()

    async def score(self) -> tuple[Score, str]:
        """The final state from the env and the scorer's verdict: (score, final data hash)."""
        rpc = self.config.rpc_timeout
        with tracing.scoring() as span:
            final = await self.env.final_state()
            request = scorer_pb2.ScoreEpisodeRequest(
                task=task_ref_to_proto(self.task),
                termination=termination_to_proto(self.termination or "max_steps"),
                final_data_hash=final.data_hash,
                conversation=self.wire(self.transcript.scored),
                grader=GRADERS[self.config.grader],
            )
            judged = bool(self.config.judge.model)
            if judged:  # τ²'s NL assertions: the scorer asks this model, and may retry it
                request.judge.CopyFrom(model_to_proto(self.config.judge))
            response: scorer_pb2.ScoreEpisodeResponse = await with_retries(
                partial(self.clients.scorer.ScoreEpisode, request, timeout=self.config.model_timeout if judged else rpc)
            )
            self.judge_usage = usage_from_proto(response.judge_usage)
            score = score_from_proto(response)
            span.scored(score.reward, final.data_hash, score.tau_bench_reward_info())
        return score, final.data_hash

    async def close(self) -> None:
        """End the episode's turns and MCP endpoint, and close its env session."""
        self.turns.end()
        if self.mcp is not None:
            self.mcp.close()
        await self.env.close()


async def run_episode(clients: ServiceClients, config: RunConfig, task: TaskRef, trial: int) -> EpisodeOutcome:
    """Play one episode to its end and score it. An infrastructure fault raises :class:`EpisodeInterrupted`.

    A ``config`` not yet resolved against its domain (:func:`~taumesh.orchestrator.domain_info.resolve_domain`)
    is resolved first. With ``config.max_errors``, the episode ends (termination ``too_many_errors``) at that many
    tool results that are errors, counted over the whole episode as τ² counts them.
    """
    started = time.monotonic()
    if config.run_defaults is None:  # played alone, not by a resolved run: the domain's own limits, asked here
        try:
            config, _ = await resolve_domain(clients, config)
        except grpc.aio.AioRpcError as exc:
            raise EpisodeInterrupted(exc, Usage(), Usage()) from exc
    episode = _Episode(clients, config, task, trial)
    try:
        await episode.open()
        try:
            await episode.play()
            score, final_hash = await episode.score()
        finally:
            await episode.close()
    except grpc.aio.AioRpcError as exc:
        raise EpisodeInterrupted(exc, episode.agent_usage, episode.user_usage) from exc
    return EpisodeOutcome(
        task=task,
        trial=trial,
        episode_id=episode.context.episode_id,
        reward=score.reward,
        reward_info=score.tau_bench_reward_info(),
        termination=episode.termination or "max_steps",
        steps=episode.steps,
        traj=episode.transcript.traj,
        agent_usage=episode.agent_usage,
        user_usage=episode.user_usage,
        duration_s=time.monotonic() - started,
        final_data_hash=final_hash,
        source=episode.source,
        required_outputs=score.required_outputs,
        checks=score.checks,
        reward_basis=score.reward_basis,
        gave_up=episode.gave_up,
        tool_errors=episode.tool_errors,
        judge_usage=episode.judge_usage,
        scored=episode.transcript.scored,
        history_messages=episode.history_messages,
    )
