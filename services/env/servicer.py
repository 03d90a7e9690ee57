"""EnvService over gRPC: domains, tasks and sessions."""

from __future__ import annotations

import json
import logging
from typing import Any

from taumesh.convert import task_ref_from_proto, tool_schema_to_proto
from taumesh.domains import Catalog, DataError, Session, ToolCrash
from taumesh.env.v1 import env_pb2, env_pb2_grpc
from taumesh.models import ToolSchema
from taumesh.rpc.errors import Context, InvalidArgument, NotFound, status_codes
from taumesh.rpc.server import Service
from taumesh.services.env.sessions import SessionStore
from taumesh.telemetry import tool_span

log = logging.getLogger(__name__)


def parse_arguments(arguments_json: str) -> dict[str, Any] | str:
    """The tool arguments as a dict, or the observation that tells the agent why they are unusable.

    τ-bench itself crashes on arguments that are not a JSON object; we answer the agent instead.
    """
    if not arguments_json.strip():
        return {}
    try:
        arguments = json.loads(arguments_json)
    except json.JSONDecodeError as exc:
        return f"Error: tool arguments are not valid JSON: {exc}"
    if not isinstance(arguments, dict):
        return f"Error: tool arguments must be a JSON object, not {type(arguments).__name__}"
    return arguments


class EnvServicer(env_pb2_grpc.EnvServiceServicer):
    """Serves the domains of one data directory."""

    def __init__(self, catalog: Catalog, sessions: SessionStore | None = None) -> None:
        self.catalog = catalog
        self.sessions = sessions or SessionStore()

    def _domain(self, name: str) -> Any:
        try:
            return self.catalog.get(name)
        except KeyError as exc:
            raise NotFound(str(exc.args[0])) from exc
        except DataError as exc:
            raise NotFound(str(exc)) from exc

    @status_codes
    async def ListDomains(self, request: env_pb2.ListDomainsRequest, context: Context) -> env_pb2.ListDomainsResponse:
        domains = []
        for name in self.catalog.names():
            domain = self._domain(name)
            splits = [
                env_pb2.SplitInfo(name=split, task_count=len(domain.tasks(split)))
                for split in domain.spec.splits
                if (domain.root / f"tasks_{split}.json").exists()
            ]
            domains.append(
                env_pb2.DomainInfo(name=name, splits=splits, terminate_tools=sorted(domain.spec.terminate_tools))
            )
        return env_pb2.ListDomainsResponse(domains=domains)

    @status_codes
    async def ListTasks(self, request: env_pb2.ListTasksRequest, context: Context) -> env_pb2.ListTasksResponse:
        domain = self._domain(request.domain)
        try:
            tasks = domain.tasks(request.split)
        except (KeyError, DataError) as exc:
            raise NotFound(str(exc.args[0])) from exc
        return env_pb2.ListTasksResponse(
            tasks=[
                env_pb2.TaskSummary(
                    index=index,
                    user_id=task.user_id,
                    instruction=task.instruction,
                    gold_action_count=len(task.actions),
                    output_count=len(task.outputs),
                )
                for index, task in enumerate(tasks)
            ]
        )

    @status_codes
    async def OpenSession(self, request: env_pb2.OpenSessionRequest, context: Context) -> env_pb2.OpenSessionResponse:
        ref = task_ref_from_proto(request.task)
        domain = self._domain(ref.domain)
        try:
            task = domain.task(ref.split, ref.index)
        except (KeyError, IndexError, DataError) as exc:
            raise NotFound(str(exc.args[0])) from exc
        schemas = [
            ToolSchema(
                name=s["function"]["name"],
                description=s["function"].get("description", ""),
                parameters=s["function"].get("parameters", {}),
            )
            for s in domain.tool_schemas
        ]
        session_id = self.sessions.open(Session(domain), task)
        return env_pb2.OpenSessionResponse(
            session_id=session_id,
            policy=domain.policy,
            tools=[tool_schema_to_proto(schema) for schema in schemas],
            user_instruction=task.instruction,
            initial_data_hash=domain.initial_hash,
        )

    def _live(self, session_id: str) -> Any:
        if not session_id:
            raise InvalidArgument("session_id is required")
        live = self.sessions.get(session_id)
        if live is None:
            raise NotFound(f"no session {session_id!r} (closed, expired, or opened on another replica)")
        return live

    @status_codes
    async def CallTool(self, request: env_pb2.CallToolRequest, context: Context) -> env_pb2.CallToolResponse:
        live = self._live(request.session_id)
        call = request.tool_call
        if not call.name:
            raise InvalidArgument("tool_call.name is required")
        with tool_span(call.name, call.id, call.arguments_json, session_id=request.session_id) as span:
            if request.request_id and request.request_id in live.results:
                cached: env_pb2.CallToolResponse = live.results[request.request_id]
                span.answered(cached.observation, error=cached.error, done=cached.done, replayed=True)
                return cached
            arguments = parse_arguments(call.arguments_json)
            if isinstance(arguments, str):
                live.session.actions.append((call.name, {}))
                response = env_pb2.CallToolResponse(observation=arguments, error=True)
            else:
                try:
                    step = live.session.call(call.name, arguments)
                except ToolCrash as exc:
                    log.warning("session %s: %s", request.session_id, exc)
                    response = env_pb2.CallToolResponse(observation=str(exc), error=True, done=True, aborted=True)
                else:
                    response = env_pb2.CallToolResponse(observation=step.observation, done=step.done, error=step.error)
            span.answered(
                response.observation, error=response.error, done=response.done, aborted=response.aborted, replayed=False
            )
        live.remember(request.request_id, response)
        return response

    @status_codes
    async def GetFinalState(
        self, request: env_pb2.GetFinalStateRequest, context: Context
    ) -> env_pb2.GetFinalStateResponse:
        live = self._live(request.session_id)
        return env_pb2.GetFinalStateResponse(
            data_hash=live.session.data_hash(),
            tool_call_count=len(live.session.actions),
            copied_records=live.session.copied_records(),
        )

    @status_codes
    async def CloseSession(
        self, request: env_pb2.CloseSessionRequest, context: Context
    ) -> env_pb2.CloseSessionResponse:
        if not request.session_id:
            raise InvalidArgument("session_id is required")
        self.sessions.close(request.session_id)
        return env_pb2.CloseSessionResponse()


def env_service(catalog: Catalog) -> Service:
    """EnvService over ``catalog``, ready for :func:`taumesh.rpc.server.start_server`."""
    if not catalog.names():
        raise DataError(
            f"no domain data found in {catalog.data_dir}: --data-dir (or TAUMESH_DATA_DIR) must hold retail/, airline/"
        )
    return Service(
        name=env_pb2.DESCRIPTOR.services_by_name["EnvService"].full_name,
        register=env_pb2_grpc.add_EnvServiceServicer_to_server,
        servicer=EnvServicer(catalog),
    )
