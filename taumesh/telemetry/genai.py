"""``chat <model>`` spans for LLM calls (GenAI semantic conventions), and the model attributes they share.

Two ways in. ``taumesh.llm`` exposes a hook seam around each HTTP attempt, and :func:`setup_telemetry`
registers :func:`model_call_hook` there when telemetry is on, so nothing in ``taumesh.llm`` changes.
Or a client wraps each completion call itself::

    with chat_span(settings, messages=messages, tools=tools) as chat:
        response = await litellm.acompletion(...)
        chat.record_response(response, cost_usd=cost)

The span records provider, model, temperature, seed, the API's host (never its credentials), tokens,
cost, finish reasons and response id; with content capture on, also the messages, system prompt,
tool definitions and the answer. An exception escaping the block marks the span as an error
(``error.type`` is the exception's class). It also feeds the ``gen_ai.client.*`` metrics.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any
from urllib.parse import urlsplit

from opentelemetry.trace import Span, SpanKind
from opentelemetry.util.types import AttributeValue

from taumesh.models import ChatMessage, ModelSettings, Usage
from taumesh.telemetry import attributes as A
from taumesh.telemetry.content import messages_json, system_instructions_json, truncate
from taumesh.telemetry.providers import capture_content, instruments, tracer

PROVIDERS = {
    "openai": "openai",
    "text-completion-openai": "openai",
    "anthropic": "anthropic",
    "azure": "azure.ai.openai",
    "azure_ai": "azure.ai.inference",
    "bedrock": "aws.bedrock",
    "vertex_ai": "gcp.vertex_ai",
    "vertex_ai_beta": "gcp.vertex_ai",
    "gemini": "gcp.gemini",
    "mistral": "mistral_ai",
    "cohere": "cohere",
    "cohere_chat": "cohere",
    "deepseek": "deepseek",
    "groq": "groq",
    "perplexity": "perplexity",
    "xai": "x_ai",
    "watsonx": "ibm.watsonx.ai",
}
"""litellm provider names → ``gen_ai.provider.name`` well-known values (others pass through)."""

MODEL_PREFIXES = (
    (("gpt-", "o1", "o3", "o4", "chatgpt-", "text-davinci", "davinci", "babbage"), "openai"),
    (("claude",), "anthropic"),
    (("gemini",), "gcp.gemini"),
    (("mistral", "mixtral", "codestral"), "mistral_ai"),
    (("command",), "cohere"),
    (("deepseek",), "deepseek"),
    (("grok",), "x_ai"),
)


def provider_name(settings: ModelSettings) -> str:
    """``gen_ai.provider.name`` for ``settings``: its provider, else a ``provider/`` prefix, else the model family."""
    if settings.provider:
        return PROVIDERS.get(settings.provider.lower(), settings.provider.lower())
    model = settings.model.lower()
    if "/" in model:
        prefix = model.split("/", 1)[0]
        return PROVIDERS.get(prefix, prefix)
    for prefixes, provider in MODEL_PREFIXES:
        if model.startswith(prefixes):
            return provider
    return "openai" if settings.api_base else "_OTHER"  # an OpenAI-compatible server (vLLM, …) behind api_base


def server_attributes(api_base: str) -> dict[str, AttributeValue]:
    """``server.address``/``server.port`` of a base URL: host and port only, never userinfo, path or query."""
    if not api_base:
        return {}
    try:
        parts = urlsplit(api_base if "://" in api_base else f"http://{api_base}")
        host, port = parts.hostname, parts.port
    except ValueError:
        return {}
    out: dict[str, AttributeValue] = {}
    if host:
        out[A.SERVER_ADDRESS] = host
    if port:
        out[A.SERVER_PORT] = port
    return out


def model_attributes(settings: ModelSettings) -> dict[str, AttributeValue]:
    """Provider, model, temperature, seed and server of ``settings``."""
    provider = provider_name(settings)
    out: dict[str, AttributeValue] = {
        A.GEN_AI_PROVIDER_NAME: provider,
        A.GEN_AI_SYSTEM: provider,
        A.GEN_AI_REQUEST_MODEL: settings.model,
        A.GEN_AI_REQUEST_TEMPERATURE: settings.temperature,
        A.GEN_AI_REQUEST_SEED: settings.seed,
    }
    out.update(server_attributes(settings.api_base))
    return out


def _get(obj: Any, name: str) -> Any:
    if isinstance(obj, Mapping):
        return obj.get(name)
    return getattr(obj, name, None)


class ChatSpan:
    """What one LLM call returned, recorded on its span when the call ends."""

    def __init__(self, span: Span, capture: bool) -> None:
        self.span = span
        self.capture = capture
        self.input_tokens: int | None = None
        self.output_tokens: int | None = None
        self.response_model: str | None = None

    def record(
        self,
        *,
        input_tokens: int | None = None,
        output_tokens: int | None = None,
        cost_usd: float | None = None,
        finish_reasons: Sequence[str] = (),
        response_model: str | None = None,
        response_id: str | None = None,
        output_messages: Sequence[ChatMessage | Mapping[str, Any]] | None = None,
    ) -> None:
        """Record the call's outcome; every argument is optional."""
        self.input_tokens = input_tokens if input_tokens is not None else self.input_tokens
        self.output_tokens = output_tokens if output_tokens is not None else self.output_tokens
        self.response_model = response_model or self.response_model
        span = self.span
        if not span.is_recording():
            return
        if input_tokens is not None:
            span.set_attribute(A.GEN_AI_USAGE_INPUT_TOKENS, input_tokens)
        if output_tokens is not None:
            span.set_attribute(A.GEN_AI_USAGE_OUTPUT_TOKENS, output_tokens)
        if cost_usd is not None:
            span.set_attribute(A.TAUMESH_COST_USD, cost_usd)
        if finish_reasons:
            span.set_attribute(A.GEN_AI_RESPONSE_FINISH_REASONS, list(finish_reasons))
        if response_model:
            span.set_attribute(A.GEN_AI_RESPONSE_MODEL, response_model)
        if response_id:
            span.set_attribute(A.GEN_AI_RESPONSE_ID, response_id)
        if output_messages is not None and self.capture:
            reason = finish_reasons[0] if len(finish_reasons) == 1 else None
            span.set_attribute(A.GEN_AI_OUTPUT_MESSAGES, messages_json(output_messages, finish_reason=reason))

    def record_usage(self, usage: Usage, finish_reasons: Sequence[str] = ()) -> None:
        """Record a :class:`~taumesh.models.Usage` (tokens and cost of this call)."""
        self.record(
            input_tokens=usage.prompt_tokens,
            output_tokens=usage.completion_tokens,
            cost_usd=usage.cost_usd,
            finish_reasons=finish_reasons,
        )

    def record_response(self, response: Any, *, cost_usd: float | None = None) -> None:
        """Record a litellm ``ModelResponse`` (or OpenAI ``ChatCompletion``, or its dict form).

        ``cost_usd`` defaults to litellm's ``response._hidden_params["response_cost"]`` when present.
        """
        usage = _get(response, "usage")
        choices = _get(response, "choices") or []
        finish = [str(r) for r in (_get(c, "finish_reason") for c in choices) if r]
        if cost_usd is None:
            hidden = getattr(response, "_hidden_params", None)
            cost = hidden.get("response_cost") if isinstance(hidden, Mapping) else None
            cost_usd = float(cost) if isinstance(cost, int | float) else None
        outputs: list[Mapping[str, Any]] = []
        if self.capture:
            for choice in choices:
                message = _get(choice, "message")
                if message is None:
                    continue
                raw = message if isinstance(message, Mapping) else _model_dump(message)
                outputs.append(raw)
        self.record(
            input_tokens=_int(_get(usage, "prompt_tokens")),
            output_tokens=_int(_get(usage, "completion_tokens")),
            cost_usd=cost_usd,
            finish_reasons=finish,
            response_model=_get(response, "model") or None,
            response_id=_get(response, "id") or None,
            output_messages=outputs if self.capture else None,
        )


