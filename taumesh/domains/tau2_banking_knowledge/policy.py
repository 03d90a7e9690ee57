"""The agent's policy under a retrieval configuration, composed from the domain's prompt templates as upstream does.

``{{component:NAME}}`` takes ``prompts/components/NAME.md``; ``full_kb`` inlines every document, ``golden_retrieval``
the task's required documents (by title, else id), and ``alltools*`` names the dense search's provider and model.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path

from taumesh.domains import DataError
from taumesh.domains.tau2_banking_knowledge.configs import EMBEDDING_MODELS, PROVIDER_NAMES, RetrievalConfig
from taumesh.domains.tau2_banking_knowledge.knowledge import KnowledgeDocument

PROMPTS_DIR = "prompts"
COMPONENT = re.compile(r"\{\{component:(\w+)\}\}")
FULL_KB = re.compile(r"\{\{full_knowledge_base\}\}")
REQUIRED = "{{required_documents}}"
DENSE = "{{all_tools_dense_instructions}}"
SEPARATOR = "\n\n---\n\n"
NO_DOCUMENTS = "(No documents provided)"


def _read(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError as exc:
        raise DataError(f"{path} not found: the banking_knowledge prompts are incomplete") from exc


def _section(document: KnowledgeDocument) -> str:
    return f"## {document.title}\n\n{document.content}"


def dense_instructions(config: RetrievalConfig) -> str:
    """The sentence naming the dense search's provider and model (empty without ``KB_search_dense``)."""
    provider = config.kb_search_dense
    if provider is None:
        return ""
    return (
        f"The `KB_search_dense` tool uses **{PROVIDER_NAMES[provider]}** with embedding model "
        f"`{EMBEDDING_MODELS[provider]}` for dense retrieval."
    )


def required_documents(documents: Sequence[KnowledgeDocument], refs: Sequence[str]) -> list[KnowledgeDocument]:
    """The documents a task requires, each found by title first, then by id (unknown ones are left out)."""
    by_title = {document.title: document for document in documents}
    by_id = {document.id: document for document in documents}
    found = (by_title.get(ref) or by_id.get(ref) for ref in refs)
    return [document for document in found if document is not None]


def compose_policy(
    config: RetrievalConfig,
    domain_dir: Path,
    documents: Sequence[KnowledgeDocument],
    required: Sequence[str] = (),
) -> str:
    """The policy of ``config`` over the domain folder; ``required``: the task's ``required_documents``."""
    prompts = domain_dir / PROMPTS_DIR
    text = _read(prompts / f"{config.template}.md")
    text = COMPONENT.sub(lambda match: _read(prompts / "components" / f"{match.group(1)}.md"), text)
    if config.builder == "full_kb" and FULL_KB.search(text):
        # A string replacement, as upstream's: re processes its backslash escapes.
        text = FULL_KB.sub(SEPARATOR.join(_section(document) for document in documents), text)
    if config.builder == "golden":
        sections = [_section(document) for document in required_documents(documents, required)]
        text = text.replace(REQUIRED, SEPARATOR.join(sections) if sections else NO_DOCUMENTS)
    if config.kb_search_bm25 and config.kb_search_dense is not None:
        text = text.replace(DENSE, dense_instructions(config))
    if not text.strip():
        raise DataError(f"{prompts / config.template}.md gives an empty policy")
    return text
