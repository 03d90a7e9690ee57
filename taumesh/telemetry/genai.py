"""GenAI spans on OpenTelemetry's own GenAI utility (``opentelemetry-util-genai``).

``chat <model>`` spans come from :func:`model_call_hook`, which ``setup_telemetry`` registers with
``taumesh.llm``'s hook seam, and ``execute_tool <name>`` spans from :func:`tool_span`. The utility
writes the GenAI semantic conventions' attributes and ``gen_ai.client.*`` metrics, and records
message contents only when ``OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT`` asks for them.
What stays here is taumesh's: mapping litellm's provider names and ``ModelSettings`` onto it.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any
from urllib.parse import urlsplit

from opentelemetry.util.types import AttributeValue

from taumesh.models import ModelSettings
from taumesh.telemetry import attributes as A
from taumesh.telemetry.active import active_service
from taumesh.telemetry.call_spans import call_span

PROVIDERS = {
    "text-completion-openai": "openai",
    "azure": "azure.ai.openai",
    "azure_ai": "azure.ai.inference",
    "bedrock": "aws.bedrock",
    "vertex_ai": "gcp.vertex_ai",
    "vertex_ai_beta": "gcp.vertex_ai",
    "gemini": "gcp.gemini",
    "mistral": "mistral_ai",
    "cohere_chat": "cohere",
    "xai": "x_ai",
    "watsonx": "ibm.watsonx.ai",
}
"""litellm provider names whose ``gen_ai.provider.name`` differs (others pass through)."""

MODEL_FAMILIES = (
    (("gpt-", "o1", "o3", "o4", "chatgpt-", "text-davinci", "davinci", "babbage"), "openai"),
    (("claude",), "anthropic"),
    (("gemini",), "gcp.gemini"),
    (("mistral", "mixtral", "codestral"), "mistral_ai"),
    (("command",), "cohere"),
    (("deepseek",), "deepseek"),
    (("grok",), "x_ai"),
)


def provider_name(settings: ModelSettings) -> str:
    """``gen_ai.provider.name``: the settings' provider, else a ``provider/`` prefix, else the model family."""
    model = settings.model.lower()
    if settings.provider or "/" in model:
        name = (settings.provider or model.split("/", 1)[0]).lower()
        return PROVIDERS.get(name, name)
    family = next((provider for prefixes, provider in MODEL_FAMILIES if model.startswith(prefixes)), None)
    return family or ("openai" if settings.api_base else "_OTHER")  # an OpenAI-compatible server behind api_base


def host_port(api_base: str) -> tuple[str | None, int | None]:
    """Host and port of a base URL, never its userinfo, path or query (Nones where it names none)."""
    try:
        parts = urlsplit(api_base if "://" in api_base else f"http://{api_base}")
        return (parts.hostname or None, parts.port) if api_base else (None, None)
    except ValueError:
        return None, None


def server_attributes(api_base: str) -> dict[str, AttributeValue]:
    """``server.address``/``server.port`` of a base URL."""
    host, port = host_port(api_base)
    return {key: value for key, value in ((A.SERVER_ADDRESS, host), (A.SERVER_PORT, port)) if value}


def model_attributes(settings: ModelSettings) -> dict[str, AttributeValue]:
    """Provider, model, temperature, seed and server of ``settings``."""
    provider = provider_name(settings)
    return {
        A.GEN_AI_PROVIDER_NAME: provider,
        A.GEN_AI_SYSTEM: provider,
        A.GEN_AI_REQUEST_MODEL: settings.model,
        A.GEN_AI_REQUEST_TEMPERATURE: settings.temperature,
        A.GEN_AI_REQUEST_SEED: settings.seed,
        **server_attributes(settings.api_base),
    }


def _parts(message: Mapping[str, Any]) -> list[Any]:
    """An OpenAI chat message's parts in the utility's types."""
    from opentelemetry.util.genai.types import TextPart, ToolCallRequestPart, ToolCallResponsePart

    if message.get("role") == "tool":
        return [ToolCallResponsePart(response=message.get("content") or "", id=message.get("tool_call_id"))]
    content = message.get("content")
    texts = [content] if isinstance(content, str) else [p.get("text", "") for p in content or [] if isinstance(p, dict)]
    parts: list[Any] = [TextPart(content=text) for text in texts if text]
    for call in message.get("tool_calls") or []:
        function = call.get("function") or {}
        try:
            arguments = json.loads(function.get("arguments") or "null")
        except json.JSONDecodeError:
            arguments = function.get("arguments")
        parts.append(ToolCallRequestPart(arguments=arguments, name=function.get("name", ""), id=call.get("id")))
    return parts


