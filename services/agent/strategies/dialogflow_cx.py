"""``dialogflow-cx`` (alias ``decibel``): a Dialogflow CX agent under test, over ``SessionsClient.detect_intent``.

One CX session per episode, named after the episode id, so this strategy stays stateless: each call sends CX only
what is new since its last answer (the user's words as text, or the result of the tool CX asked for as a
``tool_call_result``), and CX keeps the conversation. What CX answers maps onto the agent contract:

* text: a message to the user (several text messages are joined by a blank line);
* a tool call: an assistant tool call, its CX tool and action kept in the message's ``reasoning`` so that the
  result can name them when it goes back;
* an end of interaction with no text: :data:`END_INTERACTION_TEXT` to the user.

Whose failure is a CX fault (``docs/agent-contract.md#dialogflow-cx``):

* the agent's (OUT_OF_RANGE: the episode ends and is scored): CX refuses the turn (INVALID_ARGUMENT,
  FAILED_PRECONDITION, INTERNAL), answers nothing usable, or calls a tool this strategy cannot name;
* the infrastructure's (UNAVAILABLE: retried, then the episode replayed with a new session): CX unreachable,
  overloaded or late, and an expired session (NOT_FOUND once the episode has talked to CX);
* the configuration's (FAILED_PRECONDITION, not scored): unknown agent or no permission at the first turn.

The endpoint and credentials are the agent server's operator's: ``TAUMESH_DIALOGFLOW_CX_ENDPOINT`` (default the
location's regional endpoint) and Google's application default credentials. A loopback endpoint is reached
without TLS or credentials (a local emulator); nothing in a request chooses where CX calls go.
"""

from __future__ import annotations

import json
import os
from typing import Any, ClassVar

import grpc
from google.api_core import exceptions as gexc
from google.api_core.client_options import ClientOptions
from google.auth.credentials import AnonymousCredentials
from google.cloud.dialogflowcx_v3beta1 import types as cx
from google.cloud.dialogflowcx_v3beta1.services.sessions import SessionsAsyncClient
from google.cloud.dialogflowcx_v3beta1.services.sessions.transports import SessionsGrpcAsyncIOTransport
from google.cloud.dialogflowcx_v3beta1.services.tools import ToolsAsyncClient
from google.cloud.dialogflowcx_v3beta1.services.tools.transports import ToolsGrpcAsyncIOTransport
from google.protobuf import json_format, struct_pb2

from taumesh.domains import Catalog
from taumesh.models import ChatMessage, DialogflowCxAgent, ToolCall
from taumesh.rpc.errors import FailedPrecondition, InvalidArgument, OutOfRange, Unavailable, clip
from taumesh.services.agent.strategies.base import AgentReply, AgentTurn

ENDPOINT_ENV = "TAUMESH_DIALOGFLOW_CX_ENDPOINT"
"""The operator's CX endpoint (``host[:port]``); unset: ``{location}-dialogflow.googleapis.com``."""
LANGUAGE_ENV = "TAUMESH_DIALOGFLOW_CX_LANGUAGE"
"""The language code of every query (default ``en``)."""
END_INTERACTION_TEXT = "END CONVERSATION"
"""What the user hears when CX ends the interaction without a word (as the τ-bench fork's decibel agent says)."""
_LOOPBACK = ("127.0.0.1", "localhost", "[::1]", "::1")
_TRANSIENT = (gexc.ServiceUnavailable, gexc.DeadlineExceeded, gexc.TooManyRequests, gexc.ResourceExhausted)
_CONFIG = (gexc.PermissionDenied, gexc.Unauthenticated, gexc.NotFound)


def cx_endpoint(location: str) -> str:
    """Where CX calls go: the operator's endpoint, else the location's own."""
    configured = os.environ.get(ENDPOINT_ENV, "").strip()
    if configured:
        return configured
    return "dialogflow.googleapis.com" if location in ("", "global") else f"{location}-dialogflow.googleapis.com"


