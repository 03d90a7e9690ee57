"""Before a run or a rescore plays anything: the env can read the domain's data (one session opened and closed).

The env reads a domain's data on its first session; a corrupt file (an interrupted copy, a hand edit) then fails
every episode. Found here, it is one clear error naming the file and where JSON stopped, before a results file or
an errors file is written.
"""

from __future__ import annotations

import contextlib

import grpc

from taumesh.convert import task_ref_to_proto
from taumesh.env.v1 import env_pb2
from taumesh.models import TaskRef
from taumesh.orchestrator.clients import ServiceClients, with_retries

REFUSALS = frozenset({grpc.StatusCode.NOT_FOUND, grpc.StatusCode.INVALID_ARGUMENT, grpc.StatusCode.FAILED_PRECONDITION})
"""What the env answers when the data, not the infrastructure, is at fault (an unreadable file, a missing task)."""


class DataUnreadable(Exception):
    """The env cannot serve the domain's data: the message says which file and why."""


async def check_domain_data(clients: ServiceClients, task: TaskRef, timeout: float) -> None:
    """Open a session for ``task`` and close it; raise :class:`DataUnreadable` when the env refuses for its data."""
    try:
        opened: env_pb2.OpenSessionResponse = await with_retries(
            lambda: clients.env.OpenSession(env_pb2.OpenSessionRequest(task=task_ref_to_proto(task)), timeout=timeout)
        )
    except grpc.aio.AioRpcError as exc:
        if exc.code() in REFUSALS:
            raise DataUnreadable(exc.details() or exc.code().name) from exc
        raise
    with contextlib.suppress(grpc.aio.AioRpcError):  # the check is done: a failed close only waits for the reaper
        await clients.env.CloseSession(env_pb2.CloseSessionRequest(session_id=opened.session_id), timeout=timeout)
