"""The tool texts of ``banking_knowledge`` that ``taumesh data import tau2`` extracted from upstream's sources.

``<cache>/tau2_upstream/texts/banking_knowledge.json``: each tool's description and parameter descriptions, each
discoverable tool's docstring and tags, the transfer reasons and the card tables. A discoverable tool's docstring
is shown as upstream parses it (:func:`parse_docstring`): the text before ``Args:`` as its description, each
``name (type): text`` line after it as a parameter, the first line after ``Returns:`` as its success message.
"""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path

from pydantic import BaseModel, ValidationError

from taumesh.data import tau2_upstream_dir
from taumesh.domains import DataError

TEXTS_PATH = Path("texts/banking_knowledge.json")
TEXTS_FORMAT = 3
"""The extraction this code reads; an older one is refused with the command that redoes it."""
DEFAULT_SUCCESS = "Action completed successfully."
_ARGS = re.compile(r"\n\s*Args:\s*\n")
_RETURNS = re.compile(r"\n\s*Returns:\s*\n")
_ARG_LINE = re.compile(r"^\s*(\w+)\s*(?:\(([^)]+)\))?\s*:\s*(.+?)$", re.MULTILINE)
_OPTIONAL = re.compile(r",?\s*optional", re.IGNORECASE)


class ToolDoc(BaseModel):
    """A base tool: its tag and the texts of its schema."""

    name: str
    type: str
    mutates_state: bool
    description: str
    parameters: dict[str, str]


class DiscoverableDoc(BaseModel):
    """A discoverable tool: its tags, docstring and parameter names (those without a default first)."""

    name: str
    tool_type: str
    mutates_state: bool
    doc: str
    parameters: list[str]
    required: list[str]


class AtmImages(BaseModel):
    """What the ATM-images tool shows of one recorded deposit."""

    atm_id: str
    envelope_contents: str
    verification_notes: str


class BankingTexts(BaseModel):
    format: int
    agent_tools: list[ToolDoc]
    user_tools: list[ToolDoc]
    agent_discoverable: list[DiscoverableDoc]
    user_discoverable: list[DiscoverableDoc]
    transfer_reasons: list[str]
    valid_credit_card_types: list[str]
    credit_card_rewards: dict[str, dict[str, float]]
    atm_deposit_images: dict[str, AtmImages]
    retrieval_tools: list[ToolDoc]
    reranker_prompt: str | None = None
    qwen_query_instruction: str | None = None
    """What OpenRouter's Qwen embedding models get before a query; None: imported without it."""
    """The LLM reranker's prompt template (``{}``: the query, then the document); None: imported without it."""

    def agent_discoverable_by_name(self) -> dict[str, DiscoverableDoc]:
        return {doc.name: doc for doc in self.agent_discoverable}

    def user_discoverable_by_name(self) -> dict[str, DiscoverableDoc]:
        return {doc.name: doc for doc in self.user_discoverable}


def texts_path() -> Path:
    """Where the imported texts are."""
    return tau2_upstream_dir() / TEXTS_PATH


@cache
def _read(path: Path, mtime_ns: int) -> BankingTexts:
    try:
        raw = json.loads(path.read_bytes())
    except (OSError, ValueError) as exc:
        raise DataError(f"{path} is not banking_knowledge's tool texts: {exc}") from exc
    found = raw.get("format") if isinstance(raw, dict) else None
    if found != TEXTS_FORMAT:
        raise DataError(
            f"{path} was extracted by another taumesh version (format {found}, this one reads {TEXTS_FORMAT}); "
            "run `taumesh data import tau2 PATH` again"
        )
    try:
        return BankingTexts.model_validate(raw)
    except ValidationError as exc:
        raise DataError(f"{path} is not banking_knowledge's tool texts: {exc}") from exc


def banking_texts() -> BankingTexts:
    """The imported texts; DataError saying how to get them when there are none."""
    path = texts_path()
    try:
        mtime = path.stat().st_mtime_ns
    except OSError:
        raise DataError(
            f"{path} not found: banking_knowledge's tool texts come from upstream's sources; run "
            "`taumesh data import tau2 PATH` with PATH a checkout (or unpacked archive) of sierra-research/tau2-bench"
        ) from None
    return _read(path, mtime)


class ParsedDoc(BaseModel):
    """A discoverable tool as upstream shows it: description, parameters (type, description, required), success."""

    name: str
    description: str
    parameters: dict[str, dict[str, object]]
    success_message: str


def parse_docstring(doc: DiscoverableDoc) -> ParsedDoc:
    """Upstream's reading of a discoverable tool's docstring."""
    parts = _ARGS.split(doc.doc, maxsplit=1)
    success = DEFAULT_SUCCESS
    parameters: dict[str, dict[str, object]] = {}
    if len(parts) > 1:
        sections = _RETURNS.split(parts[1], maxsplit=1)
        if len(sections) > 1:
            success = sections[1].strip().split("\n")[0].strip()
        for match in _ARG_LINE.finditer(sections[0]):
            type_info = match.group(2) or "string"
            parameters[match.group(1)] = {
                "type": _OPTIONAL.sub("", type_info).strip() or "string",
                "description": match.group(3).strip(),
                "required": "optional" not in type_info.lower(),
            }
    return ParsedDoc(name=doc.name, description=parts[0].strip(), parameters=parameters, success_message=success)


def format_for_agent(parsed: ParsedDoc) -> str:
    """How a discoverable tool is listed to the agent: name, description and one line per parameter."""
    lines = [
        f"  - {name}: {spec['type']}{' (required)' if spec['required'] else ' (optional)'} - {spec['description']}"
        for name, spec in parsed.parameters.items()
    ]
    parameters = "\n".join(lines) if lines else "  (no parameters)"
    return f"Tool: {parsed.name}\nDescription: {parsed.description}\nParameters:\n{parameters}"
