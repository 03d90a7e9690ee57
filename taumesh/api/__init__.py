"""``taumesh serve api``: a REST front door (FastAPI) that runs benchmarks through the orchestrator and services.

Runs, per-episode results, progress events and API keys live in a SQL database (SQLite by default, PostgreSQL by
URL), so a run survives a restart and several uvicorn workers share the work. See docs/api.md. The application
is :func:`taumesh.api.app.create_app`; nothing is imported here, so that the CLI can read
:mod:`taumesh.api.settings` without loading FastAPI and SQLAlchemy.
"""
