"""The tool contract every domain implements.

A tool is a class with a static ``invoke(data, **kwargs) -> str``, exactly as τ-bench v1 shapes
them: Python itself then produces the original's error texts for missing or unexpected arguments
(``GetOrderDetails.invoke() missing 1 required positional argument: 'order_id'``), because the
qualified name of ``invoke`` is the same.
"""

from __future__ import annotations

from typing import Any, ClassVar

Data = dict[str, Any]
"""The domain database: table name -> table (a mapping of record id -> record)."""


class Refusal(Exception):
    """A tool refuses the call. The session reports it as ``"Error: <message>"``, as τ-bench's tools do."""


class Tool:
    """Base class of a domain tool.

    Subclasses set ``name`` (the function name the agent calls) and ``writes`` (whether the tool
    may change the database; read tools never get a private copy of a record), and define
    ``invoke`` as a ``staticmethod`` taking ``data`` first and the tool's arguments as keywords.
    """

    name: ClassVar[str]
    writes: ClassVar[bool] = False

    invoke: ClassVar[Any]