def is_loopback(endpoint: str) -> bool:
    host = endpoint.rsplit(":", 1)[0] if endpoint.count(":") == 1 or endpoint.startswith("[") else endpoint
    return host in _LOOPBACK


def _whole_numbers(value: Any) -> Any:
    """Struct numbers are doubles: a whole one is given to the tool as an integer, as a model writes it in JSON."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, dict):
        return {key: _whole_numbers(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_whole_numbers(item) for item in value]
    return value


class DialogflowCxAgentStrategy:
    """Plays a Dialogflow CX agent: one ``detect_intent`` per turn, in the episode's own CX session."""

    name = "dialogflow-cx"
    calls_model: ClassVar[bool] = False
    """The CX agent's model is Google's, reached with the agent's own credentials."""

    def __init__(self, catalog: Catalog) -> None:
        self.catalog = catalog
        self._sessions: dict[str, SessionsAsyncClient] = {}
        self._tools: dict[str, ToolsAsyncClient] = {}
        self._tool_names: dict[str, dict[str, str]] = {}

    def _clients(self, endpoint: str) -> tuple[SessionsAsyncClient, ToolsAsyncClient]:
        if endpoint not in self._sessions:
            if is_loopback(endpoint):  # a local emulator: plaintext, no credentials leave the process
                channel = grpc.aio.insecure_channel(endpoint)
                creds = AnonymousCredentials()  # type: ignore[no-untyped-call]
                self._sessions[endpoint] = SessionsAsyncClient(
                    transport=SessionsGrpcAsyncIOTransport(channel=channel, credentials=creds)
                )
                self._tools[endpoint] = ToolsAsyncClient(
                    transport=ToolsGrpcAsyncIOTransport(channel=channel, credentials=creds)
                )
            else:
                options = ClientOptions(api_endpoint=endpoint)
                self._sessions[endpoint] = SessionsAsyncClient(client_options=options)
                self._tools[endpoint] = ToolsAsyncClient(client_options=options)
        return self._sessions[endpoint], self._tools[endpoint]

    async def next_message(self, turn: AgentTurn) -> AgentReply:
        agent = turn.settings.dialogflow_cx
        if agent is None or not agent.project_id or not agent.agent_id:
            raise InvalidArgument(
                "the dialogflow-cx strategy needs the CX agent: --project-id and --agent-id (and --location)",
                fields=[("config.dialogflow_cx", "project_id and agent_id are required")],
            )
        sessions, tools = self._clients(cx_endpoint(agent.location))
        request = cx.DetectIntentRequest(
            session=f"{agent.resource}/sessions/{turn.episode.episode_id}", query_input=self._query(turn)
        )
        started = not any(m.role == "assistant" for m in _after_opening(turn.conversation))
        if started:  # who is calling: a CX webhook or log may want the episode (never the task's solution)
            request.query_params = cx.QueryParameters(parameters=self._episode_parameters(turn))
        try:
            response = await sessions.detect_intent(request=request)
            return await self._reply(response, agent, tools, turn)
        except _TRANSIENT as exc:
            raise Unavailable(f"Dialogflow CX unavailable: {clip(str(exc), 400)}", reason="CX_UNAVAILABLE") from exc
        except _CONFIG as exc:
            if isinstance(exc, gexc.NotFound) and not started:
                # the session CX held for this episode is gone: a new episode (new session) may succeed
                raise Unavailable(
                    f"Dialogflow CX session expired: {clip(str(exc), 400)}", reason="CX_SESSION_EXPIRED"
                ) from exc
            raise FailedPrecondition(
                f"Dialogflow CX refused {agent.resource}: {clip(str(exc), 400)}", reason="CX_AGENT_UNUSABLE"
            ) from exc
        except gexc.GoogleAPICallError as exc:
            raise OutOfRange(f"Dialogflow CX failed the turn: {clip(str(exc), 400)}", reason="CX_ERROR") from exc

    def _query(self, turn: AgentTurn) -> cx.QueryInput:
        language = os.environ.get(LANGUAGE_ENV, "en")
        last = turn.conversation[-1]
        if last.role != "tool":
            return cx.QueryInput(text=cx.TextInput(text=last.content), language_code=language)
        asked = next(
            (m for m in reversed(turn.conversation) if m.role == "assistant" and m.tool_calls),
            None,
        )
        origin = json.loads(asked.reasoning) if asked is not None and asked.reasoning.startswith("{") else {}
        result = cx.ToolCallResult(tool=origin.get("tool", ""), action=origin.get("action", ""))
        if last.content.startswith(("Error", "Unknown action")):  # τ-bench's failed-action observations
            result.error = cx.ToolCallResult.Error(message=last.content)
        else:
            output = struct_pb2.Struct()
            output.update({"result": last.content})
            result.output_parameters = output
        return cx.QueryInput(tool_call_result=result, language_code=language)

    @staticmethod
    def _episode_parameters(turn: AgentTurn) -> struct_pb2.Struct:
        parameters = struct_pb2.Struct()
        task = turn.episode.task
        parameters.update(
            {
                "taumesh_episode_id": turn.episode.episode_id,
                "taumesh_domain": task.domain,
                "taumesh_split": task.split,
                "taumesh_task_id": task.task_id,
                "taumesh_trial": turn.episode.trial,
            }
        )
        return parameters

    async def _reply(
        self, response: cx.DetectIntentResponse, agent: DialogflowCxAgent, tools: ToolsAsyncClient, turn: AgentTurn
    ) -> AgentReply:
        texts: list[str] = []
        ended = False
        call: cx.ToolCall | None = None
        for message in response.query_result.response_messages:
            kind = cx.ResponseMessage.pb(message).WhichOneof("message")
            if kind == "text":
                texts.extend(t for t in message.text.text if t)
            elif kind == "end_interaction":
                ended = True
            elif kind == "tool_call" and call is None:
                call = message.tool_call
        if call is not None:
            name = await self._tool_name(call, agent, tools)
            arguments = _whole_numbers(json_format.MessageToDict(cx.ToolCall.pb(call).input_parameters))
            number = sum(len(m.tool_calls) for m in turn.conversation if m.role == "assistant")
            asked = ChatMessage(
                role="assistant",
                content="\n\n".join(texts),
                tool_calls=[ToolCall(id=f"cx_{number}", name=name, arguments=json.dumps(arguments))],
                reasoning=json.dumps({"tool": call.tool, "action": call.action}),
            )
            return AgentReply(message=asked)
        if texts:
            return AgentReply(message=ChatMessage(role="assistant", content="\n\n".join(texts)))
        if ended:
            return AgentReply(message=ChatMessage(role="assistant", content=END_INTERACTION_TEXT))
        raise OutOfRange("Dialogflow CX answered no text, tool call or end of interaction", reason="CX_NO_RESPONSE")

    async def _tool_name(self, call: cx.ToolCall, agent: DialogflowCxAgent, tools: ToolsAsyncClient) -> str:
        """The domain tool a CX tool call names: the CX tool's display name (listed once per agent)."""
        names = self._tool_names.get(agent.resource)
        if names is None:
            listed = await tools.list_tools(request=cx.ListToolsRequest(parent=agent.resource))
            names = {tool.name: tool.display_name async for tool in listed}
            self._tool_names[agent.resource] = names
        name = names.get(call.tool)
        if not name:
            raise OutOfRange(f"Dialogflow CX called an unknown tool {clip(call.tool, 200)!r}", reason="CX_UNKNOWN_TOOL")
        return name


__all__ = ["ENDPOINT_ENV", "END_INTERACTION_TEXT", "DialogflowCxAgentStrategy", "cx_endpoint"]


def _after_opening(conversation: list[ChatMessage]) -> list[ChatMessage]:
    """The conversation from the user's first message on.

    An agent message before it is the domain's opening (τ²'s greeting), sent by the orchestrator, not by the CX
    agent, whose session starts at the user's first turn.
    """
    first_user = next((i for i, message in enumerate(conversation) if message.role == "user"), len(conversation))
    return conversation[first_user:]
