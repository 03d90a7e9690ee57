"""Alembic migrations of the API's database, shipped in the package and applied when the API starts."""
