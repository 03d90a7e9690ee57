"""Issue 40's new-user findings that no other module reproduces, each as the new user took the step.

* τ-bench's command line, on a machine with neither a key nor τ-bench's data, stopped on ``OPENAI_API_KEY``, then,
  once that was set, on the missing data: a user learnt the steps one failure at a time. It now names every
  problem at once, each with the command that fixes it, before anything is written.
* ``docs/`` had no index, no getting-started page and no CLI reference: the site now builds (``mkdocs build
  --strict``) with those pages, and the reference holds every server ``taumesh serve`` starts.
* The healthcare step told the user to set ``TAUMESH_DOMAIN_PATH``, which was stale: the documented line runs as
  written, from a folder of the user's own, with no such variable.
"""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers.cli import child_env, invoke, load_json, results_path, taumesh_executable
from tests.helpers.paths import PROJECT_ROOT
from tests.test_help_panels import RUN_PANELS

TAUBENCH_LINE = [
    "run", "--agent-strategy", "tool-calling", "--env", "retail", "--model", "gpt-4o", "--model-provider", "openai",
    "--user-model", "gpt-4o", "--user-model-provider", "openai", "--user-strategy", "llm", "--max-concurrency", "10",
]  # fmt: skip
"""τ-bench's README command line, its ``python run.py`` spelled ``taumesh run``."""


def test_taubench_line_names_the_key_the_data_and_the_prompts_at_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.delenv("TAUMESH_DATA_DIR", raising=False)
    logs = tmp_path / "logs"
    result = invoke(*TAUBENCH_LINE, "--data-dir", tmp_path / "no-data", "--log-dir", logs)
    assert result.exit_code == 2, result.output
    assert "--model 'gpt-4o' needs OPENAI_API_KEY" in result.output
    assert "--user-model 'gpt-4o' needs OPENAI_API_KEY" in result.output
    assert "τ-bench v1's 'retail' data is not in" in result.output
    assert "prompts are not imported" in result.output
    assert result.output.count("taumesh data import taubench PATH") >= 2  # the data's fix and the prompts' fix
    assert not logs.exists()  # nothing ran, nothing was written


def test_the_docs_site_builds_with_an_index_a_getting_started_page_and_the_cli_reference(tmp_path: Path) -> None:
    site = tmp_path / "site"
    proc = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--quiet", "--site-dir", str(site)],
        capture_output=True,
        text=True,
        cwd=PROJECT_ROOT,
        env={**child_env(), "NO_MKDOCS_2_WARNING": "1"},
        timeout=300,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert (site / "index.html").is_file()
    assert "taumesh run" in (site / "getting-started" / "index.html").read_text(encoding="utf-8")
    reference = (site / "cli" / "index.html").read_text(encoding="utf-8")
    for command in ("taumesh run", "taumesh serve api", "taumesh serve a2a", "taumesh serve mcp", "taumesh verify"):
        assert f"<code>{command}</code>" in reference, command
    for panel in RUN_PANELS:  # run --help's panels, as the app prints them
        assert f"╭─ {panel}" in reference, panel


def documented_healthcare_line() -> list[str]:
    """The first ``taumesh run`` line of the healthcare page, as a user copies it."""
    text = (PROJECT_ROOT / "docs" / "domains" / "healthcare.md").read_text(encoding="utf-8")
    assert "TAUMESH_DOMAIN_PATH" not in text  # the stale step is gone
    match = re.search(r"^taumesh run .*$", text, re.MULTILINE)
    assert match, "the healthcare page shows no taumesh run line"
    return shlex.split(match.group(0))[1:]


def test_the_documented_healthcare_line_runs_without_a_domain_path(tmp_path: Path) -> None:
    env = {k: v for k, v in child_env().items() if k not in {"TAUMESH_DOMAIN_PATH", "TAUMESH_DATA_DIR"}}
    args = [*documented_healthcare_line(), "--task-ids", "0", "--log-dir", str(tmp_path / "logs"), "--quiet"]
    proc = subprocess.run(
        [taumesh_executable(), *args], capture_output=True, text=True, env=env, cwd=tmp_path, timeout=180
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    [entry] = load_json(results_path(tmp_path / "logs"))
    assert entry["reward"] == 1.0
    assert entry["info"]["run"]["env"] == "healthcare"
