"""Dense retrieval (``KB_search`` of the embedding configurations, ``KB_search_dense``) through litellm.

Documents are embedded once per model: each embedding is cached under
``<cache>/embeddings/<model key>/<sha256 of the text>.json``, so a run (and every later run) embeds the corpus
once and afterwards only its queries. Ranking is upstream's: cosine similarity, highest first (numpy's argsort,
reversed), top 10, then cut to ``k``.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
from pydantic import BaseModel, ConfigDict

from taumesh.data import cache_dir
from taumesh.domains import DataError
from taumesh.domains.tau2_banking_knowledge.knowledge import KnowledgeDocument
from taumesh.domains.tau2_banking_knowledge.search import TOP_K, Ranked

BATCH = 64
"""Documents per embedding request."""


class EmbeddingModel(BaseModel):
    """The embedding model: a litellm model name (``openai/text-embedding-3-large``), its endpoint and key."""

    model_config = ConfigDict(frozen=True)

    model: str
    api_base: str | None = None
    api_key: str | None = None

    @property
    def key(self) -> str:
        """The cache folder's name: the model and endpoint (never the key), hashed."""
        return hashlib.sha256(f"{self.model}\0{self.api_base or ''}".encode()).hexdigest()[:32]


class EmbeddingCache:
    """Embeddings of texts by model, one file each (written atomically, so processes may share the folder)."""

    def __init__(self, model: EmbeddingModel, root: Path | None = None) -> None:
        self.folder = (root or cache_dir() / "embeddings") / model.key

    def _path(self, text: str) -> Path:
        return self.folder / f"{hashlib.sha256(text.encode('utf-8')).hexdigest()}.json"

    def get(self, text: str) -> list[float] | None:
        try:
            vector = json.loads(self._path(text).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        return vector if isinstance(vector, list) else None

    def put(self, text: str, vector: list[float]) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=self.folder, suffix=".tmp")
        with os.fdopen(handle, "w", encoding="utf-8") as stream:
            json.dump(vector, stream)
        Path(temporary).replace(self._path(text))


def embed(model: EmbeddingModel, texts: Sequence[str]) -> list[list[float]]:
    """The embeddings of ``texts``, in order, from one litellm request; DataError naming the model on failure."""
    from taumesh.llm._litellm import litellm

    try:
        response: Any = litellm.embedding(
            model=model.model, input=list(texts), api_base=model.api_base, api_key=model.api_key
        )
    except Exception as exc:
        raise DataError(f"embedding model {model.model!r} failed: {type(exc).__name__}: {exc}") from exc
    rows = sorted(response.data, key=lambda row: row["index"])
    if len(rows) != len(texts):
        raise DataError(f"embedding model {model.model!r} returned {len(rows)} embeddings for {len(texts)} texts")
    return [list(map(float, row["embedding"])) for row in rows]


class DenseIndex:
    """The knowledge base's embeddings under one model, and cosine search over them."""

    def __init__(
        self, documents: Sequence[KnowledgeDocument], model: EmbeddingModel, cache: EmbeddingCache | None = None
    ) -> None:
        self.documents = tuple(documents)
        self.model = model
        self.cache = cache or EmbeddingCache(model)
        vectors = {document.content: self.cache.get(document.content) for document in self.documents}
        missing = [text for text, vector in vectors.items() if vector is None]
        for start in range(0, len(missing), BATCH):
            batch = missing[start : start + BATCH]
            for text, vector in zip(batch, embed(model, batch), strict=True):
                self.cache.put(text, vector)
                vectors[text] = vector
        matrix = np.array([vectors[document.content] for document in self.documents], dtype=float)
        norms = np.linalg.norm(matrix, axis=1, keepdims=True)
        self._normalized = matrix / np.where(norms == 0, 1, norms)

    def search(self, query: str, k: int | None = None, embedded: str | None = None) -> Ranked:
        """The 10 documents closest to ``query`` (then cut to ``k``); none for a blank query.

        ``embedded``: the text embedded for the query, when the model wants more than the query (an instruction).
        """
        if not query or not query.strip():
            return []
        vector = np.array(embed(self.model, [embedded or query])[0], dtype=float)
        norm = np.linalg.norm(vector)
        scores = np.zeros(len(self.documents)) if norm == 0 else self._normalized @ (vector / norm)
        order = np.argsort(scores)[::-1][: min(TOP_K, len(self.documents))]
        ranked = [(self.documents[int(index)], float(scores[int(index)])) for index in order]
        return ranked if k is None else ranked[: max(k, 0)]
