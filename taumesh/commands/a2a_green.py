"""taumesh as an A2A green agent: an assessment request names a purple agent and a run config; the benchmark runs.

The request (a data part, or its JSON as text) follows AgentBeats' assessment request::

    {"participants": {"agent": "http://purple:9009"},
     "config": {"domain": "retail", "split": "test", "task_ids": [0, 1], "num_trials": 1, "user_strategy": "scripted"}}

``task_ids`` are read as ``taumesh run --task-ids`` reads them: an integer is an index in the split, a text the split's
task id (τ²'s ``"task_001"``); an id the split lacks fails the task before any episode, naming some ids it has.

The run goes through the orchestrator and the services (started in this process on loopback), with agent strategy
``a2a`` against the purple agent, whose URL the operator must allow as an agent (``TAUMESH_ALLOWED_AGENT_URLS`` or
``taumesh serve a2a --allow-agent``); a ``user_api_base`` must be an allowed model endpoint
(``TAUMESH_ALLOWED_API_BASES``): it receives the server's API keys, an agent URL never does. Progress streams as
``working`` status updates (the run's progress lines); the end is an artifact ``results``: a text summary, a data
part with pass^k, and the results file itself.

Each caller (see :mod:`taumesh.commands.a2a_callers`) runs at most ``per_caller`` evaluations at once and the server
``in_all``; a request over either is rejected, saying which. CancelTask stops a running evaluation: its asyncio task
is cancelled, the run's services stop, and the task ends ``canceled``.
"""

from __future__ import annotations

import asyncio
import io
import json
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any, Literal

from a2a.helpers import get_data_parts, new_data_part, new_raw_part, new_text_message, new_text_part
from a2a.server.agent_execution import AgentExecutor, RequestContext
from a2a.server.events import EventQueue
from a2a.server.tasks import TaskUpdater
from a2a.types.a2a_pb2 import (
    AgentCapabilities,
    AgentCard,
    AgentInterface,
    AgentSkill,
    HTTPAuthSecurityScheme,
    Message,
    SecurityRequirement,
    SecurityScheme,
    StringList,
    Task,
    TaskState,
    TaskStatus,
)
from pydantic import BaseModel, ConfigDict, Field, ValidationError
from rich.console import Console

from taumesh.llm.access import current_grants
from taumesh.orchestrator.config import RunConfig
from taumesh.orchestrator.options import RunOptions
from taumesh.rpc.errors import RpcError
from taumesh.settings import RunSettings
from taumesh.stats import is_success

EXAMPLE_REQUEST = {
    "participants": {"agent": "http://127.0.0.1:9009"},
    "config": {
        "domain": "retail",
        "split": "test",
        "task_ids": [0, 1, 2],
        "num_trials": 1,
        "user_strategy": "scripted",
    },
}


class EvalConfig(BaseModel):
    """What to run against the purple agent."""

    model_config = ConfigDict(extra="forbid")

    domain: str = "retail"
    split: str | None = None
    task_ids: list[int | Annotated[str, Field(min_length=1, max_length=200)]] | None = None
    """As ``taumesh run --task-ids``: an integer is an index in the split; a text is the split's task id (τ²'s
    ``task_001``), or, when no task has that id, the index it spells. An id the split lacks fails the run unplayed."""
    start_index: int = Field(default=0, ge=0)
    end_index: int = -1
    num_trials: int = Field(default=1, ge=1, le=32)
    user_strategy: str = RunSettings.model_fields["user_strategy"].default
    """As ``taumesh run --user-strategy`` (its default too: ``llm``); ``scripted`` plays without a model."""
    user_model: str = RunSettings.model_fields["user_model"].default
    user_model_provider: str = ""
    user_api_base: str = ""
    transport: str = "a2a"
    """How to reach the purple agent: ``jsonrpc``, ``grpc``, ``http+json``, or ``a2a`` (what its card prefers)."""
    max_concurrency: int = Field(default=4, ge=1, le=64)
    seed: int | None = None
    """Seeds the task order and the models; None: the domain's own (τ-bench's 10, τ²'s 300)."""
    tasks: Literal["all", "certified"] = "all"
    """As ``taumesh run --tasks``: certified plays only the tasks the stored audit of the data flags nothing on."""
    grader: Literal["faithful", "strict"] = "faithful"
    """As ``taumesh run --grader``: faithful is the benchmark's own grading; strict the corrected one."""


