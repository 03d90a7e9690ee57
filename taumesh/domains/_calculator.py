"""The guard every ``calculate`` tool shares: refuse powers that would take the service down."""

from __future__ import annotations

import ast

_LARGEST_EXPONENT = 10_000


def check_powers(expression: str) -> None:
    """Refuse ``**`` chains that would take the service down (``9**9**9**9``).

    τ-bench evaluates any expression made of the allowed characters; for every expression whose
    powers stay small we give the same answer, and a clear error for the rest.
    """
    try:
        tree = ast.parse(expression, mode="eval")
    except SyntaxError:
        return  # eval then raises the same SyntaxError, with the original's message
    for node in ast.walk(tree):
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Pow):
            exponent = node.right
            if not (isinstance(exponent, ast.Constant) and isinstance(exponent.value, int | float)):
                raise ValueError("nested exponents are not supported")
            if abs(exponent.value) > _LARGEST_EXPONENT:
                raise ValueError(f"exponent {exponent.value} is too large")
