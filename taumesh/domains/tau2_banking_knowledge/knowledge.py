"""The knowledge base of ``banking_knowledge``: its ``documents/*.json``, in sorted file-name order.

Upstream loads them in the file system's directory order, which breaks ties in search results and orders the
full-KB prompt differently from one machine to the next; sorted file names make both reproducible.
"""

from __future__ import annotations

import json
from pathlib import Path

from pydantic import BaseModel, ConfigDict, ValidationError

from taumesh.domains import DataError, describe_validation_error

DOCUMENTS_DIR = "documents"


class KnowledgeDocument(BaseModel):
    """One policy document: ``{id, title, content}``; only ``content`` is searched."""

    model_config = ConfigDict(frozen=True)

    id: str
    title: str
    content: str


def load_documents(domain_dir: Path) -> tuple[KnowledgeDocument, ...]:
    """Every ``documents/*.json`` of the domain folder, sorted by file name; DataError naming a bad file."""
    folder = domain_dir / DOCUMENTS_DIR
    if not folder.is_dir():
        raise DataError(f"{folder} not found: banking_knowledge needs its documents/ folder")
    documents = []
    for path in sorted(folder.glob("*.json"), key=lambda found: found.name):
        try:
            documents.append(KnowledgeDocument.model_validate(json.loads(path.read_text(encoding="utf-8"))))
        except json.JSONDecodeError as exc:
            raise DataError(f"{path} is not JSON: {exc}") from exc
        except ValidationError as exc:
            raise DataError(describe_validation_error(exc, str(path))) from exc
    return tuple(documents)
