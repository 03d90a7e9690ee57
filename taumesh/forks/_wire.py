"""Frames between taumesh and a fork's worker: a 4-byte big-endian length, then that many bytes of JSON.

Plain data both ways, never pickle: a reply is decoded by a JSON parser, so nothing a worker sends can run code
in the process that reads it (the parent validates each reply with pydantic, :mod:`taumesh.forks._pool`). JSON is
written ASCII-only (``ensure_ascii``), so every Python ``str``, lone surrogates included, comes back equal.

Standard library only: the worker imports this before the fork's code.
"""

from __future__ import annotations

import json
import socket
import struct
import time
from typing import Any

HEADER = struct.Struct("!I")
MAX_FRAME = 256 << 20
"""Bytes a frame may hold: an environment's recorded tasks and tools (``describe``) are the largest, a few MB."""


class FrameError(ValueError):
    """A frame that cannot be one: longer than :data:`MAX_FRAME`, or a message that is no JSON."""


def encode(message: Any) -> bytes:
    """``message`` as one frame; ValueError (FrameError) when it is not JSON data."""
    try:
        payload = json.dumps(message, allow_nan=True).encode("ascii")
    except (TypeError, ValueError) as exc:
        raise FrameError(f"not JSON data: {exc}") from exc
    if len(payload) > MAX_FRAME:
        raise FrameError(f"a frame of {len(payload)} bytes is over the {MAX_FRAME}-byte limit")
    return HEADER.pack(len(payload)) + payload


def send(channel: socket.socket, message: Any, deadline: float | None = None) -> None:
    """Write ``message``'s frame; TimeoutError when the reader has not taken it by ``deadline`` (monotonic)."""
    frame = encode(message)
    channel.settimeout(_remaining(deadline))
    try:
        channel.sendall(frame)
    finally:
        channel.settimeout(None)


def receive(channel: socket.socket, deadline: float | None = None) -> bytes:
    """The next frame's payload (undecoded); EOFError at the end, TimeoutError past ``deadline`` (monotonic)."""
    (length,) = HEADER.unpack(_exactly(channel, HEADER.size, deadline))
    if length > MAX_FRAME:
        raise FrameError(f"a frame of {length} bytes announced, over the {MAX_FRAME}-byte limit")
    return _exactly(channel, length, deadline)


def _exactly(channel: socket.socket, count: int, deadline: float | None) -> bytes:
    chunks: list[bytes] = []
    left = count
    try:
        while left:
            channel.settimeout(_remaining(deadline))
            chunk = channel.recv(min(left, 1 << 20))
            if not chunk:
                raise EOFError("the other end closed the channel")
            chunks.append(chunk)
            left -= len(chunk)
    finally:
        channel.settimeout(None)
    return b"".join(chunks)


def _remaining(deadline: float | None) -> float | None:
    if deadline is None:
        return None
    left = deadline - time.monotonic()
    if left <= 0:
        raise TimeoutError("the deadline passed")
    return left
