"""Every script of examples/ runs against a real uvicorn, configured only by TAUMESH_API_URL and TAUMESH_API_KEY.

The uvicorn is the client tests' shared one (conftest.py). The tool-calling agent of compare_models.py talks to the
scripted OpenAI-compatible server (tests/llm) that server may call.
"""

from __future__ import annotations

import runpy
from pathlib import Path

import pytest

from taumesh.domains import Catalog
from tests.helpers.api import ApiServer
from tests.helpers.fake_model import FakeOpenAI
from tests.helpers.paths import PROJECT_ROOT
from tests.llm.scripts import AGENT_MODEL, GoldAgent, Router, ScriptedLlmUser, TaskIndex

EXAMPLES = PROJECT_ROOT / "examples"
EXPECTED = {
    "health_check.py": ["healthy, taumesh", "openai: configured"],
    "quick_validate.py": ["completed", "task 2 trial 1: reward 1.0", "pass^k {'1': 1.0, '2': 1.0}"],
    "compare_models.py": [
        "openai/oracle (oracle)",
        f"openai/{AGENT_MODEL} (tool-calling)",
        '"pass^2": [\n  1.0,\n  1.0',
    ],
    "async_run_with_events.py": ["6/6: task", "run_completed", "6 results, 6 successful", "the first from system"],
    "list_tasks.py": [
        "retail/test: 115 tasks; page 1, next 2",
        "yusuf_rossi_9620",
        "gold actions over the whole split",
    ],
    "manage_runs.py": ["cancelled after", "runs on the server, the latest:"],
    "handle_errors.py": ["401 authentication_error", "404 not_found", "422 validation_error", "body.num_trials"],
}


@pytest.fixture(scope="module")
def router(v1_data_dir: Path) -> Router:
    index = TaskIndex(Catalog(v1_data_dir).get("retail").tasks("test"))
    return Router(GoldAgent(index), ScriptedLlmUser(index))


@pytest.fixture
def fake_models(fake_server: FakeOpenAI, router: Router) -> FakeOpenAI:
    """The session's scripted server (the one the shared ``api`` may call), playing the gold agent and the user."""
    fake_server.reset(router)  # type: ignore[arg-type]
    return fake_server


TESTED_ELSEWHERE = {
    "external_agent_server.py": "tests/orchestrator/test_external_agent.py (an agent, not the SDK)",
    "group_rollouts.py": "tests/rollout/test_example.py (in-process rollouts, not the API client)",
    "train_loop.py": "tests/rollout/test_train_loop.py (in-process rollouts with a policy function)",
}


def test_every_example_is_tested() -> None:
    assert sorted(path.name for path in EXAMPLES.glob("*.py")) == sorted([*EXPECTED, *TESTED_ELSEWHERE])
    assert all((PROJECT_ROOT / where.split()[0]).is_file() for where in TESTED_ELSEWHERE.values())


SLOW = {"compare_models.py"}
"""Examples that take seconds: the server's first tool-calling run imports litellm."""


@pytest.mark.parametrize(
    "script", [pytest.param(name, marks=pytest.mark.slow) if name in SLOW else name for name in sorted(EXPECTED)]
)
def test_example_runs(
    script: str,
    api: ApiServer,
    fake_models: FakeOpenAI,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The script as ``python examples/SCRIPT`` runs it (as ``__main__``), in this process: no interpreter start-up."""
    monkeypatch.setenv("TAUMESH_API_URL", api.base_url)
    monkeypatch.setenv("TAUMESH_API_KEY", api.token)
    monkeypatch.setenv("TAUMESH_EXAMPLE_API_BASE", fake_models.url)
    try:
        runpy.run_path(str(EXAMPLES / script), run_name="__main__")
    except SystemExit as exited:
        assert exited.code in (None, 0), capsys.readouterr().err[-3000:]
    printed = capsys.readouterr().out
    for expected in EXPECTED[script]:
        assert expected in printed, printed
