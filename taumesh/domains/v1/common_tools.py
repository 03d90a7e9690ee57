"""Tools both τ-bench v1 domains share: ``calculate``, ``think`` and ``transfer_to_human_agents``."""

from __future__ import annotations

from typing import Any

from taumesh.domains import Data, Tool, check_powers

_CALCULATOR_CHARACTERS = set("0123456789+-*/(). ")


class Calculate(Tool):
    name = "calculate"

    @staticmethod
    def invoke(data: Data, expression: str) -> str:
        if not all(char in _CALCULATOR_CHARACTERS for char in expression):
            return "Error: invalid characters in expression"
        check_powers(expression)
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
