"""A domain's build entry point: write its generated files to ``data/``, or with ``--check`` name those that differ.

Every factory domain's ``build.py`` ends in the same loop (``python -m <domain>.build [--check]``); this is it, so that
a stale file is found, and reported, one way in every domain.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any


def json_text(value: Any) -> str:
    """``value`` as a data file holds it: JSON indented by one, UTF-8 as written, a final newline."""
    return json.dumps(value, indent=1, ensure_ascii=False) + "\n"


def build_main(generate: Callable[[], Mapping[str, str]], data: Path, argv: list[str] | None = None) -> int:
    """Write every file ``generate`` makes into ``data``, or with ``--check`` in ``argv`` report those that differ.

    ``argv`` defaults to the command line's arguments. Returns the exit code: 1 when ``--check`` found a file stale or
    missing (each named on stdout), else 0.
    """
    check = "--check" in (sys.argv[1:] if argv is None else argv)
    stale = []
    data.mkdir(parents=True, exist_ok=True)
    for name, text in generate().items():
        path = data / name
        if check:
            if not path.is_file() or path.read_text(encoding="utf-8") != text:
                stale.append(name)
        else:
            path.write_text(text, encoding="utf-8")
    if stale:
        print(f"stale or missing in {data}: {', '.join(stale)}")
        return 1
    return 0
