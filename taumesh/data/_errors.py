"""The error of data that is missing or unreadable; ``taumesh.domains`` raises it too (as ``DataError``)."""

from __future__ import annotations


class DataError(Exception):
    """The data directory is missing a file or holds something we cannot read."""
