"""A missing key is said before litellm is imported (issue 40, item 7: 5-7 s of CPU before the one-line error)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from taumesh.llm.preflight import PROVIDER_KEYS, credentials_problem, missing_credentials
from taumesh.models import ModelSettings
from tests.helpers.cli import child_env
from tests.helpers.paths import PROJECT_ROOT

TAUBENCH_LINE = [
    "run", "--agent-strategy", "tool-calling", "--env", "retail", "--model", "gpt-4o", "--model-provider", "openai",
    "--user-model", "gpt-4o", "--user-model-provider", "openai", "--user-strategy", "llm", "--max-concurrency", "10",
]  # fmt: skip
PROBE = """
import sys
from taumesh.cli import main
sys.argv = ["taumesh", *sys.argv[1:]]
try:
    main()
finally:
    print("litellm imported:", "litellm" in sys.modules, file=sys.stderr)
"""


def test_taubench_line_without_a_key_stops_before_litellm_is_imported() -> None:
    env = {k: v for k, v in child_env().items() if k != "OPENAI_API_KEY"}
    proc = subprocess.run(
        [sys.executable, "-c", PROBE, *TAUBENCH_LINE], capture_output=True, text=True, env=env, cwd=PROJECT_ROOT
    )
    assert proc.returncode != 0, proc.stdout + proc.stderr
    assert "needs OPENAI_API_KEY in the environment" in proc.stdout + proc.stderr, proc.stdout + proc.stderr
    assert "litellm imported: False" in proc.stderr, proc.stderr


@pytest.mark.parametrize("provider", sorted(PROVIDER_KEYS))
def test_each_provider_key_is_the_one_litellm_asks_for(provider: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The table answers "missing" only as litellm's validate_environment would."""
    monkeypatch.delenv(PROVIDER_KEYS[provider], raising=False)
    settings = ModelSettings(model="some-model", provider=provider)
    assert missing_credentials(settings) == [PROVIDER_KEYS[provider]]
    problem = credentials_problem(settings, "--model")
    assert problem == f"--model 'some-model' needs {PROVIDER_KEYS[provider]} in the environment, and it is not set"
    monkeypatch.setenv(PROVIDER_KEYS[provider], "taumesh-test-not-a-real-key")
    assert credentials_problem(settings, "--model") is None
