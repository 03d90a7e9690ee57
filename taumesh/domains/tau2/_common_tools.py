"""The tools several τ² toolkits define alike: ``calculate`` and ``transfer_to_human_agents``.

Each toolkit gets its own classes, so that Python's argument errors name the toolkit as τ²'s do
(``RetailTools.calculate() missing 1 required positional argument: 'expression'``).
"""

from __future__ import annotations

from taumesh.domains import Data, Tool, check_powers
from taumesh.domains.tau2._plugin import tau2_tool

_CALCULATOR_CHARACTERS = frozenset("0123456789+-*/(). ")


def calculate_tool(toolkit: str) -> type[Tool]:
    """``calculate``: an arithmetic expression of digits, operators and brackets, rounded to 2 places."""

    class Calculate(Tool):
        name = "calculate"

        @staticmethod
        def invoke(data: Data, expression: str) -> str:
            if not all(char in _CALCULATOR_CHARACTERS for char in expression):
                raise ValueError("Invalid characters in expression")
            check_powers(expression)
            return str(round(float(eval(expression, {"__builtins__": None}, {})), 2))  # noqa: S307 - characters checked

    return tau2_tool(toolkit)(Calculate)


def transfer_tool(toolkit: str) -> type[Tool]:
    """``transfer_to_human_agents``: always succeeds, and the episode goes on (τ² has no terminate tool)."""

    class TransferToHumanAgents(Tool):
        name = "transfer_to_human_agents"

        @staticmethod
        def invoke(data: Data, summary: str) -> str:
            return "Transfer successful"

    return tau2_tool(toolkit)(TransferToHumanAgents)
