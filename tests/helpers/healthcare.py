"""The healthcare domain, found through ``TAUMESH_DOMAIN_PATH``."""

from __future__ import annotations

from pathlib import Path

from taumesh.domains import Catalog, Domain, Registry
from tests.helpers.paths import PROJECT_ROOT

PLUGIN_PATH = PROJECT_ROOT / "tests" / "domains" / "healthcare" / "plugin_path"


V1 = "healthcare:v1"
"""Release 1, the faithful first release (``healthcare`` is release 2)."""


def healthcare(name: str = "healthcare") -> Domain:
    """The loaded domain, or ``name``'s release of it (its data ships with the package)."""
    return Catalog(Path("unused"), Registry.discover([PLUGIN_PATH])).get(name)
