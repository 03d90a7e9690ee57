"""``complete``: one chat completion through litellm, retried on transient faults, with usage and cost.

API keys come from the environment only (``OPENAI_API_KEY``, ``ANTHROPIC_API_KEY``, ... as litellm reads them);
they are never passed around nor logged, and never follow a redirect (see :func:`redirect_refused`).
"""

from __future__ import annotations

import functools
import logging
import os
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import httpx
from pydantic import BaseModel
from tenacity import AsyncRetrying, RetryCallState, retry_if_exception, stop_after_attempt

from taumesh.llm._litellm import OPENAI_HTTP_HANDLER, SKIP_MCP_GATEWAY, ContextWindowExceededError, litellm
from taumesh.llm.errors import (
    ContextWindowExceeded,
    EmptyReply,
    MalformedOutput,
    ModelError,
    ModelRateLimited,
    ModelRequestError,
    ModelUnavailable,
    is_malformed_output,
)
from taumesh.llm.hooks import ModelCall, ModelCallHook, around_call
from taumesh.llm.preflight import litellm_route, local_api_key
from taumesh.llm.retry import (
    RetryPolicy,
    describe,
    is_rate_limit,
    is_transient,
    retried_here,
    retry_after,
    wait_retry_after,
)
from taumesh.llm.usage import usage_of
from taumesh.models import ChatMessage, ModelSettings, ToolCall, ToolSchema, Usage

log = logging.getLogger(__name__)

LITELLM_LOGGERS = ("LiteLLM", "LiteLLM Router", "LiteLLM Proxy")
"""litellm's loggers: kept at WARNING, so a model call logs one DEBUG line (ours), not litellm's INFO lines."""


def quiet_litellm() -> None:
    """Raise litellm's loggers to WARNING, unless ``LITELLM_LOG`` asks for its own logs."""
    if os.environ.get("LITELLM_LOG"):
        return
    for name in LITELLM_LOGGERS:
        logging.getLogger(name).setLevel(logging.WARNING)


quiet_litellm()  # here rather than in _litellm: this module is where taumesh first calls litellm


@functools.lru_cache(maxsize=8)
def _policy_of(values: tuple[tuple[str, str], ...]) -> RetryPolicy:
    return RetryPolicy.from_env(dict(values))


_POLICY_VARIABLES = tuple(
    f"{RetryPolicy.model_config.get('env_prefix', '')}{name}".upper() for name in RetryPolicy.model_fields
)
"""The variables :meth:`RetryPolicy.from_env` reads: looked up by name, not by a scan of the environment."""


def current_policy() -> RetryPolicy:
    """``RetryPolicy.from_env()``, built once per set of ``TAUMESH_LLM_*`` values (building it costs 0.8 ms)."""
    return _policy_of(tuple((name, value) for name in _POLICY_VARIABLES if (value := os.environ.get(name)) is not None))


class Completion(BaseModel):
    """A model's answer and what it cost."""

    message: ChatMessage
    """Role ``assistant``: text and/or tool calls; provider reasoning (when returned) in ``reasoning``."""
    usage: Usage
    """Tokens and cost of the successful call, plus those of empty replies that were retried; ``calls=1``. The
    provider's fingerprints and served models are those of every reply, the empty ones too."""
    finish_reason: str
    model: str
    """The model name the provider reported."""


def request_kwargs(
    settings: ModelSettings, policy: RetryPolicy, tools: Sequence[ToolSchema] | None, sampling: bool = True
) -> dict[str, Any]:
    """The litellm arguments for ``settings`` (retries are ours: litellm's and the SDK's are off).

    ``sampling=False`` sends no temperature and no seed: the provider's defaults apply, as in τ-bench's user. The seed
    goes only where the run's domain sends one (``settings.send_seed``: τ²'s do, τ-bench v1's do not).
    """
    kwargs: dict[str, Any] = {
        "model": settings.model,
        "timeout": policy.timeout,
        "max_retries": 0,
        "drop_params": True,  # a provider that lacks ``seed`` (or another option) ignores it instead of failing
    }
    if sampling:
        kwargs["temperature"] = settings.temperature
        if settings.send_seed:
            kwargs["seed"] = settings.seed
    if settings.provider:
        kwargs["custom_llm_provider"] = settings.provider
    if settings.api_base:
        kwargs["api_base"] = settings.api_base
        placeholder = local_api_key(settings)  # a local server needs no key, but the provider's SDK demands one
        if placeholder:
            kwargs["api_key"] = placeholder
    if tools:
        kwargs["tools"] = [tool.openai() for tool in tools]
        # function tools only, never litellm proxy's MCP tools: skip its MCP gateway check, whose first use imports
        # the MCP SDK and litellm's proxy MCP server (~1 s under the import lock, while the first burst's calls wait)
        kwargs[SKIP_MCP_GATEWAY] = True
    return kwargs


