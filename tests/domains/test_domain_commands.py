"""``taumesh domain new`` and ``taumesh domain check``, run as real commands in a temporary directory."""

from __future__ import annotations

import functools
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers.paths import V1_DATA


@functools.cache
def domain_command() -> tuple[str, ...]:
    """``taumesh domain`` once the CLI mounts the sub-app; until then the same typer app through ``python -m``."""
    script = Path(sys.executable).parent / "taumesh"
    if script.is_file():
        mounted = subprocess.run([str(script), "domain", "--help"], capture_output=True, text=True, env=clean_env())
        if mounted.returncode == 0:
            return (str(script), "domain")
    return (sys.executable, "-m", "taumesh.commands.domain")


def clean_env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in {"TAUMESH_DOMAIN_PATH", "TAUMESH_DATA_DIR"}}
    env.update({"COLUMNS": "200", "LITELLM_LOCAL_MODEL_COST_MAP": "True", "OTEL_SDK_DISABLED": "true"})
    return env


def domain(cwd: Path, *args: str | Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*domain_command(), *map(str, args)], capture_output=True, text=True, cwd=cwd, env=clean_env(), timeout=300
    )


def explain(proc: subprocess.CompletedProcess[str]) -> str:
    return f"exit {proc.returncode}\n--- stdout\n{proc.stdout[-3000:]}\n--- stderr\n{proc.stderr[-3000:]}"


def test_new_demo_then_check_demo_passes(tmp_path: Path) -> None:
    created = domain(tmp_path, "new", "demo")
    assert created.returncode == 0, explain(created)
    package = tmp_path / "domains" / "demo"
    files = {"__init__.py", "models.py", "tools.py", "world.py", "policy.py", "tasks.py", "build.py", "test_demo.py"}
    assert {p.name for p in package.iterdir()} >= {*files, "data"}
    assert "export TAUMESH_DOMAIN_PATH" not in created.stdout  # ./domains is searched by default

    checked = domain(tmp_path, "check", "demo")
    assert checked.returncode == 0, explain(checked)
    assert "demo (train, test): 12 tasks, 12 replay cleanly, 0 with problems, 0 leave the state unchanged" in " ".join(
        checked.stdout.split()
    )
    assert "Traceback" not in checked.stderr

    # and the skeleton's own test passes
    tested = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(package)],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=clean_env(),
        timeout=300,
    )
    assert tested.returncode == 0, explain(tested)
    assert "4 passed" in tested.stdout


def test_new_elsewhere_says_what_to_export(tmp_path: Path) -> None:
    created = domain(tmp_path, "new", "shop", "--dir", "plugins")
    assert created.returncode == 0, explain(created)
    assert (tmp_path / "plugins" / "shop" / "tools.py").is_file()
    assert f"export TAUMESH_DOMAIN_PATH={tmp_path.resolve() / 'plugins'}" in created.stdout
    unfound = domain(tmp_path, "check", "shop")
    assert unfound.returncode == 2, explain(unfound)
    assert "unknown domain 'shop'" in unfound.stderr


@pytest.mark.parametrize(
    ("name", "message"),
    [("Demo", "not a valid domain name"), ("class", "not a valid domain name"), ("json", "importable module")],
)
def test_new_refuses_bad_names(tmp_path: Path, name: str, message: str) -> None:
    refused = domain(tmp_path, "new", name)
    assert refused.returncode == 2, explain(refused)
    assert message in refused.stderr
    assert not (tmp_path / "domains").exists()


def test_new_does_not_overwrite(tmp_path: Path) -> None:
    assert domain(tmp_path, "new", "demo").returncode == 0
    again = domain(tmp_path, "new", "demo")
    assert again.returncode == 2, explain(again)
    assert "already exists" in again.stderr


def test_check_fails_on_problems_and_shows_them(tmp_path: Path) -> None:
    assert domain(tmp_path, "new", "demo").returncode == 0
    tasks = [
        {"user_id": "u", "instruction": "i", "actions": [{"name": "fly_away", "kwargs": {}}], "intent": "fly"},
        {"user_id": "u", "instruction": "i", "actions": [], "intent": "fly"},
    ]
    (tmp_path / "domains" / "demo" / "data" / "tasks_test.json").write_text(json.dumps(tasks), encoding="utf-8")
    checked = domain(tmp_path, "check", "demo")
    assert checked.returncode == 1, explain(checked)
    assert "unknown tool 'fly_away'" in checked.stdout
    assert "gold state equals the initial state" in checked.stdout
    assert "10 tasks, 9 replay cleanly, 1 with problems, 2 leave the state unchanged" in checked.stdout  # 8 train


def test_check_airline_warns_only(v1_data_dir: Path, tmp_path: Path) -> None:
    checked = domain(tmp_path, "check", "airline", "--data-dir", V1_DATA)
    assert checked.returncode == 0, explain(checked)
    assert "airline (test): 50 tasks, 50 replay cleanly, 0 with problems" in checked.stdout
    assert "warning" in checked.stdout


def test_check_missing_data(tmp_path: Path) -> None:
    missing = domain(tmp_path, "check", "retail", "--data-dir", tmp_path / "nowhere")
    assert missing.returncode == 2, explain(missing)
    assert "is not a directory" in missing.stderr
