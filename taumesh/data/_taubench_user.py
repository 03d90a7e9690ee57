"""τ-bench v1's user-simulator prompts, read from a checkout's ``tau_bench/envs/user.py`` with :mod:`ast`.

The texts are τ-bench's, so they are data: extracted at import time into ``user_sim/prompts.json`` of the v1
folder (recorded in its manifest like every other file), never shipped with taumesh. Each f-string becomes a
``str.format`` template: literal braces doubled, each ``{name}`` kept. What is read:

* ``greeting``: the agent message ``LLMUserSimulationEnv.reset`` hard-codes (``{"role": "user", "content": ...}``);
* ``instruction_display``: the ``instruction_display`` expression of ``build_system_prompt``
  (``"<before>" + instruction + "<after>" if instruction is not None else ""``), as ``<before>{instruction}<after>``;
* ``system.llm`` and ``system.react``: the f-strings ``build_system_prompt`` returns in ``LLMUserSimulationEnv`` and
  ``ReactUserSimulationEnv`` (``{instruction_display}`` in them);
* ``verify`` and ``reflect``: the ``prompt = f"..."`` of the functions ``verify`` and ``reflect``
  (``{transcript}``, ``{response}``);
* ``role_labels``: the ``if role == "...": return "..."`` chain of ``map_role_label`` (other roles are capitalised).
"""

from __future__ import annotations

import ast
import json
from pathlib import Path
from typing import Any

from taumesh.data._cache import DatasetError

USER_PROMPTS_FILE = "user_sim/prompts.json"
"""Where the import writes the prompts, relative to the v1 folder."""
USER_SOURCE = "user.py"
"""The file read, in the checkout's ``tau_bench/envs``."""


class UserPromptsFormatError(DatasetError):
    """``user.py`` is not in the shape this reader knows (the message names file and line)."""


def _fail(path: Path, node: ast.AST | None, what: str) -> UserPromptsFormatError:
    line = getattr(node, "lineno", "?") if node is not None else "?"
    return UserPromptsFormatError(f"{path}:{line}: {what}")


