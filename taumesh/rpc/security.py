"""Who may talk to a service: TLS for servers and clients, and an optional shared bearer token.

A server takes its certificate and key (and, for mutual TLS, the CA its clients' certificates must chain to) from
``taumesh serve``'s settings. A client reads :class:`ClientSecurity` from the environment (``TAUMESH_TLS_CA``,
``TAUMESH_TLS_CLIENT_CERT``/``TAUMESH_TLS_CLIENT_KEY``, ``TAUMESH_TOKEN_FILE`` or ``TAUMESH_TOKEN``), so every
command that dials a service (``run``, ``rescore``, ``analyze``) uses it with no flag of its own.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any, cast

import grpc
from pydantic import BaseModel, SecretStr, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

TOKEN_METADATA_KEY = "authorization"  # noqa: S105 - a header name, not a secret
"""Metadata key of the shared token, sent as ``Bearer <token>``."""


class SecurityError(ValueError):
    """TLS or token settings that cannot be used (a missing file, a key without its certificate)."""


def read_token(token_file: Path | None, token: SecretStr | None) -> str | None:
    """The shared token: the file's first line wins over the literal value; None when neither is set."""
    if token_file is not None:
        try:
            text = token_file.read_text(encoding="utf-8").strip()
        except OSError as exc:
            raise SecurityError(f"cannot read the token file {token_file}: {exc.strerror}") from exc
        if not text:
            raise SecurityError(f"the token file {token_file} is empty")
        return text.splitlines()[0].strip()
    value = token.get_secret_value().strip() if token is not None else ""
    return value or None


def _read(path: Path, what: str) -> bytes:
    try:
        return path.read_bytes()
    except OSError as exc:
        raise SecurityError(f"cannot read the {what} {path}: {exc.strerror}") from exc


class ServerSecurity(BaseModel, frozen=True):
    """How a server proves itself and checks its callers."""

    tls_cert: Path | None = None
    """PEM certificate chain of the server; with ``tls_key``, the server speaks TLS only."""
    tls_key: Path | None = None
    """PEM private key of ``tls_cert``."""
    tls_client_ca: Path | None = None
    """PEM CA bundle; when set, every client must present a certificate it signed (mutual TLS)."""
    token: str | None = None
    """When set, every call but health checking must carry ``authorization: Bearer <token>``."""

    @model_validator(mode="after")
    def _pairs(self) -> ServerSecurity:
        if (self.tls_cert is None) != (self.tls_key is None):
            raise ValueError("tls_cert and tls_key go together: give both or neither")
        if self.tls_client_ca is not None and self.tls_cert is None:
            raise ValueError("tls_client_ca (mutual TLS) needs tls_cert and tls_key")
        return self

    @property
    def uses_tls(self) -> bool:
        return self.tls_cert is not None

    def credentials(self) -> grpc.ServerCredentials | None:
        """TLS credentials for the listening port, or None for plaintext."""
        if self.tls_cert is None or self.tls_key is None:
            return None
        pair = (_read(self.tls_key, "TLS key"), _read(self.tls_cert, "TLS certificate"))
        client_ca = _read(self.tls_client_ca, "client CA") if self.tls_client_ca else None
        return grpc.ssl_server_credentials(
            [pair], root_certificates=client_ca, require_client_auth=client_ca is not None
        )


class ClientSecurity(BaseSettings):
    """How a client reaches remote services, from the environment.

    ``TAUMESH_TLS_CA``, ``TAUMESH_TLS_CLIENT_CERT``, ``TAUMESH_TLS_CLIENT_KEY``, ``TAUMESH_TLS_SERVER_NAME``,
    ``TAUMESH_TOKEN_FILE`` and ``TAUMESH_TOKEN``.
    """

    model_config = SettingsConfigDict(env_prefix="TAUMESH_", extra="ignore")

    tls_ca: Path | None = None
    """PEM CA bundle the servers' certificates chain to; when set, every remote channel uses TLS."""
    tls_client_cert: Path | None = None
    """PEM certificate this client presents (mutual TLS)."""
    tls_client_key: Path | None = None
    """PEM private key of ``tls_client_cert``."""
    tls_server_name: str | None = None
    """Name to check the server's certificate against instead of the address's host."""
    token_file: Path | None = None
    """File whose first line is the shared token (wins over ``token``)."""
    token: SecretStr | None = None
    """The shared token itself."""

    @model_validator(mode="after")
    def _pairs(self) -> ClientSecurity:
        if (self.tls_client_cert is None) != (self.tls_client_key is None):
            raise ValueError("TAUMESH_TLS_CLIENT_CERT and TAUMESH_TLS_CLIENT_KEY go together: give both or neither")
        if self.tls_client_cert is not None and self.tls_ca is None:
            raise ValueError("a client certificate (mutual TLS) needs TAUMESH_TLS_CA")
        return self

    def channel(
        self, address: str, options: Sequence[tuple[str, Any]], interceptors: Sequence[grpc.aio.ClientInterceptor]
    ) -> grpc.aio.Channel:
        """A channel to ``address``: TLS when a CA is set, and the token on every call when one is set."""
        token = read_token(self.token_file, self.token)
        chain: list[grpc.aio.ClientInterceptor] = list(interceptors)
        if token:
            chain.append(cast(grpc.aio.ClientInterceptor, BearerToken(token)))  # grpc-stubs: a partial stub
        if self.tls_ca is None:
            return grpc.aio.insecure_channel(address, options=list(options), interceptors=chain or None)
        credentials = grpc.ssl_channel_credentials(
            root_certificates=_read(self.tls_ca, "TLS CA"),
            private_key=_read(self.tls_client_key, "TLS client key") if self.tls_client_key else None,
            certificate_chain=_read(self.tls_client_cert, "TLS client certificate") if self.tls_client_cert else None,
        )
        if self.tls_server_name:
            options = [*options, ("grpc.ssl_target_name_override", self.tls_server_name)]
        return grpc.aio.secure_channel(address, credentials, options=list(options), interceptors=chain or None)


class BearerToken(grpc.aio.UnaryUnaryClientInterceptor):  # type: ignore[type-arg]  # generic in the stubs only
    """Adds ``authorization: Bearer <token>`` to every unary call (all of taumesh's RPCs are unary).

    An interceptor rather than ``access_token_call_credentials``, which gRPC sends over TLS only: a token on a
    loopback plaintext channel is the operator's choice.
    """

    def __init__(self, token: str) -> None:
        self._header = (TOKEN_METADATA_KEY, f"Bearer {token}")

    async def intercept_unary_unary(self, continuation: Any, client_call_details: Any, request: Any) -> Any:
        metadata = grpc.aio.Metadata(*(client_call_details.metadata or ()), self._header)
        return await continuation(client_call_details._replace(metadata=metadata), request)
