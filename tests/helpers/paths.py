"""Where the project and the reference data live (the data read only, never copied), and reading JSON lines."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

PROJECT_ROOT = Path(__file__).resolve().parents[2]
SHARED = Path(os.environ.get("TAUMESH_SHARED", PROJECT_ROOT.parent / "shared"))
V1_DATA = SHARED / "taubench_v1"
V1_VECTORS = V1_DATA / "vectors"


def read_jsonl(path: Path) -> Iterator[dict[str, Any]]:
    with path.open(encoding="utf-8") as handle:
        for line in handle:
            if line.strip():
                yield json.loads(line)
