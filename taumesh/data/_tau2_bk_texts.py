"""Texts of τ³'s ``banking_knowledge`` tools that agents and users see verbatim, extracted at ``data import tau2``.

They exist only in upstream's ``src/tau2/domains/banking_knowledge/tools.py``: each tool's docstring (its schema's
description, and what ``unlock_discoverable_agent_tool``/``give_discoverable_user_tool`` show of a discoverable
tool), the transfer reasons and the card tables the tools' messages list. They are read with ``ast`` (nothing is
imported or executed) into ``<cache>/tau2_upstream/texts/banking_knowledge.json``; nothing reads the source at run time.
"""

from __future__ import annotations

import ast
import json
from pathlib import Path
from typing import Any

from taumesh.data._cache import DatasetError
from taumesh.data._tau2_texts import _tool, _tool_type

SOURCE = Path("src/tau2/domains/banking_knowledge/tools.py")
RETRIEVAL_SOURCE = Path("retrieval_mixins.py")
"""Beside the tools: the retrieval configurations' tools (``KB_search``, ``grep``...), one mixin class each."""
"""Where a checkout (or an unpacked archive) holds the tools, relative to its top folder."""
RERANKER_SOURCE = Path("knowledge/postprocessors/pointwise_llm_reranker.py")
"""Under upstream's ``src/tau2``: the LLM reranker of the ``*_reranker*`` configurations, whose prompt is a text."""
RERANKER_PROMPT = "DEFAULT_POINTWISE_PROMPT"
QWEN_SOURCE = Path("knowledge/embedders/openrouter_embedder.py")
"""Under upstream's ``src/tau2``: the OpenRouter embedder, whose instruction goes before a Qwen model's queries."""
QWEN_INSTRUCTION = "DEFAULT_QWEN_QUERY_INSTRUCTION"
TEXTS_PATH = Path("texts/banking_knowledge.json")
"""Under the imported folder; recorded in its manifest like every other file."""
TEXTS_FORMAT = 3
"""2: with the ATM-images tool's envelope scans; 3: with the retrieval tools."""
AGENT_TOOLKIT = "KnowledgeTools"
USER_TOOLKIT = "KnowledgeUserTools"
TRANSFER_REASONS = "TransferReasonLiteral"
USER_CONSTANTS = ("VALID_CREDIT_CARD_TYPES", "CREDIT_CARD_REWARDS")
ATM_IMAGES_TOOL = "get_atm_deposit_images_8473"
ATM_IMAGES_TABLE = "deposit_image_data"
ATM_IMAGE_TEXTS = ("atm_id", "envelope_contents", "verification_notes")


def find_source(data_root: Path) -> Path | None:
    """The tools module of the checkout whose ``data/tau2`` folder is ``data_root``; None when it has none."""
    for top in (data_root.parent.parent, data_root.parent, data_root):
        candidate = top / SOURCE
        if candidate.is_file():
            return candidate
    return None


def _decorator(method: ast.FunctionDef, name: str) -> ast.Call | None:
    for decorator in method.decorator_list:
        if isinstance(decorator, ast.Call) and isinstance(decorator.func, ast.Name) and decorator.func.id == name:
            return decorator
    return None


def _mutates(decorator: ast.Call, tool_type: str) -> bool:
    for keyword in decorator.keywords:
        if keyword.arg == "mutates_state":
            return bool(ast.literal_eval(keyword.value))
    return tool_type == "write"


def _discoverable(method: ast.FunctionDef) -> dict[str, Any] | None:
    decorator = _decorator(method, "is_discoverable_tool")
    if decorator is None:
        return None
    argument = decorator.args[0] if decorator.args else None
    tool_type = argument.attr.lower() if isinstance(argument, ast.Attribute) else "read"
    parameters = [arg.arg for arg in method.args.args[1:]]
    required = parameters[: len(parameters) - len(method.args.defaults)]
    return {
        "name": method.name,
        "tool_type": tool_type,
        "mutates_state": _mutates(decorator, tool_type),
        "doc": ast.get_docstring(method) or "",
        "parameters": parameters,
        "required": required,
    }


def _toolkit(node: ast.ClassDef) -> dict[str, Any]:
    tools, discoverable, constants = [], [], {}
    for statement in node.body:
        if isinstance(statement, ast.FunctionDef):
            decorator = _decorator(statement, "is_tool")
            tool_type = _tool_type(statement)
            if decorator is not None and tool_type is not None:
                tools.append({**_tool(statement, tool_type), "mutates_state": _mutates(decorator, tool_type)})
            elif (found := _discoverable(statement)) is not None:
                discoverable.append(found)
        elif isinstance(statement, ast.Assign) and len(statement.targets) == 1:
            target = statement.targets[0]
            if isinstance(target, ast.Name) and target.id in USER_CONSTANTS:
                constants[target.id] = ast.literal_eval(statement.value)
    return {"tools": tools, "discoverable": discoverable, "constants": constants}


