"""The gateway's HTTP app: an OpenAI-compatible proxy to one backend that records each call's token data.

Routes: ``POST /v1/chat/completions`` and ``POST /v1/completions`` (forwarded, recorded),
``GET /v1/rollouts/{rollout_id}/traces`` (a rollout's records, to a caller holding its signature), ``GET /health``.
Everything a request could steer is the server's: the backend URL, its API key (an environment variable) and the
trace directory are fixed at start; a request's body is forwarded to that backend only, its headers are not.
"""

from __future__ import annotations

import json
import logging
import os
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import httpx
from pydantic import BaseModel, ConfigDict, Field, SecretStr, field_validator
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from taumesh.gateway.records import ModelCallTrace
from taumesh.gateway.signing import ROLLOUT_HEADER, UNATTRIBUTED, WEIGHT_VERSION_HEADER, verified_rollout
from taumesh.gateway.store import TraceStore
from taumesh.gateway.tokens import Api, asking_for_tokens, token_data, without_added

log = logging.getLogger(__name__)

BACKEND_API_KEY_ENV = "TAUMESH_GATEWAY_BACKEND_API_KEY"
"""Default environment variable holding the backend's API key (sent as ``Authorization: Bearer``)."""


class GatewaySettings(BaseModel):
    """How a gateway runs: all of it the operator's, none of it a request's."""

    model_config = ConfigDict(frozen=True)

    backend: str
    """The backend's OpenAI-compatible base URL (``http://host:port/v1``): every call goes there."""
    traces: Path
    """The trace store's directory (one JSONL file per rollout)."""
    key: SecretStr
    """The HMAC key shared with the orchestrator."""
    allow_unattributed: bool = False
    """File calls without a valid signature under ``unattributed`` instead of refusing them (401)."""
    backend_api_key_env: str = BACKEND_API_KEY_ENV
    """The environment variable the backend's API key is read from (unset: no Authorization header)."""
    tokens_as_ids: bool = False
    """Also ask for ``return_tokens_as_token_ids`` (older vLLM, SGLang), when the caller asked for no logprobs."""
    timeout: float = Field(default=600.0, gt=0)
    """Seconds a backend call may take."""
    max_body_bytes: int = Field(default=16 * 1024 * 1024, gt=0)
    """The largest request body accepted."""

    @field_validator("backend")
    @classmethod
    def _http_url(cls, backend: str) -> str:
        url = httpx.URL(backend)
        if url.scheme not in ("http", "https") or not url.host:
            raise ValueError(f"--backend is an http(s) base URL such as http://127.0.0.1:8000/v1, not {backend!r}")
        return backend.rstrip("/")


def _error(status: int, message: str, kind: str = "invalid_request_error") -> JSONResponse:
    """An OpenAI-style error body."""
    return JSONResponse({"error": {"message": message, "type": kind, "code": status}}, status_code=status)