class AssessmentRequest(BaseModel):
    """AgentBeats' assessment request: the participants by role, and the config."""

    model_config = ConfigDict(extra="forbid")

    participants: dict[str, str] = Field(min_length=1)
    config: EvalConfig = Field(default_factory=EvalConfig)

    def purple_url(self) -> str:
        """The agent under test: the ``agent`` participant, or the only one."""
        if "agent" in self.participants:
            return self.participants["agent"]
        if len(self.participants) == 1:
            return next(iter(self.participants.values()))
        raise ValueError(f"participants name no 'agent' among {sorted(self.participants)}")


def parse_request(message: Message) -> AssessmentRequest:
    """The assessment request a message carries (data part first, else its text as JSON); ValueError if none."""
    for data in get_data_parts(message.parts):
        if isinstance(data, dict) and "participants" in data:
            return AssessmentRequest.model_validate(data)
    text = "\n".join(part.text for part in message.parts if part.HasField("text")).strip()
    try:
        return AssessmentRequest.model_validate_json(text)
    except ValidationError as exc:
        if not text:
            raise ValueError("the message holds no assessment request (participants and config)") from exc
        raise


class LineSink(io.TextIOBase):
    """A file whose complete lines go to ``emit``: what the run prints becomes status updates."""

    def __init__(self, emit: Callable[[str], None]) -> None:
        self.emit, self.pending = emit, ""

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        self.pending += text
        *lines, self.pending = self.pending.split("\n")
        for line in lines:
            if line.strip():
                self.emit(line.rstrip())
        return len(text)


class EvaluationLimits(BaseModel, frozen=True):
    """How many evaluations run at once."""

    per_caller: int = Field(default=2, ge=1)
    in_all: int = Field(default=4, ge=1)


