"""Makes the built-in healthcare plugin discoverable through ``TAUMESH_DOMAIN_PATH`` until its entry point exists."""

from taumesh.domains.healthcare import plugin

__all__ = ["plugin"]