def _transfer_reasons(tree: ast.Module) -> list[str]:
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(
            isinstance(target, ast.Name) and target.id == TRANSFER_REASONS for target in node.targets
        ):
            value = node.value
            if isinstance(value, ast.Subscript) and isinstance(value.slice, ast.Tuple):
                return [ast.literal_eval(element) for element in value.slice.elts]
    raise DatasetError(f"upstream's banking_knowledge tools define no {TRANSFER_REASONS}")


def _atm_deposit_images(toolkit: ast.ClassDef) -> dict[str, dict[str, str]]:
    """The envelope scans the ATM-images tool shows, by transaction id: the text fields of its table's entries."""
    images: dict[str, dict[str, str]] = {}
    for method in toolkit.body:
        if not (isinstance(method, ast.FunctionDef) and method.name == ATM_IMAGES_TOOL):
            continue
        for node in ast.walk(method):
            targets = node.targets if isinstance(node, ast.Assign) else []
            if not any(isinstance(target, ast.Name) and target.id == ATM_IMAGES_TABLE for target in targets):
                continue
            table = node.value  # type: ignore[attr-defined]
            for key, entry in zip(table.keys, table.values, strict=True):
                if not (isinstance(key, ast.Constant) and isinstance(entry, ast.Dict)):
                    continue
                images[str(key.value)] = {
                    str(field.value): str(text.value)
                    for field, text in zip(entry.keys, entry.values, strict=True)
                    if isinstance(field, ast.Constant)
                    and field.value in ATM_IMAGE_TEXTS
                    and isinstance(text, ast.Constant)
                }
    return images


def _retrieval_tools(source: Path) -> list[dict[str, Any]]:
    """The retrieval tools of the mixins beside ``source``, in the file's order."""
    path = source.parent / RETRIEVAL_SOURCE
    try:
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    except (OSError, SyntaxError, ValueError) as exc:
        raise DatasetError(f"cannot read upstream's banking_knowledge retrieval tools {path}: {exc}") from exc
    tools = []
    for node in tree.body:
        if isinstance(node, ast.ClassDef):
            tools += _toolkit(node)["tools"]
    return tools


def _constant(source: Path, module: Path, name: str) -> str | None:
    """The string constant ``name`` of upstream's ``src/tau2/<module>`` beside ``source``; None where it has none."""
    path = source.parents[2] / module  # tau2/domains/banking_knowledge/tools.py -> tau2/<module>
    try:
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    except OSError:
        return None
    except (SyntaxError, ValueError) as exc:
        raise DatasetError(f"cannot read upstream's {path}: {exc}") from exc
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(
            isinstance(target, ast.Name) and target.id == name for target in node.targets
        ):
            value = ast.literal_eval(node.value)
            return value if isinstance(value, str) else None
    return None


def extract(source: Path) -> dict[str, Any]:
    """The texts of the tools module ``source``; DatasetError when it is not readable or lacks a toolkit."""
    try:
        tree = ast.parse(source.read_text(encoding="utf-8"), filename=str(source))
    except (OSError, SyntaxError, ValueError) as exc:
        raise DatasetError(f"cannot read upstream's banking_knowledge tools {source}: {exc}") from exc
    classes = {node.name: node for node in tree.body if isinstance(node, ast.ClassDef)}
    missing = [name for name in (AGENT_TOOLKIT, USER_TOOLKIT) if name not in classes]
    if missing:
        raise DatasetError(f"{source} defines no {', '.join(missing)}")
    agent, user = _toolkit(classes[AGENT_TOOLKIT]), _toolkit(classes[USER_TOOLKIT])
    return {
        "format": TEXTS_FORMAT,
        "agent_tools": agent["tools"],
        "user_tools": user["tools"],
        "agent_discoverable": agent["discoverable"],
        "user_discoverable": user["discoverable"],
        "transfer_reasons": _transfer_reasons(tree),
        "valid_credit_card_types": user["constants"].get("VALID_CREDIT_CARD_TYPES", []),
        "credit_card_rewards": user["constants"].get("CREDIT_CARD_REWARDS", {}),
        "atm_deposit_images": _atm_deposit_images(classes[AGENT_TOOLKIT]),
        "retrieval_tools": _retrieval_tools(source),
        "reranker_prompt": _constant(source, RERANKER_SOURCE, RERANKER_PROMPT),
        "qwen_query_instruction": _constant(source, QWEN_SOURCE, QWEN_INSTRUCTION),
    }


def write_bk_texts(data_root: Path, into: Path) -> bool:
    """Extract the texts of the checkout of ``data_root`` into ``into``/:data:`TEXTS_PATH`; False without sources."""
    source = find_source(data_root)
    if source is None:
        return False
    path = into / TEXTS_PATH
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(extract(source), indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return True
