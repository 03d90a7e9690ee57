"""The tool contract every domain implements.

A tool is a class with a static ``invoke(data, **kwargs) -> str``, exactly as τ-bench v1 shapes
them: Python itself then produces the original's error texts for missing or unexpected arguments
(``GetOrderDetails.invoke() missing 1 required positional argument: 'order_id'``), because the
qualified name of ``invoke`` is the same.
"""

from __future__ import annotations

from typing import Any, ClassVar, Literal

Data = dict[str, Any]
"""The domain database: table name -> table (a mapping of record id -> record)."""

Requestor = Literal["assistant", "user"]
"""Who calls a tool: the agent under test (``assistant``) or the simulated user (``user``)."""


class Refusal(Exception):
    """A tool refuses the call. The session reports it as ``"Error: <message>"``, as τ-bench's tools do."""


class Tool:
    """Base class of a domain tool.

    Subclasses set ``name`` (the function name the agent calls) and ``writes`` (whether the tool
    may change the database; read tools get the read-only base records and may change nothing),
    and define ``invoke`` as a ``staticmethod`` taking ``data`` first and the tool's arguments as
    keywords. ``side`` says who may call it (the assistant by default, or the user). A retrieval tool
    sets ``reads_documents`` and takes ``documents`` after ``data``; a slow one sets ``blocking``.

    The schema the caller sees comes either from the domain's data (v1's ``tools.json``) or from
    the tool itself: ``description`` and ``parameters`` (a JSON schema object), see :meth:`schema`.
    """

    name: ClassVar[str]
    writes: ClassVar[bool] = False
    side: ClassVar[Requestor] = "assistant"
    description: ClassVar[str | None] = None
    parameters: ClassVar[dict[str, Any] | None] = None
    reads_documents: ClassVar[bool] = False
    """A retrieval tool: ``invoke`` also gets ``documents=``, the domain's (``DomainPlugin.documents``)."""
    blocking: ClassVar[bool] = False
    """``invoke`` waits on something outside the process for up to seconds (a sandboxed command): the env service
    runs it in its bounded worker pool, never on its event loop, so other sessions and health checks go on."""

    invoke: ClassVar[Any]

    @classmethod
    def schema(cls) -> dict[str, Any]:
        """The tool's OpenAI function schema, from ``description`` and ``parameters``."""
        if cls.description is None or cls.parameters is None:
            raise TypeError(f"tool {cls.name!r} ({cls.__qualname__}) declares no description and parameters")
        return {
            "type": "function",
            "function": {"name": cls.name, "description": cls.description, "parameters": cls.parameters},
        }
