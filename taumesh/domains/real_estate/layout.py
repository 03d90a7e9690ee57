"""Where the domain's files live and which splits they hold: the build writes them, the plugin reads them."""

from __future__ import annotations

from pathlib import Path

DATA = Path(__file__).resolve().parent / "data"
SPLITS = ("base", "train", "test")
"""``base`` is every task; ``train`` the tasks of worlds w1 and w2; ``test`` those of w3."""
