"""Shared fixtures: where the reference data and vectors live (read only, never copied)."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")

PROJECT_ROOT = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get("TAUMESH_SHARED", PROJECT_ROOT.parent / "shared"))
V1_DATA = SHARED / "taubench_v1"
V1_VECTORS = V1_DATA / "vectors"


def read_jsonl(path: Path) -> Iterator[dict[str, Any]]:
    with path.open(encoding="utf-8") as handle:
        for line in handle:
            if line.strip():
                yield json.loads(line)


@pytest.fixture(scope="session")
def v1_data_dir() -> Path:
    if not V1_DATA.is_dir():
        pytest.skip(f"reference data not found at {V1_DATA}")
    return V1_DATA
