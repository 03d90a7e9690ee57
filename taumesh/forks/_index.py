"""Where imported forks are recorded: ``<cache>/forks``, and its index of the domains they registered.

``import-fork`` writes the names of the domains it registered to ``<cache>/forks/index.json``; the domain
registry reads them through the ``taumesh.domain_sources`` entry point :func:`taumesh.forks.registered.domains`.
Standard library only: discovering the domains stays cheap.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

PREFIX = "fork:"


def forks_dir() -> Path:
    """``<cache>/forks``: one record per imported fork, and the index of their domains."""
    configured = os.environ.get("TAUMESH_CACHE_DIR")
    root = Path(configured).expanduser() if configured else Path.home() / ".cache" / "taumesh"
    return root / "forks"


def index_path() -> Path:
    return forks_dir() / "index.json"


def read_index() -> dict[str, str]:
    """Domain name -> fork name, for every imported environment; empty when nothing was imported."""
    try:
        loaded = json.loads(index_path().read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return {str(k): str(v) for k, v in loaded.items()} if isinstance(loaded, dict) else {}