def _template(path: Path, node: ast.expr) -> str:
    """An f-string (or plain string) as a ``str.format`` template; any other expression is refused."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value.replace("{", "{{").replace("}", "}}")
    if not isinstance(node, ast.JoinedStr):
        raise _fail(path, node, f"expected an f-string, found {ast.unparse(node)[:80]}")
    parts = []
    for value in node.values:
        if isinstance(value, ast.Constant) and isinstance(value.value, str):
            parts.append(value.value.replace("{", "{{").replace("}", "}}"))
        elif (
            isinstance(value, ast.FormattedValue)
            and isinstance(value.value, ast.Name)
            and value.conversion == -1
            and value.format_spec is None
        ):
            parts.append("{" + value.value.id + "}")
        else:
            raise _fail(path, value, "f-string fields must be plain names")
    return "".join(parts)


def _named(body: list[ast.stmt], kind: type[ast.AST], name: str) -> Any:
    for statement in body:
        if isinstance(statement, kind) and getattr(statement, "name", None) == name:
            return statement
    return None


def _function(path: Path, body: list[ast.stmt], name: str, owner: str = "") -> ast.FunctionDef:
    found = _named(body, ast.FunctionDef, name)
    if found is None:
        raise _fail(path, None, f"no function {owner}{name}")
    assert isinstance(found, ast.FunctionDef)
    return found


def _class(path: Path, module: ast.Module, name: str) -> ast.ClassDef:
    found = _named(module.body, ast.ClassDef, name)
    if found is None:
        raise _fail(path, None, f"no class {name}")
    assert isinstance(found, ast.ClassDef)
    return found


def _assigned(path: Path, function: ast.FunctionDef, variable: str) -> ast.expr:
    for node in ast.walk(function):
        if isinstance(node, ast.Assign) and any(
            isinstance(target, ast.Name) and target.id == variable for target in node.targets
        ):
            return node.value
    raise _fail(path, function, f"{function.name} assigns no {variable}")


def _returned(path: Path, function: ast.FunctionDef) -> ast.expr:
    returns = [node for node in function.body if isinstance(node, ast.Return) and node.value is not None]
    if len(returns) != 1 or returns[0].value is None:
        raise _fail(path, function, f"{function.name} must end in one return")
    return returns[0].value


def _system_prompt(path: Path, module: ast.Module, owner: str) -> str:
    return _template(path, _returned(path, _function(path, _class(path, module, owner).body, "build_system_prompt")))


def _instruction_display(path: Path, module: ast.Module) -> str:
    method = _function(path, _class(path, module, "LLMUserSimulationEnv").body, "build_system_prompt")
    node = _assigned(path, method, "instruction_display")
    if not (isinstance(node, ast.IfExp) and isinstance(node.body, ast.BinOp)):
        raise _fail(path, node, "instruction_display must be '(... + instruction + ...) if ... else \"\"'")
    pieces: list[str] = []

    def flatten(expr: ast.expr) -> None:
        if isinstance(expr, ast.BinOp) and isinstance(expr.op, ast.Add):
            flatten(expr.left)
            flatten(expr.right)
        elif isinstance(expr, ast.Name) and expr.id == "instruction":
            pieces.append("{instruction}")
        elif isinstance(expr, ast.Constant) and isinstance(expr.value, str):
            pieces.append(expr.value.replace("{", "{{").replace("}", "}}"))
        else:
            raise _fail(path, expr, f"unexpected {ast.unparse(expr)[:60]} in instruction_display")

    flatten(node.body)
    if pieces.count("{instruction}") != 1:
        raise _fail(path, node, "instruction_display must hold the instruction once")
    return "".join(pieces)


def _greeting(path: Path, module: ast.Module) -> str:
    reset = _function(path, _class(path, module, "LLMUserSimulationEnv").body, "reset")
    for node in ast.walk(reset):
        if isinstance(node, ast.Dict):
            entries = {
                key.value: value
                for key, value in zip(node.keys, node.values, strict=True)
                if isinstance(key, ast.Constant) and isinstance(key.value, str)
            }
            role, content = entries.get("role"), entries.get("content")
            user = isinstance(role, ast.Constant) and role.value == "user"
            if user and isinstance(content, ast.Constant) and isinstance(content.value, str):
                return content.value
    raise _fail(path, reset, "reset has no {'role': 'user', 'content': '...'} greeting")


def _role_labels(path: Path, module: ast.Module) -> dict[str, str]:
    function = _function(path, module.body, "map_role_label")
    labels: dict[str, str] = {}
    for node in ast.walk(function):
        if not isinstance(node, ast.If):
            continue
        test = node.test
        if (
            isinstance(test, ast.Compare)
            and len(test.comparators) == 1
            and isinstance(test.ops[0], ast.Eq)
            and isinstance(test.comparators[0], ast.Constant)
            and node.body
            and isinstance(node.body[0], ast.Return)
            and isinstance(node.body[0].value, ast.Constant)
        ):
            labels[str(test.comparators[0].value)] = str(node.body[0].value.value)
    if not labels:
        raise _fail(path, function, "map_role_label maps no role")
    return labels


def read_user_prompts(path: Path) -> dict[str, Any]:
    """The prompts of τ-bench's ``user.py`` at ``path`` (see the module docstring); parsed, never run."""
    try:
        module = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    except (OSError, SyntaxError, ValueError) as exc:
        raise UserPromptsFormatError(f"{path}: cannot be parsed: {exc}") from exc
    return {
        "source": f"tau_bench/envs/{USER_SOURCE}",
        "greeting": _greeting(path, module),
        "instruction_display": _instruction_display(path, module),
        "system": {
            "llm": _system_prompt(path, module, "LLMUserSimulationEnv"),
            "react": _system_prompt(path, module, "ReactUserSimulationEnv"),
        },
        "verify": _template(path, _assigned(path, _function(path, module.body, "verify"), "prompt")),
        "reflect": _template(path, _assigned(path, _function(path, module.body, "reflect"), "prompt")),
        "role_labels": _role_labels(path, module),
    }


def write_user_prompts(envs: Path, into: Path) -> bool:
    """``envs/user.py``'s prompts into ``into/user_sim/prompts.json``; False when the checkout has no user.py."""
    source = envs / USER_SOURCE
    if not source.is_file():
        return False
    prompts = read_user_prompts(source)
    target = into / USER_PROMPTS_FILE
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(json.dumps(prompts, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    return True
