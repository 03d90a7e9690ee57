"""The texts τ² shows agents, as ``taumesh data fetch tau2`` extracted them into ``<cache>/tau2/texts.json``.

Tool descriptions, parameter descriptions, and the docstrings and field descriptions of the models a
tool's parameters use; also τ²'s tool order and tags, and airline's airports (written in τ²'s code).
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ValidationError

from taumesh.domains import DataError
from taumesh.domains.tau2._files import require

TEXTS_FILE = "texts.json"
_REFETCH = "run `taumesh data fetch tau2` (it adds the file without downloading again)"


class ToolText(BaseModel):
    """One tool of a τ² toolkit: its tag, description and parameters' descriptions."""

    name: str
    type: Literal["read", "write", "think", "generic"]
    description: str
    parameters: dict[str, str]


class ToolkitText(BaseModel):
    """A toolkit's tools in τ²'s order, and which models module's texts its schemas show."""

    models: str
    tools: list[ToolText]


class ModelText(BaseModel):
    """A model's docstring, its base classes' names and its own fields' descriptions."""

    doc: str | None
    bases: list[str]
    fields: dict[str, str]


class DomainTexts(BaseModel):
    toolkits: dict[str, ToolkitText]
    models: dict[str, dict[str, ModelText]]
    airports: list[dict[str, str]] = []


class Tau2Texts(BaseModel):
    format: Literal[1]
    domains: dict[str, DomainTexts]


@cache
def read_texts(path: Path) -> Tau2Texts:
    """The texts file at ``path``, read once per process."""
    try:
        return Tau2Texts.model_validate_json(path.read_bytes())
    except FileNotFoundError as exc:
        raise DataError(f"{path} not found: the τ² data was fetched by an older taumesh; {_REFETCH}") from exc
    except ValidationError as exc:
        raise DataError(f"{path} is not a τ² texts file ({exc.error_count()} errors): {_REFETCH} --force") from exc


def domain_texts(domain: str) -> DomainTexts:
    """The texts of τ²'s domain ``domain`` (``mock``, ``airline``, ...), from the fetched data."""
    texts = read_texts(require() / TEXTS_FILE)
    if domain not in texts.domains:
        raise DataError(f"the fetched τ² texts have no domain {domain!r}: {_REFETCH} --force")
    return texts.domains[domain]


def toolkit_text(domain: str, toolkit: str) -> tuple[ToolkitText, dict[str, ModelText]]:
    """A toolkit's texts and the texts of the models its schemas show."""
    texts = domain_texts(domain)
    found = texts.toolkits.get(toolkit)
    if found is None or not found.tools:
        raise DataError(f"the fetched τ² texts have no tools of {domain}'s {toolkit}: {_REFETCH} --force")
    return found, texts.models.get(found.models, {})
