"""``taumesh api-keys create|list|revoke`` (the typer sub-app) against a real SQLite database."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from taumesh.api.database import make_engine
from taumesh.api.store import Store
from taumesh.commands.api import api_keys_app


def test_create_list_revoke(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'keys.db'}"
    runner = CliRunner()
    created = runner.invoke(api_keys_app, ["create", "--name", "ci", "--database-url", url])
    assert created.exit_code == 0, created.output
    token = created.stdout.strip().splitlines()[-1]
    key_id = token.split(".")[0]
    store = Store(make_engine(url))
    caller = store.verify_key(token)
    assert caller is not None and caller.key_id == key_id and not caller.admin
    assert all(row.token_sha256 != token and token not in row.token_sha256 for row in store.list_keys())

    listed = runner.invoke(api_keys_app, ["list", "--database-url", url])
    assert listed.exit_code == 0 and key_id in listed.stdout and token.split(".")[1] not in listed.stdout

    assert runner.invoke(api_keys_app, ["revoke", key_id, "--database-url", url]).exit_code == 0
    assert store.verify_key(token) is None
    again = runner.invoke(api_keys_app, ["revoke", key_id, "--database-url", url])
    assert again.exit_code == 1


def test_create_takes_the_name_as_compose_documents_it_and_the_data_root(tmp_path: Path) -> None:
    """``taumesh api-keys create me`` (compose's header, .env.example) and --data-root as ``serve api`` takes it."""
    runner = CliRunner()
    created = runner.invoke(api_keys_app, ["create", "me", "--data-root", str(tmp_path)])
    assert created.exit_code == 0, created.output
    token = created.stdout.strip().splitlines()[-1]
    store = Store(make_engine(f"sqlite:///{tmp_path / 'taumesh-api.db'}"))  # the database serve api opens there
    assert store.verify_key(token) is not None
    assert [row.name for row in store.list_keys()] == ["me"]

    named = runner.invoke(api_keys_app, ["create", "--name", "ci", "--data-root", str(tmp_path)])
    assert named.exit_code == 0, named.output
    listed = runner.invoke(api_keys_app, ["list", "--data-root", str(tmp_path)])
    assert listed.exit_code == 0 and "me" in listed.stdout and "ci" in listed.stdout
    both = runner.invoke(api_keys_app, ["create", "me", "--name", "ci", "--data-root", str(tmp_path)])
    assert both.exit_code == 2 and "--name" in both.output


def test_create_admin_key(tmp_path: Path) -> None:
    """``--admin`` makes a key that sees every run; the others are not admins."""
    runner = CliRunner()
    created = runner.invoke(api_keys_app, ["create", "ops", "--admin", "--data-root", str(tmp_path)])
    assert created.exit_code == 0, created.output
    assert "admin key" in created.stderr
    plain = runner.invoke(api_keys_app, ["create", "ci", "--data-root", str(tmp_path)])
    store = Store(make_engine(f"sqlite:///{tmp_path / 'taumesh-api.db'}"))
    admin = store.verify_key(created.stdout.strip().splitlines()[-1])
    other = store.verify_key(plain.stdout.strip().splitlines()[-1])
    assert admin is not None and admin.admin
    assert other is not None and not other.admin
