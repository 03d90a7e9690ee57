"""``human``: a person types the customer's turns in the terminal of the process running the user-sim service.

With ``taumesh run`` in embedded mode that is the terminal of ``taumesh run`` itself. The agent's message is shown
first, then a line is read. An empty line, end of input (Ctrl-D) or a line containing ``###STOP###`` ends the
conversation; once the person has ended it, later turns of the same conversation end it again without asking.

Lines are read on the event loop (the loop watches stdin; no thread sits in a blocking ``input()``), so the services
keep running while the person types, and Ctrl-C stops the run at once: cancelling the wait leaves nothing behind
that shutdown would have to join.
"""

from __future__ import annotations

import asyncio
import os
import sys
from collections.abc import Awaitable, Callable
from typing import ClassVar

from taumesh.models import STOP_TOKEN, ChatMessage
from taumesh.services.user_sim.strategies.base import UserReply, UserTurn
from taumesh.services.user_sim.strategies.prompts import HUMAN_INTRO

PROMPT = "You: "
CHUNK = 65536


def _write(text: str) -> None:
    sys.stdout.write(text)
    sys.stdout.flush()


class LineReader:
    """Lines from a file descriptor, awaited on the event loop, so waiting for one can be cancelled."""

    def __init__(self, fd: int) -> None:
        self.fd = fd
        self._pending = b""  # read ahead: what was typed (or piped) after the last line returned

    async def readline(self) -> str | None:
        """The next line without its end; None at end of input."""
        while b"\n" not in self._pending:
            chunk = await self._read()
            if not chunk:  # end of input (Ctrl-D at a terminal): what is left is the last line
                rest, self._pending = self._pending, b""
                return rest.decode(errors="replace") if rest else None
            self._pending += chunk
        line, _, self._pending = self._pending.partition(b"\n")
        return line.decode(errors="replace")

    async def _read(self) -> bytes:
        loop = asyncio.get_running_loop()
        ready: asyncio.Future[None] = loop.create_future()

        def readable() -> None:
            if not ready.done():
                ready.set_result(None)

        try:
            loop.add_reader(self.fd, readable)
        except PermissionError:  # a regular file: the selector refuses it, and reading it never blocks
            return os.read(self.fd, CHUNK)
        try:
            await ready
        finally:
            loop.remove_reader(self.fd)
        try:
            return os.read(self.fd, CHUNK)
        except BlockingIOError:  # readable a moment ago, but someone else took it: wait again
            return await self._read()


class HumanUser:
    """Reads the customer's messages from a person."""

    name = "human"
    calls_model: ClassVar[bool] = False

    def __init__(
        self,
        read: Callable[[], Awaitable[str | None]] | None = None,
        write: Callable[[str], None] = _write,
    ) -> None:
        self.read = read or self._stdin_line
        self.write = write
        self._stdin: LineReader | None = None

    async def _stdin_line(self) -> str | None:
        if self._stdin is None:  # opened on first use: a served user-sim that never plays a human has no stdin
            self._stdin = LineReader(sys.stdin.fileno())
        return await self._stdin.readline()

    async def ask(self, shown: str) -> str:
        """Show ``shown``, then read one line (``###STOP###`` for an empty line or end of input)."""
        self.write(f"{shown}\n{PROMPT}")
        line = await self.read()
        if line is None:
            self.write("\n")  # Ctrl-D leaves the cursor after the prompt
            return STOP_TOKEN
        return line.strip() or STOP_TOKEN

    async def reply(self, turn: UserTurn) -> UserReply:
        if any(m.role == "user" and STOP_TOKEN in m.content for m in turn.conversation):
            return UserReply(message=ChatMessage(role="user", content=STOP_TOKEN))  # the person already ended it
        if turn.conversation:
            shown = f"\nAgent: {turn.conversation[-1].content}"
        else:
            shown = HUMAN_INTRO.format(instruction=turn.instruction)
        return UserReply(message=ChatMessage(role="user", content=await self.ask(shown)))
