"""``taumesh.rollout.v1.RolloutService``: group rollouts as a server-streaming call, with gRPC health checking."""

from __future__ import annotations

import contextlib
import logging
from collections.abc import AsyncIterator

from pydantic import ValidationError

from taumesh.orchestrator.clients import ServiceClients
from taumesh.orchestrator.domain_info import ConfigError
from taumesh.orchestrator.run.stack import serving_targets
from taumesh.rollout.server.plays import RolloutOperator, RolloutRefused, check_rollouts, play_rollouts
from taumesh.rollout.server.wire import episode_message, request_from_message
from taumesh.rollout.v1 import rollout_pb2, rollout_pb2_grpc
from taumesh.rpc.errors import Context, InvalidArgument, NotFound, RpcError, send_status
from taumesh.rpc.security import ServerSecurity
from taumesh.rpc.server import Service, serve_forever

log = logging.getLogger(__name__)
SERVICE_NAME = rollout_pb2.DESCRIPTOR.services_by_name["RolloutService"].full_name
STREAM_BUFFER = 2
"""Ended episodes waiting for gRPC to take them; gRPC's own flow control holds the rest of the back-pressure."""


def _validation_message(exc: ValidationError) -> str:
    return "; ".join(
        f"{'.'.join(str(part) for part in error['loc']) or 'request'}: "
        + str(error["msg"]).removeprefix("Value error, ")
        for error in exc.errors()
    )


class RolloutServicer(rollout_pb2_grpc.RolloutServiceServicer):
    """Checks each request as the REST API checks a run, then streams its episodes as they end."""

    def __init__(self, operator: RolloutOperator, clients: ServiceClients) -> None:
        self.operator = operator
        self.clients = clients

    async def GroupRollouts(
        self, request: rollout_pb2.GroupRolloutsRequest, context: Context
    ) -> AsyncIterator[rollout_pb2.RolloutEpisode]:
        """Refused requests end with INVALID_ARGUMENT or NOT_FOUND before any episode plays (no exception kept)."""
        refusal: RpcError | None = None
        try:
            body = request_from_message(request)
            await check_rollouts(body, self.operator, self.clients)
        except ValidationError as exc:
            refusal = InvalidArgument(_validation_message(exc))
        except RolloutRefused as exc:
            refusal = NotFound(exc.message) if exc.kind == "not_found" else InvalidArgument(exc.message)
        if refusal is not None:
            send_status(context, refusal.status())
            return
        stream = play_rollouts(body, self.operator, buffer=STREAM_BUFFER)
        try:
            async with contextlib.aclosing(stream):  # a cancelled call closes the stream, which cancels the run
                async for episode in stream:
                    yield episode_message(episode)
        except ConfigError as exc:  # the services changed between the check and the run
            send_status(context, InvalidArgument(str(exc)).status())


def rollout_service(operator: RolloutOperator, clients: ServiceClients) -> Service:
    """RolloutService for :func:`taumesh.rpc.server.start_server` (health and reflection come with it).

    ``operator.addresses`` must name all four services (see :func:`operator_services`).
    """
    return Service(
        name=SERVICE_NAME,
        register=rollout_pb2_grpc.add_RolloutServiceServicer_to_server,
        servicer=RolloutServicer(operator, clients),
        max_request_bytes=1024 * 1024,  # a request is a list of task ids and a few names
    )


@contextlib.asynccontextmanager
async def operator_services(operator: RolloutOperator) -> AsyncIterator[tuple[RolloutOperator, ServiceClients]]:
    """The four services started once for the server's life (those ``operator`` gives no address), and clients.

    Every request then plays on them by address, rather than starting its own: the operator with every address set.
    """
    async with serving_targets(operator.addresses, operator.data_dir) as targets:
        addresses = operator.addresses.model_copy(
            update={"env": targets.env, "user": targets.user, "agent": targets.agent, "scorer": targets.scorer}
        )
        clients = targets.connect()
        try:
            yield operator.model_copy(update={"addresses": addresses}), clients
        finally:
            await clients.close()


async def serve_rollouts(
    operator: RolloutOperator, host: str, port: int, security: ServerSecurity | None = None
) -> None:
    """Serve RolloutService on ``host:port`` until SIGINT or SIGTERM, then drain and stop gracefully."""
    async with operator_services(operator) as (ready, clients):
        await serve_forever([rollout_service(ready, clients)], host, port, security=security)
