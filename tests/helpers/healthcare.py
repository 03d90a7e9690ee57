"""The healthcare domain, found through ``TAUMESH_DOMAIN_PATH``."""

from __future__ import annotations

from pathlib import Path

from taumesh.domains import Catalog, Domain, Registry
from tests.helpers.paths import PROJECT_ROOT

PLUGIN_PATH = PROJECT_ROOT / "tests" / "domains" / "healthcare" / "plugin_path"


def healthcare() -> Domain:
    """The loaded domain (its data ships with the package)."""
    return Catalog(Path("unused"), Registry.discover([PLUGIN_PATH])).get("healthcare")