def genai_messages(messages: Sequence[Mapping[str, Any]], *, output: bool = False) -> list[Any]:
    """OpenAI chat messages (system ones left out) as the utility's input (or output) messages."""
    from opentelemetry.util.genai.types import InputMessage, OutputMessage

    kind = OutputMessage if output else InputMessage
    return [kind(role=m.get("role", ""), parts=_parts(m)) for m in messages if m.get("role") != "system"]


def messages_json(messages: Sequence[Mapping[str, Any]]) -> str:
    """Messages in the GenAI conventions' JSON form (``gen_ai.output.messages``), for taumesh's own spans."""
    from opentelemetry.util.genai.utils import gen_ai_json_dumps

    return gen_ai_json_dumps(genai_messages(messages, output=True))


@contextmanager
def model_call_hook(call: Any) -> Iterator[None]:
    """A ``taumesh.llm`` model-call hook: a ``chat <model>`` span around one HTTP attempt (a ``ModelCall``)."""
    from opentelemetry.util.genai.types import FunctionToolDefinition, TextPart

    service = active_service()
    if not service.tracing and service.meter_provider is None:  # telemetry was shut down since
        yield
        return
    settings: ModelSettings = call.settings
    host, port = host_port(settings.api_base)
    handler = service.genai
    with handler.inference(
        provider_name(settings), request_model=settings.model, server_address=host, server_port=port
    ) as chat:
        chat.temperature, chat.seed = settings.temperature, settings.seed
        chat.attributes.update({A.GEN_AI_SYSTEM: chat.provider or "", A.TAUMESH_LLM_ATTEMPT: call.attempt})
        if handler.should_capture_content():
            chat.input_messages = genai_messages(call.messages)
            chat.system_instruction = [
                TextPart(content=m["content"]) for m in call.messages if m.get("role") == "system" and m.get("content")
            ]
            chat.tool_definitions = [
                FunctionToolDefinition(name=t.name, description=t.description, parameters=t.parameters)
                for t in call.tools
            ]
        yield
        if call.usage is not None:
            chat.input_tokens, chat.output_tokens = call.usage.prompt_tokens, call.usage.completion_tokens
            chat.attributes[A.TAUMESH_COST_USD] = call.usage.cost_usd
        chat.finish_reasons = [call.finish_reason] if call.finish_reason else None
        chat.response_model_name = call.response_model or None


class ToolSpan:
    """Records how one tool call ended, on its ``execute_tool`` invocation."""

    def __init__(self, tool: Any) -> None:
        self.tool = tool
        self.error: Any = None
        """An ``opentelemetry.util.genai.types.Error`` when the tool failed: the span ends red."""

    def answered(
        self, observation: str, *, error: bool, done: bool = False, aborted: bool = False, replayed: bool | None = None
    ) -> None:
        if self.tool is None:  # not traced
            return
        flags = {A.TAUMESH_TOOL_DONE: done, A.TAUMESH_TOOL_ABORTED: aborted, A.TAUMESH_TOOL_REPLAYED: replayed}
        self.tool.attributes.update({A.TAUMESH_TOOL_ERROR: error, **{k: v for k, v in flags.items() if v}})
        self.tool.tool_result = observation
        if error or aborted:
            from opentelemetry.util.genai.types import Error

            what = "the tool crashed" if aborted else "the tool reported an error"
            self.error = Error(message=what, type="tool_crash" if aborted else "tool_error")


def session_ref(session_id: str) -> str:
    """What spans record of a session: 16 hex digits of its id's SHA-256, enough to group one session's calls.

    The id is a bearer token (whoever holds it can act in the session), and traces travel to collectors and
    dashboards that many people read.
    """
    return hashlib.sha256(session_id.encode("utf-8", "surrogatepass")).hexdigest()[:16]


@contextmanager
def tool_span(name: str, call_id: str, arguments: str, *, session_id: str = "") -> Iterator[ToolSpan]:
    """An ``execute_tool <name>`` span around one tool call; arguments and result only with content capture.

    The span stands for the ``CallTool`` call: the env's server span is its child, with no gRPC client span.
    """
    service = active_service()
    if not service.tracing:
        yield ToolSpan(None)
        return
    with service.genai.tool(name, tool_type="function") as tool, call_span(tool.span):
        tool.tool_call_id, tool.arguments = call_id, arguments
        if session_id:
            tool.attributes[A.TAUMESH_SESSION_REF] = session_ref(session_id)
        span = ToolSpan(tool)
        yield span
        if span.error is not None:
            tool.fail(span.error)