def missing_openai_key(settings: ModelSettings, kwargs: Mapping[str, Any]) -> str | None:
    """Why an OpenAI call cannot authenticate, or None: no key given, none in the environment.

    The OpenAI SDK refused such a call before sending it; litellm's HTTP handler (taumesh's default) would send
    it without a key, so it is refused here, as before (not retried: no retry brings a key).
    """
    if os.environ.get(OPENAI_HTTP_HANDLER, "").lower() != "true" or kwargs.get("api_key"):
        return None
    if os.environ.get("OPENAI_API_KEY") or litellm.api_key or litellm.openai_key:
        return None
    if litellm_route(settings.model, settings.provider, settings.api_base) != "openai":
        return None
    return f"missing credentials: model {settings.model!r} needs OPENAI_API_KEY in the environment, and it is not set"


def redirect_refused(exc: BaseException) -> str | None:
    """Why a model call that met an HTTP redirect failed, or None when ``exc`` is no redirect.

    taumesh's litellm follows no redirect (``taumesh.llm._litellm.refuse_redirects``): the request carries the API
    key, which would go wherever the ``Location`` points. The endpoint is to be named by its final URL.
    """
    seen: BaseException | None = exc
    while seen is not None:
        if isinstance(seen, httpx.HTTPStatusError) and seen.response.is_redirect:
            location = seen.response.headers.get("location", "?")
            return (
                f"the model endpoint answered {seen.response.status_code} (redirect to {location[:200]}): taumesh "
                "never follows a redirect with the API key; set api_base to the endpoint's final URL"
            )
        seen = seen.__cause__ or seen.__context__
    return None


def message_of(response: Any) -> ChatMessage:
    """The assistant message of a litellm response; :class:`EmptyReply` when it holds nothing."""
    choices = getattr(response, "choices", None) or []
    if not choices:
        raise EmptyReply("the response has no choices")
    raw = choices[0].message
    calls = [
        ToolCall(id=call.id or "", name=call.function.name or "", arguments=call.function.arguments or "{}")
        for call in (getattr(raw, "tool_calls", None) or [])
    ]
    content = raw.content or ""
    if not content.strip() and not calls:
        raise EmptyReply("the model returned no text and no tool calls")
    reasoning = getattr(raw, "reasoning_content", None) or ""
    return ChatMessage(role="assistant", content=content, tool_calls=calls, reasoning=str(reasoning))


def provider_account(response: Any, seeded: bool) -> dict[str, Any]:
    """What the provider said about itself in ``response``, as :class:`Usage` fields (docs/rollouts.md).

    Its ``system_fingerprint`` (the backend configuration that served the call: OpenAI, vLLM and llama.cpp's server
    return one), the model it says it served, and whether the request carried a ``seed``: a replay's divergence is
    the provider's when these differ, or when they match and sampling was not seeded.
    """
    fingerprint = getattr(response, "system_fingerprint", None)
    served = getattr(response, "model", None)
    return {
        "system_fingerprints": [str(fingerprint)] if fingerprint else [],
        "served_models": [str(served)] if served else [],
        "seeded_calls": 1 if seeded else 0,
    }


def _log_retry(settings: ModelSettings) -> Callable[[RetryCallState], None]:
    def before_sleep(state: RetryCallState) -> None:
        failure = state.outcome.exception() if state.outcome is not None else None
        cause = describe(failure) if failure is not None else "?"
        wait = state.next_action.sleep if state.next_action else 0.0
        log.warning(
            "model %s attempt %d failed (%s); retrying in %.2fs", settings.model, state.attempt_number, cause, wait
        )

    return before_sleep


def _log_call(settings: ModelSettings, attempts: int, started: float, outcome: str) -> None:
    """The one log line of a model call (DEBUG: a run makes thousands)."""
    log.debug(
        "model %s: %s (%d attempt%s, %.2fs)",
        settings.model,
        outcome,
        attempts,
        "" if attempts == 1 else "s",
        time.monotonic() - started,
    )