class EvaluationExecutor(AgentExecutor):
    """Runs one benchmark per request, in this process's own services, within :class:`EvaluationLimits`."""

    def __init__(self, data_dir: Path, log_dir: Path, limits: EvaluationLimits | None = None) -> None:
        self.data_dir, self.log_dir = data_dir, log_dir
        self.limits = limits or EvaluationLimits()
        self.running: dict[str, set[str]] = {}
        """The task ids of the evaluations running (or about to), by caller; a canceled one leaves at its cancel."""
        self.updates: dict[str, set[asyncio.Future[None]]] = {}
        """Progress updates scheduled and not sent yet, by task id."""
        self.canceled: set[str] = set()
        """Tasks whose cancel has begun: no progress update of theirs may follow their ``canceled`` status."""

    def _over_limit(self, caller: str) -> str | None:
        """Why one more evaluation of ``caller`` is refused, or None."""
        mine, everyone = len(self.running.get(caller, ())), sum(len(tasks) for tasks in self.running.values())
        if mine >= self.limits.per_caller:
            return f"{mine} evaluations of this caller are running (limit {self.limits.per_caller} per caller)"
        if everyone >= self.limits.in_all:
            return f"{everyone} evaluations are running (limit {self.limits.in_all} in all)"
        return None

    async def execute(self, context: RequestContext, event_queue: EventQueue) -> None:
        message = context.message
        assert message is not None  # the SDK sends execute() only with a message
        caller = context.call_context.user.user_name
        busy = self._over_limit(caller)  # decided and counted with no await between: no two take the last place
        task_id = context.task_id or ""
        if busy is None:
            self.running.setdefault(caller, set()).add(task_id)
        try:
            await self._execute(message, context, event_queue, busy)
        finally:
            if busy is None:
                self._release(task_id)

    def _release(self, task_id: str) -> None:
        """The evaluation ``task_id`` no longer counts against its caller's or the overall limit."""
        for caller, tasks in list(self.running.items()):
            tasks.discard(task_id)
            if not tasks:
                del self.running[caller]

    async def _execute(self, message: Message, context: RequestContext, queue: EventQueue, busy: str | None) -> None:
        task_id, context_id = context.task_id or "", context.context_id or ""
        await queue.enqueue_event(
            Task(id=task_id, context_id=context_id, status=TaskStatus(state=TaskState.TASK_STATE_SUBMITTED))
        )
        updater = TaskUpdater(queue, task_id, context_id)
        if busy is not None:
            await updater.reject(self._say(updater, f"request refused: {busy}; wait for one to end, or cancel it"))
            return
        try:
            request = parse_request(message)
            url = request.purple_url()
            grants = current_grants()
            grants.check_agent_url(url, "participants.agent")
            grants.check_api_base(request.config.user_api_base, "config.user_api_base")  # it gets the keys
        except (ValueError, RpcError) as exc:
            await updater.reject(self._say(updater, f"request refused: {exc}"))
            return
        config = self._config(request, url)
        from taumesh.orchestrator.run.preflight import run_problems

        problems = await asyncio.to_thread(run_problems, config, False)  # taumesh run's own pre-flight
        if problems:
            why = "; ".join(f"config.{p.setting}: {p.message}" for p in problems)
            await updater.reject(self._say(updater, f"request refused: {why}"))
            return
        await updater.start_work(self._say(updater, f"evaluating {url} on {request.config.domain}"))
        await self._run(config, request, url, updater)

    def _config(self, request: AssessmentRequest, url: str) -> RunConfig:
        """The run the request asks for, against the purple agent at ``url``, built as ``taumesh run`` builds it."""
        cfg = request.config
        options = RunOptions(
            env=cfg.domain,
            task_split=cfg.split,
            task_ids=cfg.task_ids,
            start_index=cfg.start_index,
            end_index=cfg.end_index,
            num_trials=cfg.num_trials,
            agent_strategy="a2a",
            model=cfg.transport,  # the a2a agent's model names how to reach the purple agent
            api_base=url,
            user_strategy=cfg.user_strategy,
            user_model=cfg.user_model,
            user_model_provider=cfg.user_model_provider,
            user_api_base=cfg.user_api_base,
            max_concurrency=cfg.max_concurrency,
            seed=cfg.seed,
            tasks=cfg.tasks,
            grader=cfg.grader,
            data_dir=self.data_dir,
            log_dir=self.log_dir,
        )
        return options.run_config()

    async def _run(self, config: RunConfig, request: AssessmentRequest, url: str, updater: TaskUpdater) -> None:
        from taumesh.domains import DataError
        from taumesh.orchestrator.benchmark import run_benchmark
        from taumesh.orchestrator.domain_info import ConfigError

        loop = asyncio.get_running_loop()
        pending = self.updates.setdefault(updater.task_id, set())

        def emit(line: str) -> None:  # called from the run's printing: schedule the update, keep the order
            if updater.task_id in self.canceled:  # a line printed before the cancel, emitted after it: dropped
                return
            future = asyncio.ensure_future(
                updater.update_status(TaskState.TASK_STATE_WORKING, self._say(updater, line))
            )
            pending.add(future)

        def later(line: str) -> None:
            loop.call_soon(emit, line)

        sink: Any = LineSink(later)  # a text file as rich writes to it
        console = Console(file=sink, force_terminal=False, width=240)
        try:
            try:
                summary = await run_benchmark(config, console=console)
            except (ConfigError, DataError) as exc:
                await asyncio.sleep(0)
                await asyncio.gather(*pending, return_exceptions=True)  # a cancel may have dropped some
                await updater.failed(self._say(updater, f"the run cannot start: {exc}"))
                return
            await asyncio.sleep(0)
            await asyncio.gather(*pending, return_exceptions=True)  # a cancel may have dropped some
            await updater.add_artifact(results_parts(summary, url, request), name="results")
            await updater.complete(self._say(updater, f"done: pass^1 {summary.pass_hat_k.get(1, 0.0):.4f}"))
        finally:
            self.updates.pop(updater.task_id, None)
            self.canceled.discard(updater.task_id)

    @staticmethod
    def _say(updater: TaskUpdater, text: str) -> Message:
        return new_text_message(text, context_id=updater.context_id, task_id=updater.task_id)

    async def cancel(self, context: RequestContext, event_queue: EventQueue) -> None:
        """Say ``canceled``; the SDK then cancels the asyncio task running :meth:`execute` (the run stops there).

        The run's progress updates not sent yet are dropped first, and none is scheduled after: under load one came
        after ``canceled`` and put the task back to ``working`` for good.
        """
        task_id = context.task_id or ""
        self._release(task_id)  # its place is free at once, not when the SDK has cancelled the run's task
        if task_id in self.updates:  # its run is going on (kept until the run ends, which clears both)
            self.canceled.add(task_id)
            for future in self.updates[task_id]:
                future.cancel()
        updater = TaskUpdater(event_queue, task_id, context.context_id or "")
        await updater.cancel(self._say(updater, "canceled by the caller: the evaluation stopped"))