class Gateway:
    """The app's state: settings, the trace store and one HTTP client to the backend."""

    def __init__(self, settings: GatewaySettings) -> None:
        self.settings = settings
        self.key = settings.key.get_secret_value().encode()
        self.store = TraceStore(settings.traces)
        self.client: httpx.AsyncClient | None = None

    def backend_headers(self) -> dict[str, str]:
        headers = {"content-type": "application/json"}
        api_key = os.environ.get(self.settings.backend_api_key_env, "")
        if api_key:
            headers["authorization"] = f"Bearer {api_key}"
        return headers

    def attributed(self, request: Request) -> str | None:
        """The request's verified rollout id; ``unattributed`` when allowed; None: refuse it."""
        rollout_id = verified_rollout(self.key, request.headers.get(ROLLOUT_HEADER))
        if rollout_id is None and self.settings.allow_unattributed:
            return UNATTRIBUTED
        return rollout_id

    async def body_of(self, request: Request) -> dict[str, Any] | JSONResponse:
        limit = self.settings.max_body_bytes
        if int(request.headers.get("content-length") or 0) > limit:
            return _error(413, f"the request body is larger than {limit} bytes")
        raw = await request.body()
        if len(raw) > limit:
            return _error(413, f"the request body is larger than {limit} bytes")
        try:
            body = json.loads(raw)
        except ValueError:
            return _error(400, "the request body is not JSON")
        if not isinstance(body, dict):
            return _error(400, "the request body is not a JSON object")
        if body.get("stream"):
            return _error(400, "the gateway does not stream: send the request with stream false (or unset)")
        if not isinstance(body.get("model"), str) or not body["model"]:
            return _error(400, "the request names no model")
        return body

    async def forward(self, request: Request, api: Api, path: str) -> Response:
        rollout_id = self.attributed(request)
        if rollout_id is None:
            return _error(
                401,
                f"missing or invalid {ROLLOUT_HEADER} signature (expected <rollout_id>.<hex HMAC-SHA256>)",
                "authentication_error",
            )
        body = await self.body_of(request)
        if isinstance(body, JSONResponse):
            return body
        sent, added = asking_for_tokens(body, api, self.settings.tokens_as_ids)
        assert self.client is not None, "the gateway's lifespan opens its client"
        started = time.monotonic()
        try:
            answer = await self.client.post(f"{self.settings.backend}{path}", json=sent, headers=self.backend_headers())
        except httpx.HTTPError as exc:
            log.warning("backend call failed: %s", type(exc).__name__)
            return _error(502, f"the backend did not answer: {type(exc).__name__}", "api_error")
        latency = time.monotonic() - started
        if answer.status_code != 200:  # the backend's refusal, as it gave it: nothing to record
            return Response(answer.content, answer.status_code, media_type=answer.headers.get("content-type"))
        try:
            response = answer.json()
        except ValueError:
            return _error(502, "the backend's answer is not JSON", "api_error")
        if not isinstance(response, dict):
            return _error(502, "the backend's answer is not a JSON object", "api_error")
        tokens = token_data(response, api)
        seen = without_added(response, added)
        reported = response.get("weight_version") or answer.headers.get(WEIGHT_VERSION_HEADER)
        weight_version = str(reported or request.headers.get(WEIGHT_VERSION_HEADER) or "")
        await self.store.append(
            rollout_id,
            lambda index: ModelCallTrace(
                rollout_id=rollout_id,
                index=index,
                model=body["model"],
                request=body,
                response=seen,
                prompt_token_ids=tokens.prompt_token_ids,
                completion_token_ids=tokens.completion_token_ids,
                completion_logprobs=tokens.completion_logprobs,
                loss_mask=tokens.loss_mask,
                weight_version=weight_version,
                latency_s=round(latency, 6),
                system_fingerprint=str(response.get("system_fingerprint") or ""),
            ),
        )
        return JSONResponse(seen)

    async def chat(self, request: Request) -> Response:
        return await self.forward(request, "chat", "/chat/completions")

    async def completions(self, request: Request) -> Response:
        return await self.forward(request, "completions", "/completions")

    async def traces(self, request: Request) -> Response:
        rollout_id = str(request.path_params["rollout_id"])
        try:
            self.store.path(rollout_id)
        except ValueError:
            return _error(400, "not a rollout id (1-128 letters, digits, '_' or '-')")
        if verified_rollout(self.key, request.headers.get(ROLLOUT_HEADER)) != rollout_id:
            return _error(
                401, f"reading a rollout's traces takes its signed id in {ROLLOUT_HEADER}", "authentication_error"
            )
        records = self.store.read(rollout_id)
        return JSONResponse(
            {"rollout_id": rollout_id, "traces": [record.model_dump(mode="json") for record in records]}
        )

    async def health(self, request: Request) -> Response:
        return JSONResponse({"status": "ok"})


def gateway_app(settings: GatewaySettings) -> Starlette:
    """The gateway as an ASGI app (serve it with uvicorn: ``taumesh serve gateway``)."""
    gateway = Gateway(settings)

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        timeout = httpx.Timeout(settings.timeout, connect=10.0)
        async with httpx.AsyncClient(timeout=timeout, follow_redirects=False, trust_env=False) as client:
            gateway.client = client
            yield
            gateway.client = None

    routes = [
        Route("/v1/chat/completions", gateway.chat, methods=["POST"]),
        Route("/v1/completions", gateway.completions, methods=["POST"]),
        Route("/v1/rollouts/{rollout_id}/traces", gateway.traces, methods=["GET"]),
        Route("/health", gateway.health, methods=["GET"]),
    ]
    app = Starlette(routes=routes, lifespan=lifespan)
    app.state.gateway = gateway
    return app
