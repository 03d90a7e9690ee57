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

Each job of the loop is its own collaborator: the transcript (:mod:`.transcript`), the steps against the limits
(:mod:`.progress`), the spend (:mod:`.usage`), the agent's turn (:mod:`.agent_turn`), the user's turn
(:mod:`.user_turn`), the tool calls (:mod:`.tool_calls`) and the scoring (:mod:`.scoring`); :class:`_Episode` takes
the turns between them.

The env session is the episode's :class:`~taumesh.orchestrator.episode.env_session.EpisodeSession`: every env call goes
to the replica holding it, and a session lost with its replica is rebuilt elsewhere by replaying the tool calls.
"""

from __future__ import annotations

import logging
import time
import uuid
from typing import Any

import grpc
from pydantic import BaseModel, Field

from taumesh.convert import message_from_proto
from taumesh.models import ChatMessage, EpisodeContext, RewardBasis, RewardCheck, TaskRef, Termination, Usage
from taumesh.orchestrator import tracing
from taumesh.orchestrator.clients import ServiceClients
from taumesh.orchestrator.config import RunConfig
from taumesh.orchestrator.domain_info import resolve_domain
from taumesh.orchestrator.episode.agent_turn import AgentTurn
from taumesh.orchestrator.episode.env_session import EpisodeSession
from taumesh.orchestrator.episode.progress import Progress
from taumesh.orchestrator.episode.scoring import Scored, score_episode
from taumesh.orchestrator.episode.tool_calls import ToolCalls
from taumesh.orchestrator.episode.transcript import Transcript, WireMessages
from taumesh.orchestrator.episode.usage import EpisodeUsage, UserChecks
from taumesh.orchestrator.episode.user_turn import UserTurn, says_stop

log = logging.getLogger(__name__)

MAX_USER_TOOL_CALLS_PER_TURN = 10
"""Tool calls a simulated user may make before it must speak to the agent (a bound on a looping model)."""


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
    user_check_usage: Usage = Field(default_factory=Usage)
    """What the strict user's checks of its turns spent, apart from ``user_usage``."""
    user_checks: UserChecks = Field(default_factory=UserChecks)
    """How the strict user's checks went (all 0 for a user that checks nothing)."""
    scored: list[ChatMessage] = Field(default_factory=list)
    """The whole conversation in time order, the user's own tool calls and their results too (``Transcript.scored``)."""
    history_messages: int = 0
    """How many messages of the task's message history (τ²) the episode continued from: the first messages of
    ``scored``, and of ``traj`` after its system prompt those the agent saw (0 when the task has none)."""
    env_session_rebuilds: int = 0
    """How many times the episode's env session was lost (its replica died or drained) and rebuilt on another
    session by replaying its tool calls (:meth:`EpisodeSession.rebuild`); 0 when nothing was lost."""


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
    """One episode in progress: takes the turns between the user, the agent and the tools until the episode ends."""

    def __init__(self, clients: ServiceClients, config: RunConfig, task: TaskRef, trial: int) -> None:
        self.clients, self.config = clients, config
        episode_id = uuid.uuid4().hex  # also the rollout id a model gateway files the agent's calls under
        self.context = EpisodeContext(
            task=task, trial=trial, episode_id=episode_id, rollout_token=config.rollout_token(episode_id)
        )
        self.env = EpisodeSession(clients, config, task, self.context.episode_id, self.name)
        self.transcript, self.wire = Transcript(), WireMessages()
        self.progress = Progress(config.limits)  # the run's, else its domain's: RuntimeError if never resolved
        self.usage = EpisodeUsage()
        self.tools = ToolCalls(self.env, self.transcript, self.progress)
        self.agent = AgentTurn(clients, config, self.context)
        self.user = UserTurn(clients, config, self.context)
        self.turns = tracing.Turns(config)
        self.history_messages = 0  # how many messages of the task's message history the episode continued from

    @property
    def name(self) -> str:
        """The episode in log lines: domain, task and trial."""
        return f"{self.context.task.domain} task {self.context.task.task_id} trial {self.context.trial}"

    async def open(self) -> None:
        """A fresh env session for the task; the policy starts the trajectory."""
        await self.env.open()
        self.transcript.traj.append(ChatMessage(role="system", content=self.env.opened.policy))

    async def begin(self) -> None:
        """The episode's first turn: the user opens or answers the agent's greeting, or whoever's it is after a history.

        The domain's opening agent message (τ²'s greeting, ``OpenSessionResponse.opening_agent_message``) opens every
        view; the user's opening (StartConversation) answers it. After a task's message history, after its assistant
        text (or a result of the user's own call) the user replies to that conversation; after a user's text the
        agent answers (unless the user stopped).
        """
        session = self.env.opened
        history = [message_from_proto(message) for message in session.history]
        if not history:
            if session.opening_agent_message:  # τ²'s greeting: every view starts with it, then the user opens
                greeting = ChatMessage(role="assistant", content=session.opening_agent_message)
                self.transcript.continue_from([greeting])
            opening = await self.user.opens(session)
            self.usage.user += opening.usage
            self.usage.checked(opening.check, opening.check_usage)
            await self.user_speaks(opening.message, stop=opening.stop, opening=True)
            return
        user_called = self.transcript.continue_from(history)
        self.history_messages = len(history)
        self.tools.call_ids.update(call.id for message in history for call in message.tool_calls)  # never reused
        last = history[-1]
        if (last.role == "assistant" and not last.tool_calls) or (
            last.role == "tool" and last.tool_call_id in user_called
        ):
            await self.user_speaks(*await self.ask_user())
        elif last.role == "user" and says_stop(session, last, opening=False):
            self.progress.termination = "user_stop"

    async def user_speaks(self, message: ChatMessage, stop: bool, opening: bool = False) -> None:
        """Take the user's message; while it calls the user's own tools, run them and ask the user again."""
        for _ in range(MAX_USER_TOOL_CALLS_PER_TURN):
            if not message.tool_calls or self.progress.termination is not None:
                break
            results = [
                await self.tools.run(call.model_copy(update={"requestor": "user"})) for call in message.tool_calls
            ]
            self.transcript.user_acted(message, results)
            if self.progress.termination is not None:
                return
            message, stop = await self.ask_user()
        self.transcript.user_said(message)
        if stop or says_stop(self.env.opened, message, opening):
            self.progress.termination = "user_stop"

    async def ask_user(self) -> tuple[ChatMessage, bool]:
        """The user's answer to the last message of its conversation (the agent's, or its own tool's result)."""
        reply = await self.user.replies(self.env.opened, self.wire(self.transcript.user))
        self.usage.user += reply.usage
        self.usage.checked(reply.check, reply.check_usage)
        return reply.message, reply.stop

    async def agent_answers(self) -> ChatMessage:
        """The agent's next message, given the whole conversation so far, with its calls over MCP before it."""
        answer = await self.agent.answer(self.env.opened, self.wire(self.transcript.agent))
        self.usage.agent += answer.usage
        if answer.system_prompt:  # τ-bench records the prompt the agent gave its model, not the bare policy
            self.transcript.traj[0] = ChatMessage(role="system", content=answer.system_prompt)
        self.tools.ran_over_mcp(answer.mcp_calls)
        self.transcript.agent_said(answer.message)
        return answer.message

    async def user_replies(self, message: ChatMessage) -> None:
        """Send the agent's text to the user and take the reply (one step)."""
        self.progress.step("user")
        self.transcript.agent_told_user(message)
        reply, stop = await self.ask_user()
        await self.user_speaks(reply, stop)

    async def play(self) -> None:
        """The turn loop: agent steps until the user stops, a tool ends the episode, or the steps run out."""
        progress = self.progress
        await self.begin()
        while progress.steps_left and progress.termination is None:
            with self.turns.step():
                try:
                    message = await self.agent_answers()
                except grpc.aio.AioRpcError as exc:
                    if exc.code() != grpc.StatusCode.OUT_OF_RANGE:
                        raise
                    progress.termination = "agent_gave_up"  # the agent's failure: scored as it stands
                    progress.gave_up = exc.details() or "agent cannot continue"
                    break
                if progress.termination is not None:  # a tool it called over MCP ended the episode
                    break
                if message.tool_calls:
                    await self.tools.run_agents(message.tool_calls)
                    continue
                await self.user_replies(message)
                self.turns.end()  # the user answered: the next agent step opens a new turn
        self.turns.end()

    async def score(self) -> Scored:
        """The final state from the env and the scorer's verdict; the judge's spend is the episode's."""
        scored = await score_episode(
            self.clients,
            self.config,
            self.context.task,
            self.env,
            self.progress.termination or "max_steps",
            self.wire(self.transcript.scored),
        )
        self.usage.judge = scored.judge_usage
        return scored

    async def close(self) -> None:
        """End the episode's turns and MCP endpoint, and close its env session."""
        self.turns.end()
        self.agent.close()
        await self.env.close()

    def outcome(self, scored: Scored, duration_s: float) -> EpisodeOutcome:
        """What the episode produced, once scored."""
        score, progress, usage = scored.score, self.progress, self.usage
        return EpisodeOutcome(
            task=self.context.task,
            trial=self.context.trial,
            episode_id=self.context.episode_id,
            reward=score.reward,
            reward_info=score.tau_bench_reward_info(),
            termination=progress.termination or "max_steps",
            steps=progress.steps,
            traj=self.transcript.traj,
            agent_usage=usage.agent,
            user_usage=usage.user,
            duration_s=duration_s,
            final_data_hash=scored.final_data_hash,
            source=progress.source,
            required_outputs=score.required_outputs,
            checks=score.checks,
            reward_basis=score.reward_basis,
            gave_up=progress.gave_up,
            tool_errors=progress.tool_errors,
            judge_usage=usage.judge,
            user_check_usage=usage.user_check,
            user_checks=usage.user_checks,
            scored=self.transcript.scored,
            history_messages=self.history_messages,
            env_session_rebuilds=self.env.rebuilds,
        )


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
            scored = await episode.score()
        finally:
            await episode.close()
    except grpc.aio.AioRpcError as exc:
        raise EpisodeInterrupted(exc, episode.usage.agent, episode.usage.user) from exc
    return episode.outcome(scored, time.monotonic() - started)
