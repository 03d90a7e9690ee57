"""EnvService over gRPC: domains, tasks and sessions."""

from __future__ import annotations

import asyncio
import contextvars
import json
import logging
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from typing import Any

from taumesh.convert import (
    message_to_proto,
    run_defaults_to_proto,
    task_ref_from_proto,
    tool_call_from_proto,
    tool_schema_to_proto,
)
from taumesh.domains import VARIANT_SEPARATOR, Catalog, DataError, DomainNotRunnable, ToolCrash, parse_arguments
from taumesh.env.v1 import env_pb2, env_pb2_grpc
from taumesh.models import ToolSchema
from taumesh.rpc.errors import (
    DOMAIN_NOT_RUNNABLE_REASON,
    Context,
    FailedPrecondition,
    InvalidArgument,
    NotFound,
    clip,
    status_codes,
    wire_text,
)
from taumesh.rpc.server import TOOL_CALL_REQUEST_BYTES, Service
from taumesh.services.env.pages import Page, page_of
from taumesh.services.env.sessions import DEFAULT_IDLE_TIMEOUT, DEFAULT_MAX_SESSIONS, SessionStore

MAX_RUN_ID_CHARS = 256
"""The longest OpenSessionRequest.run_id taken (the orchestrator's are 32 hex digits)."""

log = logging.getLogger(__name__)

TOOL_WORKERS = 8
"""Calls of ``blocking`` tools (a sandboxed shell command) the env runs at once; more wait for a worker."""