def _int(value: Any) -> int | None:
    return int(value) if isinstance(value, int | float) else None


def _model_dump(message: Any) -> dict[str, Any]:
    dump = getattr(message, "model_dump", None) or getattr(message, "dict", None)
    if callable(dump):
        result = dump()
        if isinstance(result, dict):
            return result
    return {"role": _get(message, "role") or "assistant", "content": _get(message, "content") or ""}


@contextmanager
def chat_span(
    settings: ModelSettings,
    *,
    messages: Sequence[ChatMessage | Mapping[str, Any]] | None = None,
    tools: Sequence[Mapping[str, Any]] | None = None,
    max_tokens: int | None = None,
    operation: str = A.OP_CHAT,
) -> Iterator[ChatSpan]:
    """A ``chat <model>`` CLIENT span around one LLM call; see the module docstring."""
    attributes = model_attributes(settings)
    attributes[A.GEN_AI_OPERATION_NAME] = operation
    if max_tokens is not None:
        attributes[A.GEN_AI_REQUEST_MAX_TOKENS] = max_tokens
    started = time.perf_counter()
    error_type: str | None = None
    name = f"{operation} {settings.model}" if settings.model else operation
    with tracer().start_as_current_span(name, kind=SpanKind.CLIENT, attributes=attributes) as span:
        capture = span.is_recording() and capture_content()
        if capture and messages is not None:
            span.set_attribute(A.GEN_AI_INPUT_MESSAGES, messages_json(messages, skip_system=True))
            system = system_instructions_json(messages)
            if system:
                span.set_attribute(A.GEN_AI_SYSTEM_INSTRUCTIONS, system)
        if capture and tools:
            span.set_attribute(A.GEN_AI_TOOL_DEFINITIONS, truncate(json.dumps(list(tools), ensure_ascii=False)))
        chat = ChatSpan(span, capture)
        try:
            yield chat
        except BaseException as exc:
            error_type = type(exc).__qualname__
            span.set_attribute(A.ERROR_TYPE, error_type)
            raise
        finally:
            _record_metrics(attributes, chat, time.perf_counter() - started, error_type)