async def complete(
    settings: ModelSettings,
    messages: Sequence[ChatMessage | Mapping[str, Any]],
    tools: Sequence[ToolSchema] | None = None,
    *,
    hook: ModelCallHook | None = None,
    policy: RetryPolicy | None = None,
    sampling: bool = True,
    headers: Mapping[str, str] | None = None,
) -> Completion:
    """Ask ``settings.model`` for the next assistant message of ``messages`` (OpenAI chat form).

    Rate limits (Retry-After honoured), 5xx, timeouts, connection errors and empty replies (no choices, no text and
    no tool call, whatever the finish reason) are retried with exponential backoff within ``policy`` (default: from
    ``TAUMESH_LLM_*``); when every attempt failed, :class:`ModelUnavailable` is raised (:class:`MalformedOutput`
    when the server could not parse what the model wrote). A request the provider refuses (4xx) raises
    :class:`ModelRequestError`.
    ``hook`` (and hooks registered with :func:`taumesh.llm.add_model_call_hook`) wrap each HTTP attempt.
    ``sampling=False`` leaves temperature and seed to the provider (the request names only model and messages).
    ``headers`` go with each HTTP request (the model gateway's signed rollout id); none by default.
    """
    if not settings.model:
        raise ModelRequestError("no model configured")
    policy = policy or current_policy()
    payload = [m.openai() if isinstance(m, ChatMessage) else dict(m) for m in messages]
    kwargs = request_kwargs(settings, policy, tools, sampling)
    if headers:
        kwargs["extra_headers"] = dict(headers)
    unauthenticated = missing_openai_key(settings, kwargs)
    if unauthenticated:
        _log_call(settings, 0, time.monotonic(), f"refused: {unauthenticated}")
        raise ModelRequestError(unauthenticated, 1)
    extra_hooks = [hook] if hook is not None else []
    retried = Usage()  # tokens billed for empty replies that were retried
    attempts = 0
    started = time.monotonic()
    try:
        async for attempt in AsyncRetrying(
            retry=retry_if_exception(retried_here),
            stop=stop_after_attempt(policy.max_attempts),
            wait=wait_retry_after(policy),
            before_sleep=_log_retry(settings),
            reraise=True,
        ):
            with attempt:
                attempts = attempt.retry_state.attempt_number
                call = ModelCall(settings=settings, attempt=attempts, messages=payload, tools=list(tools or []))
                with around_call(call, extra_hooks):
                    try:
                        response = await litellm.acompletion(messages=payload, **kwargs)
                    except Exception as exc:
                        redirected = redirect_refused(exc)
                        if redirected:  # never retried: the next attempt meets the same redirect
                            raise ModelRequestError(redirected, attempts) from exc
                        raise
                    usage = usage_of(response).model_copy(update=provider_account(response, "seed" in kwargs))
                    call.usage, call.response_model = usage, str(getattr(response, "model", "") or "")
                    choices = getattr(response, "choices", None) or []
                    call.finish_reason = str(choices[0].finish_reason or "") if choices else ""
                    try:
                        message = message_of(response)
                    except EmptyReply:
                        retried += usage.model_copy(update={"calls": 0, "seeded_calls": 0})
                        raise
                total = retried + usage
                _log_call(
                    settings,
                    attempts,
                    started,
                    f"finish {call.finish_reason or '?'}, {total.prompt_tokens}+{total.completion_tokens} tokens, "
                    f"${total.cost_usd:.6f}",
                )
                return Completion(
                    message=message,
                    usage=total,
                    finish_reason=call.finish_reason or "",
                    model=call.response_model or settings.model,
                )
    except ModelError as exc:
        _log_call(settings, attempts, started, f"failed: {exc}")
        raise
    except Exception as exc:
        _log_call(settings, attempts, started, f"failed: {describe(exc)}")
        if is_malformed_output(exc):
            raise MalformedOutput(describe(exc), attempts) from exc
        if is_rate_limit(exc):
            raise ModelRateLimited(describe(exc), attempts, retry_after(exc)) from exc
        if is_transient(exc):
            raise ModelUnavailable(describe(exc), attempts) from exc
        if isinstance(exc, ContextWindowExceededError):
            raise ContextWindowExceeded(describe(exc), attempts) from exc
        raise ModelRequestError(describe(exc), attempts) from exc
    raise AssertionError("unreachable: tenacity returns or raises")