class EnvServicer(env_pb2_grpc.EnvServiceServicer):
    """Serves the domains of one data directory."""

    def __init__(self, catalog: Catalog, sessions: SessionStore | None = None) -> None:
        self.catalog = catalog
        self.sessions = sessions if sessions is not None else SessionStore()  # an empty store is falsy
        self._domain_parts: dict[str, env_pb2.OpenSessionResponse] = {}
        self._initial_hashes: dict[tuple[str, str, str], str] = {}
        self._loading: dict[tuple[str, str], asyncio.Future[Any]] = {}
        self._tool_pool = ThreadPoolExecutor(max_workers=TOOL_WORKERS, thread_name_prefix="env-tool")

    def _domain(self, name: str, *, listing: bool = False) -> Any:
        """The domain ``name`` to run (to list only: whether or not it can run here); its errors as gRPC statuses."""
        try:
            return self.catalog.describe(name) if listing else self.catalog.get(name)
        except KeyError as exc:
            raise NotFound(str(exc.args[0]), reason="DOMAIN_NOT_FOUND", fields=[("domain", "unknown domain")]) from exc
        except DomainNotRunnable as exc:  # this env lacks a model or a sandbox the domain needs
            raise FailedPrecondition(str(exc), reason=DOMAIN_NOT_RUNNABLE_REASON) from exc
        except DataError as exc:
            raise NotFound(str(exc), reason="DOMAIN_DATA_MISSING") from exc

    async def _once(self, key: tuple[str, str], load: Callable[[], Any]) -> None:
        """Run ``load`` in a worker thread the first time ``key`` is asked for (once, however many callers wait).

        Reading a domain's data or tasks takes up to seconds; on the event loop it would stall every other call of
        the process (health checks, other episodes, the embedded orchestrator's progress). A failure is not kept:
        the next call tries again.
        """
        loading = self._loading.get(key)
        if loading is None:
            loading = self._loading[key] = asyncio.ensure_future(asyncio.to_thread(load))
        try:
            await asyncio.shield(loading)  # once done, the same future: no thread, no wait
        except Exception:
            self._loading.pop(key, None)
            raise

    @status_codes
    async def ListDomains(self, request: env_pb2.ListDomainsRequest, context: Context) -> env_pb2.ListDomainsResponse:
        domains = []
        wanted = set(request.describe_only)
        names = self.catalog.listed(wanted)  # a run's own domain alone imports only that plugin
        for name in [*names, *dict.fromkeys(v for v in request.variants if v not in names)]:
            if wanted and name not in wanted and name.partition(VARIANT_SEPARATOR)[0] not in wanted:
                domains.append(env_pb2.DomainInfo(name=name))  # named only: its tasks are not read
                continue
            try:
                domain = self._domain(name, listing=True)
            except NotFound:
                if name in names:
                    raise
                continue  # a variant asked for that this server does not know: left out, as documented
            splits = [
                env_pb2.SplitInfo(name=split, task_count=_task_count(domain, split))
                for split in domain.spec.splits
                if domain.has_split_file(split)
            ]
            domains.append(
                env_pb2.DomainInfo(
                    name=name,
                    splits=splits,
                    terminate_tools=sorted(domain.spec.terminate_tools),
                    data_release=domain.data_release or "",
                    variants=sorted(f"{name}{VARIANT_SEPARATOR}{key}" for key in domain.spec.variants()),
                    foreign_names=dict(domain.spec.foreign_names),
                    run_defaults=run_defaults_to_proto(
                        domain.spec.run_defaults,
                        domain.spec.run_defaults.split or (splits[0].name if splits else ""),
                        domain.spec.user_stop_tokens,
                    ),
                )
            )
        return env_pb2.ListDomainsResponse(domains=domains)

    @status_codes
    async def ListTasks(self, request: env_pb2.ListTasksRequest, context: Context) -> env_pb2.ListTasksResponse:
        domain = self._domain(request.domain)
        try:
            await self._once((domain.name, request.split), partial(domain.tasks, request.split))
            tasks = domain.tasks(request.split)
        except DataError as exc:
            raise _unreadable(exc) from exc
        except KeyError as exc:
            raise NotFound(str(exc.args[0]), reason="SPLIT_NOT_FOUND", fields=[("split", "unknown split")]) from exc
        page: Page = page_of(len(tasks), request.page_size, request.page_token, scope=f"{domain.name}/{request.split}")
        return env_pb2.ListTasksResponse(
            tasks=[
                env_pb2.TaskSummary(
                    task_id=task.id,
                    user_id=task.user_id,
                    instruction=task.instruction,
                    gold_action_count=len(task.actions),
                    output_count=len(task.outputs),
                    record_json=json.dumps(task.model_dump(mode="json")) if request.include_records else "",
                )
                for task in tasks[page.start : page.stop]
            ],
            next_page_token=page.next_token,
            total_size=len(tasks),
            policy=await self._policy(domain) if request.include_records else "",
        )

    async def _policy(self, domain: Any) -> str:
        """The domain's policy text, read once (off the event loop)."""
        try:
            await self._once((domain.name, "policy"), lambda: domain.policy)
        except DataError as exc:
            raise _unreadable(exc) from exc
        policy: str = domain.policy
        return policy

    @status_codes
    async def OpenSession(self, request: env_pb2.OpenSessionRequest, context: Context) -> env_pb2.OpenSessionResponse:
        if len(request.run_id) > MAX_RUN_ID_CHARS:
            raise InvalidArgument(f"run_id is at most {MAX_RUN_ID_CHARS} characters", fields=[("run_id", "too long")])
        ref = task_ref_from_proto(request.task)
        domain = self._domain(ref.domain)
        try:
            await self._once((domain.name, ref.split), partial(domain.tasks, ref.split))
            task = domain.find_task(ref.split, ref.task_id)
        except DataError as exc:
            raise _unreadable(exc) from exc
        except KeyError as exc:
            raise NotFound(str(exc.args[0]), reason="TASK_NOT_FOUND", fields=[("task", "unknown task")]) from exc
        try:
            await self._once((domain.name, ""), partial(_prepare, domain))
        except DataError as exc:
            raise _unreadable(exc) from exc
        session = domain.open_session(task)
        key = (domain.name, ref.split, ref.task_id)
        if key not in self._initial_hashes:  # a task's initial state is always the same: hash it once
            # a session that changed no record is the base data, whose hash the domain keeps
            self._initial_hashes[key] = domain.initial_hash if session.copied_records() == 0 else session.data_hash()
        response = env_pb2.OpenSessionResponse()
        response.CopyFrom(self._domain_part(domain))
        response.session_id = self.sessions.open(session, task, request.run_id)
        response.user_instruction = task.instruction
        own_policy = domain.spec.task_policy(domain.root, task)  # a task's own policy (τ³'s golden_retrieval)
        if own_policy is not None:
            response.policy = own_policy
        response.initial_data_hash = self._initial_hashes[key]
        # the conversation the episode continues (τ²'s message_history), if the task has one
        response.history.extend(message_to_proto(message) for message in domain.history(task))
        response.opening_agent_message = domain.opening_message(task) or ""  # τ²'s greeting; v1: the user opens
        return response

    def _domain_part(self, domain: Any) -> env_pb2.OpenSessionResponse:
        """The part of every OpenSession answer that is the domain's alone (policy, tools), built once."""
        part = self._domain_parts.get(domain.name)
        if part is None:
            part = env_pb2.OpenSessionResponse(
                policy=domain.policy,
                tools=_schemas(domain.tool_schemas),
                user_tools=_schemas(domain.user_tool_schemas),
                user_stop_tokens=domain.spec.user_stop_tokens,
                user_opening_stops=domain.spec.user_opening_stops,
            )
            self._domain_parts[domain.name] = part
        return part

    def _live(self, session_id: str) -> Any:
        if not session_id:
            raise InvalidArgument("session_id is required", fields=[("session_id", "required")])
        live = self.sessions.get(session_id)
        if live is None and self.sessions.was_reaped(session_id):
            # Same reason as any lost session, so clients rebuild it the same way; the message says why it went.
            raise NotFound(
                f"this session was reaped: it went unused longer than the env's idle timeout "
                f"({self.sessions.idle_timeout:g} s, --session-idle-timeout); open a new session and replay its calls",
                reason="SESSION_NOT_FOUND",
            )
        if live is None:
            # The id is a bearer token: it is not echoed. The reason tells a client to rebuild the session.
            raise NotFound(
                "no such session (closed, expired, or opened on another replica)", reason="SESSION_NOT_FOUND"
            )
        return live

    @status_codes
    async def CallTool(self, request: env_pb2.CallToolRequest, context: Context) -> env_pb2.CallToolResponse:
        live = self._live(request.session_id)
        call = tool_call_from_proto(request.tool_call)
        if not call.name:
            raise InvalidArgument("tool_call.name is required", fields=[("tool_call.name", "required")])
        fingerprint = request.tool_call.SerializeToString(deterministic=True)
        async with live.busy:  # a retry waits for its first call, then finds its answer
            if request.request_id and request.request_id in live.results:
                first_call, cached = live.results[request.request_id]
                if first_call != fingerprint:
                    raise InvalidArgument(
                        "request_id was already used for a different tool call; a retry must resend the same call",
                        reason="REQUEST_ID_REUSED",
                        fields=[("request_id", "reused for a different call")],
                    )
                answer: env_pb2.CallToolResponse = cached
                return answer
            arguments = parse_arguments(call.arguments)
            if isinstance(arguments, str):
                live.session.actions.append((call.name, {}))
                response = env_pb2.CallToolResponse(observation=arguments, status=env_pb2.TOOL_CALL_STATUS_ERROR)
            else:
                try:
                    step = await self._step(live.session, call.name, arguments, call.requestor)
                except ToolCrash as exc:
                    log.warning("%s: %s", call.name, exc)
                    response = env_pb2.CallToolResponse(
                        observation=clip(str(exc)), status=env_pb2.TOOL_CALL_STATUS_ABORTED
                    )
                else:
                    response = env_pb2.CallToolResponse(observation=wire_text(step.observation), status=_status(step))
            live.remember(request.request_id, fingerprint, response)
        return response

    async def _step(self, session: Any, name: str, arguments: dict[str, Any], requestor: Any) -> Any:
        """One tool call; a ``blocking`` tool's in the worker pool (the session stays busy until it is done)."""
        run = partial(session.domain.call_tool, session, name, arguments, requestor)
        tool = session.domain.tools_by_name.get(name)
        if tool is None or not tool.blocking:
            return run()
        done = asyncio.get_running_loop().run_in_executor(self._tool_pool, contextvars.copy_context().run, run)
        try:
            return await asyncio.shield(done)
        except asyncio.CancelledError:  # the caller gave up: the call still ends before the session's next one
            await asyncio.wait([done])
            raise

    @status_codes
    async def GetFinalState(
        self, request: env_pb2.GetFinalStateRequest, context: Context
    ) -> env_pb2.GetFinalStateResponse:
        live = self._live(request.session_id)
        async with live.busy:  # after the call in flight, if any
            final = env_pb2.GetFinalStateResponse(
                data_hash=live.session.data_hash(),
                tool_call_count=len(live.session.actions),
                copied_records=live.session.copied_records(),
            )
        if request.close_session:
            self.sessions.close(request.session_id)
        return final

    @status_codes
    async def CloseSession(
        self, request: env_pb2.CloseSessionRequest, context: Context
    ) -> env_pb2.CloseSessionResponse:
        if not request.session_id:
            raise InvalidArgument("session_id is required")
        self.sessions.close(request.session_id)
        return env_pb2.CloseSessionResponse()


