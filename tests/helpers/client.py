"""The API served over SQLite for the client tests."""

from __future__ import annotations

from pathlib import Path

from tests.helpers.api import ApiServer, start_server

ORACLE = {"env": "retail", "agent_strategy": "oracle", "user_strategy": "scripted"}
"""Offline runs: the oracle agent and the scripted user on τ-bench v1 retail."""


def sqlite_server(root: Path, data_dir: Path, **extra_env: str) -> ApiServer:
    """A uvicorn with its own SQLite database under ``root``."""
    return start_server(f"sqlite:///{root / 'api.db'}", root, data_dir, **extra_env)
