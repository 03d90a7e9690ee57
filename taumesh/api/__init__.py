"""``taumesh serve api``: a REST front door (FastAPI) that runs benchmarks through the orchestrator and services.

Runs, per-episode results, progress events and API keys live in a SQL database (SQLite by default, PostgreSQL by
URL), so a run survives a restart and several uvicorn workers share the work. See docs/api.md.
"""

from taumesh.api.app import create_app
from taumesh.api.settings import ApiSettings

__all__ = ["ApiSettings", "create_app"]