def results_parts(summary: Any, url: str, request: AssessmentRequest) -> list[Any]:
    """The artifact: a summary line, pass^k and counts as data, and the results file as JSON bytes."""
    scored = [r for r in summary.results if not r.is_error]
    data = {
        "participant": url,
        "domain": request.config.domain,
        "pass_hat_k": {str(k): v for k, v in sorted(summary.pass_hat_k.items())},
        "average_reward": summary.average_reward,
        "episodes": len(summary.results),
        "scored": len(scored),
        "errors": len(summary.results) - len(scored),
        "solved": sum(1 for r in scored if r.reward is not None and is_success(r.reward)),
        "results_file": summary.results_path.name,
    }
    passes = ", ".join(f"pass^{k} {v:.4f}" for k, v in sorted(summary.pass_hat_k.items()))
    text = f"{data['solved']}/{data['episodes']} episodes solved; {passes}"
    body = json.dumps([r.model_dump(mode="json") for r in scored], indent=1).encode("utf-8")
    return [
        new_text_part(text),
        new_data_part(data),
        new_raw_part(body, media_type="application/json", filename=summary.results_path.name),
    ]


def agent_card(http_url: str, grpc_target: str | None, version: str, bearer: bool = False) -> AgentCard:
    """The card: what this green agent evaluates and how to ask (with ``bearer``: a caller key, as a bearer token)."""
    interfaces = [AgentInterface(url=http_url, protocol_binding="JSONRPC", protocol_version="1.0")]
    if grpc_target:
        interfaces.append(AgentInterface(url=grpc_target, protocol_binding="GRPC", protocol_version="1.0"))
    security: dict[str, Any] = {}
    if bearer:
        scheme = HTTPAuthSecurityScheme(scheme="Bearer", description="a caller key the operator gave you")
        security = {
            "security_schemes": {"caller_key": SecurityScheme(http_auth_security_scheme=scheme)},
            "security_requirements": [SecurityRequirement(schemes={"caller_key": StringList()})],
        }
    return AgentCard(
        name="taumesh",
        description=(
            "τ-bench evaluation (tool-agent-user interaction in retail, airline and τ² domains): plays each task "
            "with a simulated user against the purple agent over A2A and reports the reward per episode and pass^k."
        ),
        version=version,
        supported_interfaces=interfaces,
        capabilities=AgentCapabilities(streaming=True),
        default_input_modes=["application/json", "text/plain"],
        default_output_modes=["application/json", "text/plain"],
        skills=[
            AgentSkill(
                id="tau-bench-evaluation",
                name="τ-bench evaluation",
                description=(
                    "Send {participants: {agent: URL}, config: {domain, split, task_ids, num_trials, user_strategy, "
                    "user_model, transport, tasks (all|certified), grader (faithful|strict)}}; progress comes as "
                    "status updates, the results as an artifact."
                ),
                tags=["evaluation", "tau-bench", "green-agent"],
                examples=[json.dumps(EXAMPLE_REQUEST)],
            )
        ],
        **security,
    )
