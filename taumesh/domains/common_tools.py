"""Tools both τ-bench v1 domains share: ``calculate``, ``think`` and ``transfer_to_human_agents``."""

from __future__ import annotations

import ast
from typing import Any

from taumesh.domains._tool import Data, Tool

_CALCULATOR_CHARACTERS = set("0123456789+-*/(). ")
_LARGEST_EXPONENT = 10_000


def _check_powers(expression: str) -> None:
    """Refuse ``**`` chains that would take the service down (``9**9**9**9``).

    τ-bench evaluates any expression made of the allowed characters; for every expression whose
    powers stay small we give the same answer, and a clear error for the rest.
    """
    try:
        tree = ast.parse(expression, mode="eval")
    except SyntaxError:
        return  # eval below raises the same SyntaxError, with the original's message
    for node in ast.walk(tree):
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Pow):
            exponent = node.right
            if not (isinstance(exponent, ast.Constant) and isinstance(exponent.value, int | float)):
                raise ValueError("nested exponents are not supported")
            if abs(exponent.value) > _LARGEST_EXPONENT:
                raise ValueError(f"exponent {exponent.value} is too large")


class Calculate(Tool):
    name = "calculate"

    @staticmethod
    def invoke(data: Data, expression: str) -> str:
        if not all(char in _CALCULATOR_CHARACTERS for char in expression):
            return "Error: invalid characters in expression"
        _check_powers(expression)
        try:
            value: Any = eval(expression, {"__builtins__": {}}, {})  # noqa: S307 - characters checked
            return str(round(float(value), 2))
        except Exception as exc:  # noqa: BLE001 - the original reports every failure this way
            return f"Error: {exc}"


class Think(Tool):
    name = "think"

    @staticmethod
    def invoke(data: Data, thought: str) -> str:
        return ""


class TransferToHumanAgents(Tool):
    name = "transfer_to_human_agents"

    @staticmethod
    def invoke(data: Data, summary: str) -> str:
        return "Transfer successful"