@contextmanager
def model_call_hook(call: Any) -> Iterator[ChatSpan]:
    """A ``taumesh.llm`` model-call hook: a ``chat <model>`` span around one HTTP attempt.

    ``call`` is a ``taumesh.llm.ModelCall`` (read by duck typing: ``settings``, ``attempt``, and, filled in
    when the attempt succeeded, ``usage``, ``finish_reason``, ``response_model``; ``messages`` and
    ``tools`` too, should it ever carry them).
    """
    settings: ModelSettings = call.settings
    messages = getattr(call, "messages", None)
    tools = getattr(call, "tools", None)
    tool_dicts = [t.openai() if hasattr(t, "openai") else t for t in tools] if tools else None
    with chat_span(settings, messages=messages, tools=tool_dicts) as chat:
        if chat.span.is_recording():
            chat.span.set_attribute(A.TAUMESH_LLM_ATTEMPT, int(getattr(call, "attempt", 1) or 1))
        try:
            yield chat
        finally:
            usage: Usage | None = getattr(call, "usage", None)
            finish = getattr(call, "finish_reason", None)
            if usage is not None:
                chat.record(
                    input_tokens=usage.prompt_tokens,
                    output_tokens=usage.completion_tokens,
                    cost_usd=usage.cost_usd,
                    finish_reasons=[finish] if finish else (),
                    response_model=getattr(call, "response_model", None) or None,
                )


_HOOK_REMOVER: Any = None


def install_model_call_hook() -> bool:
    """Register :func:`model_call_hook` with ``taumesh.llm`` (once per process); False when it is absent."""
    global _HOOK_REMOVER
    if _HOOK_REMOVER is not None:
        return True
    try:
        from taumesh.llm.hooks import add_model_call_hook
    except ImportError:
        return False
    _HOOK_REMOVER = add_model_call_hook(model_call_hook)
    return True


def _record_metrics(
    attributes: Mapping[str, AttributeValue],
    chat: ChatSpan,
    duration: float,
    error_type: str | None,
) -> None:
    metric_attributes: dict[str, AttributeValue] = {
        key: attributes[key]
        for key in (A.GEN_AI_OPERATION_NAME, A.GEN_AI_PROVIDER_NAME, A.GEN_AI_REQUEST_MODEL, A.SERVER_ADDRESS)
        if key in attributes
    }
    if chat.response_model:
        metric_attributes[A.GEN_AI_RESPONSE_MODEL] = chat.response_model
    timings = instruments()
    if error_type:
        timings.gen_ai_duration.record(duration, {**metric_attributes, A.ERROR_TYPE: error_type})
        return
    timings.gen_ai_duration.record(duration, metric_attributes)
    for kind, count in (("input", chat.input_tokens), ("output", chat.output_tokens)):
        if count is not None:
            timings.gen_ai_token_usage.record(count, {**metric_attributes, A.GEN_AI_TOKEN_TYPE: kind})
