"""The tools several τ² toolkits define alike: ``calculate`` and ``transfer_to_human_agents``.

Each is a toolkit mixin; a toolkit inheriting one gets the method re-homed under its own name, so that
Python's argument errors name the toolkit as τ²'s do
(``RetailTools.calculate() missing 1 required positional argument: 'expression'``).
"""

from __future__ import annotations

from taumesh.domains import check_powers
from taumesh.domains.tau2._toolkit import Toolkit, read

_CALCULATOR_CHARACTERS = frozenset("0123456789+-*/(). ")


class Calculator(Toolkit):
    """``calculate``: an arithmetic expression of digits, operators and brackets, rounded to 2 places."""

    @read
    def calculate(self, expression: str) -> str:
        if not all(char in _CALCULATOR_CHARACTERS for char in expression):
            raise ValueError("Invalid characters in expression")
        check_powers(expression)
        return str(round(float(eval(expression, {"__builtins__": None}, {})), 2))  # noqa: S307 - characters checked


class Transfer(Toolkit):
    """``transfer_to_human_agents``: always succeeds, and the episode goes on (τ² has no terminate tool)."""

    @read
    def transfer_to_human_agents(self, summary: str) -> str:
        return "Transfer successful"
