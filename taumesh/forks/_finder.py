"""Makes imported forks' environments visible to the domain registry, as entry points of a virtual distribution.

The registry finds plugins through the ``taumesh.domains`` entry points. ``import-fork`` writes the names of
the domains it registered to ``<cache>/forks/index.json``; this module, installed on ``sys.meta_path`` when
``taumesh`` is imported, reports them as the entry points of a distribution named ``taumesh-forks``, each
loading its plugin from :mod:`taumesh.forks.registered`. Standard library only: ``import taumesh`` stays cheap.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Iterable
from importlib.abc import MetaPathFinder
from importlib.metadata import Distribution, DistributionFinder
from pathlib import Path
from typing import Any

DISTRIBUTION = "taumesh-forks"
GROUP = "taumesh.domains"
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


def attribute_for(domain: str) -> str:
    """The attribute of :mod:`taumesh.forks.registered` holding ``domain``'s plugin (an identifier)."""
    return "d_" + domain.encode("utf-8").hex()


def domain_for(attribute: str) -> str:
    return bytes.fromhex(attribute.removeprefix("d_")).decode("utf-8")


class _ForkDistribution(Distribution):
    def __init__(self, domains: Iterable[str]) -> None:
        self._domains = sorted(domains)

    def read_text(self, filename: str) -> str | None:
        if filename == "METADATA":
            return f"Metadata-Version: 2.1\nName: {DISTRIBUTION}\nVersion: 0\n"
        if filename == "entry_points.txt":
            lines = [f"{name} = taumesh.forks.registered:{attribute_for(name)}" for name in self._domains]
            return "\n".join([f"[{GROUP}]", *lines]) + "\n"
        return None

    def locate_file(self, path: Any) -> Path:
        return forks_dir() / str(path)


class ForkFinder(MetaPathFinder):
    """Finds no module; finds the ``taumesh-forks`` distribution when some fork was imported."""

    def find_spec(self, fullname: str, path: Any, target: Any = None) -> None:
        return None

    def find_distributions(self, context: Any = None) -> list[Distribution]:
        name = getattr(context, "name", None)
        if name is not None and name.replace("_", "-").lower() != DISTRIBUTION:
            return []
        domains = read_index()
        return [_ForkDistribution(domains)] if domains else []


def install() -> None:
    """Put the finder on ``sys.meta_path`` once."""
    if not any(isinstance(finder, ForkFinder) for finder in sys.meta_path):
        sys.meta_path.append(ForkFinder())


_ = DistributionFinder  # the protocol find_distributions follows
install()
