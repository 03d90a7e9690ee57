"""The tiny fork's settings in tests."""

from __future__ import annotations

DEADLINE = "2"
"""The fork tool deadline the tests run with (seconds): the sleeping tool sleeps an hour."""
