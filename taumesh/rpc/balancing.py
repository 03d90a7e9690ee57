"""How clients spread calls over a service's replicas: gRPC service configs, keepalive and the affinity header.

Every replica of a service sits behind one target: a DNS name resolving to each pod (``dns:///user-sim:50051``)
or gRPC's own list form (``ipv4:127.0.0.1:50061,127.0.0.1:50062``). gRPC's client-side load balancing then
does the work:

* Stateless services (user-sim, agent, scorer) use ``round_robin``: each call goes to the next ready replica.
* The env keeps sessions in memory, so an episode's calls must reach the replica that holds its session. Its
  channel uses ``ring_hash`` keyed on the :data:`AFFINITY_HEADER` metadata, which carries the episode id on
  every env call: one episode, one replica, and a proxy can route by the same header. When that replica dies
  or drains, the ring moves the episode to another one, which answers NOT_FOUND (``SESSION_NOT_FOUND``): the
  orchestrator then rebuilds the session there by replaying its tool calls.
* Client-side health checking takes a replica whose health says NOT_SERVING (draining) out of the rotation.
* Calls that fail UNAVAILABLE are retried by gRPC's own retry policy, with backoff and throttling. Calls do not
  wait for a replica to become ready: with none reachable they fail at once (an unreachable agent is an
  infrastructure error the run reports, not a wait until the deadline), and the runner replays the episode later.
"""

from __future__ import annotations

import json
import os
from typing import Any

AFFINITY_HEADER = "taumesh-episode"
"""Metadata key holding the episode id on every env call; the env channel hashes it to pick a replica."""

# gRPC 1.85 reads a ring_hash policy's ``requestHashHeader`` (gRFC A76) only with this switch on; it must be set
# before gRPC's core starts, which is why it is set when this module (imported by server and client code) loads.
os.environ.setdefault("GRPC_EXPERIMENTAL_RING_HASH_SET_REQUEST_HASH_KEY", "true")

KEEPALIVE_OPTIONS: list[tuple[str, Any]] = [
    ("grpc.keepalive_time_ms", 30_000),
    ("grpc.keepalive_timeout_ms", 10_000),
]
"""Clients ping a connection that has calls in flight every 30 s, so a replica that vanished without closing
its connections (a node lost) is noticed in 40 s instead of at the call's deadline."""

SERVER_KEEPALIVE_OPTIONS: list[tuple[str, Any]] = [
    ("grpc.http2.min_recv_ping_interval_without_data_ms", 20_000),
    ("grpc.http2.max_ping_strikes", 0),
]
"""Servers accept those pings during long calls (a model's answer may take minutes) instead of closing the
connection as abusive, which they would by default at one ping in five minutes."""


def connection_age_options(seconds: float) -> list[tuple[str, Any]]:
    """Server options that close each client connection after about ``seconds`` (0: never), calls in flight kept.

    A client re-resolves its target only when a connection closes, so without this a running orchestrator would
    never see a replica added behind a DNS name (``docker compose up --scale user-sim=3``, a Kubernetes scale-up):
    it would go on with the addresses it resolved at its start. gRPC adds ±10 % jitter, so replicas do not all
    reconnect at once; calls in flight finish on the old connection (within an hour: a model answer is shorter).
    """
    if seconds <= 0:
        return []
    return [("grpc.max_connection_age_ms", int(seconds * 1000)), ("grpc.max_connection_age_grace_ms", 3_600_000)]


RETRY_BUFFER_OPTIONS: list[tuple[str, Any]] = [("grpc.per_rpc_retry_buffer_size", 16 * 1024 * 1024)]
"""Conversations travel whole with each call; a request larger than the buffer could not be retried."""

_RETRY_THROTTLING = {"maxTokens": 100, "tokenRatio": 0.1}
"""Stop retrying when most calls fail (gRFC A6): a service that is down gets no retry storm."""


def _retry_policy(attempts: int) -> dict[str, Any]:
    return {
        "maxAttempts": attempts,
        "initialBackoff": "0.2s",
        "maxBackoff": "5s",
        "backoffMultiplier": 2,
        "retryableStatusCodes": ["UNAVAILABLE"],
    }


def service_config(service: str | None, *, sticky: bool = False, attempts: int = 4) -> str:
    """The JSON service config of a channel to a service.

    ``service``: its full name, whose health the client watches; None for a service that may not serve health
    for that name (an external agent), whose replicas are then all taken as healthy. ``sticky``: ``ring_hash`` on
    :data:`AFFINITY_HEADER` instead of ``round_robin``. ``attempts``: tries per call on UNAVAILABLE (services
    that call a model retry it themselves, so their clients try fewer times).
    """
    policy = {"ring_hash_experimental": {"requestHashHeader": AFFINITY_HEADER}} if sticky else {"round_robin": {}}
    config: dict[str, Any] = {
        "loadBalancingConfig": [policy],
        "retryThrottling": _RETRY_THROTTLING,
        "methodConfig": [{"name": [{}], "retryPolicy": _retry_policy(attempts)}],
    }
    if service is not None:
        config["healthCheckConfig"] = {"serviceName": service}
    return json.dumps(config)


def client_options(service: str | None, *, sticky: bool = False, attempts: int = 4) -> list[tuple[str, Any]]:
    """Channel options for a client of a service (see :func:`service_config`): keepalive and retry buffer too."""
    return [
        ("grpc.service_config", service_config(service, sticky=sticky, attempts=attempts)),
        *KEEPALIVE_OPTIONS,
        *RETRY_BUFFER_OPTIONS,
    ]
