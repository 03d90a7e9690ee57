"""Checks of the files a command reads and writes: an input that is a folder, an output that is an input.

Each returns one line saying what is wrong, or None.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path


def same_file(a: Path, b: Path) -> bool:
    """Whether ``a`` and ``b`` name one file (through links, ``..`` or a relative spelling)."""
    try:
        return os.path.samefile(a, b)
    except OSError:  # one does not exist (yet): compare where they point
        return a.resolve() == b.resolve()


def overwrite_problem(out: Path | None, flag: str, inputs: Iterable[Path]) -> str | None:
    """Why writing ``out`` would replace one of ``inputs``, or None."""
    if out is None:
        return None
    for source in inputs:
        if same_file(out, source):
            return f"{flag} {out} is the input {source}: writing there would replace it; choose another path"
    return None


def input_file_problem(path: Path, what: str) -> str | None:
    """Why ``path`` cannot be read as ``what`` (it is missing, or a folder), or None."""
    if path.is_dir():
        return f"{path} is a directory, not {what}"
    if not path.exists():
        return f"{path}: no such file"
    return None