def _schemas(schemas: list[dict[str, Any]]) -> list[Any]:
    """OpenAI function dicts as wire schemas, in order."""
    return [
        tool_schema_to_proto(
            ToolSchema(
                name=s["function"]["name"],
                description=s["function"].get("description", ""),
                parameters=s["function"].get("parameters", {}),
            )
        )
        for s in schemas
    ]


def _status(step: Any) -> env_pb2.ToolCallStatus.ValueType:
    """The wire status of a tool step: a terminate tool wins over an error, as it ends the episode either way."""
    if step.done:
        return env_pb2.TOOL_CALL_STATUS_TERMINATED
    return env_pb2.TOOL_CALL_STATUS_ERROR if step.error else env_pb2.TOOL_CALL_STATUS_OK


def env_service(
    catalog: Catalog,
    idle_timeout: float = DEFAULT_IDLE_TIMEOUT,
    max_sessions: int = DEFAULT_MAX_SESSIONS,
    max_sessions_per_run: int | None = None,
) -> Service:
    """EnvService over ``catalog``, ready for :func:`taumesh.rpc.server.start_server`.

    Sessions unused for ``idle_timeout`` seconds expire (a reaper task runs with the server); at most
    ``max_sessions`` are open at once, and at most ``max_sessions_per_run`` of one run (None: no per-run cap).
    """
    if not catalog.any():
        raise DataError(
            f"no domain has data in {catalog.data_dir}: --data-dir (or TAUMESH_DATA_DIR) must hold a folder per domain "
            "(retail/, airline/, ...), or install a domain plugin that carries its own data"
        )
    sessions = SessionStore(idle_timeout, max_sessions, max_per_run=max_sessions_per_run)
    return Service(
        name=env_pb2.DESCRIPTOR.services_by_name["EnvService"].full_name,
        register=env_pb2_grpc.add_EnvServiceServicer_to_server,
        servicer=EnvServicer(catalog, sessions),
        background=[sessions.reap_forever],
        max_request_bytes=TOOL_CALL_REQUEST_BYTES,
    )


def _unreadable(exc: DataError) -> FailedPrecondition:
    """A domain's data file that cannot be read (corrupt JSON, wrong shape): the message names it and where."""
    return FailedPrecondition(str(exc), reason="DOMAIN_DATA_INVALID")


def _task_count(domain: Any, split: str) -> int:
    """How many tasks ``split`` has; 0 when its file cannot be read (ListTasks and OpenSession then say why)."""
    try:
        return int(domain.task_count(split))
    except DataError as exc:
        log.info("%s", exc)
        return 0


def _prepare(domain: Any) -> None:
    """What every OpenSession of ``domain`` reads, computed once: base data and its hash, policy, tools."""
    _ = domain.base_data, domain.initial_hash, domain.policy, domain.tool_schemas, domain.user_tool_schemas
