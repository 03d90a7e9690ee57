"""``taumesh run --env tau2-banking-knowledge:no_knowledge``, oracle and scripted user: the MANIFEST's histogram.

The shared MANIFEST records upstream's reward histogram over the 97 gold replays, made with ``no_knowledge`` (every
task 1.0; task_102's NL assertion unjudged there). The run plays every task through the real services, embedded in
the run's process and as separate ``taumesh serve`` processes; task_102 is judged by a scripted OpenAI-compatible
judge on 127.0.0.1.
"""

from __future__ import annotations

import collections
import json
import os
import subprocess
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest

from taumesh.testing.processes import service_processes, taumesh_executable
from tests.domains.tau2_banking_knowledge.support import (
    FIXTURES,
    NEEDS_FIXTURES_AND_CHECKOUT,
    NO_KNOWLEDGE,
    imported_cache,
    judge_all_met,
)
from tests.helpers.fake_model import FakeOpenAI

pytestmark = [
    *NEEDS_FIXTURES_AND_CHECKOUT,
    pytest.mark.slow,
]


@pytest.fixture(scope="module")
def setting(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[dict[str, str], str]]:
    """The environment of the processes (the checkout imported into a fresh cache, the judge allowed) and the judge."""
    with imported_cache(tmp_path_factory.mktemp("cache")) as cache, FakeOpenAI(judge_all_met) as judge:
        environ = {**os.environ, **judge.environment(), "TAUMESH_CACHE_DIR": str(cache)}
        yield environ, judge.url


def _run(log_dir: Path, environ: Mapping[str, str], judge: str, *extra: str) -> list[dict[str, Any]]:
    argv = [taumesh_executable(), "run", "--env", NO_KNOWLEDGE, "--agent-strategy", "oracle"]
    argv += ["--user-strategy", "scripted"]
    argv += ["--judge-model", "openai/judge", "--judge-api-base", judge, "--log-dir", str(log_dir)]
    argv += ["--max-concurrency", "8", "--quiet", *extra]
    done = subprocess.run(argv, env=dict(environ), capture_output=True, text=True, timeout=900, check=False)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    (path,) = [path for path in log_dir.glob("*.json") if not path.name.endswith((".tau2.json", ".errors.json"))]
    results: list[dict[str, Any]] = json.loads(path.read_text(encoding="utf-8"))
    return results


def _histogram(results: list[dict[str, Any]]) -> dict[str, int]:
    return dict(collections.Counter(str(float(result["reward"])) for result in results))


def _expected() -> dict[str, int]:
    manifest = json.loads((FIXTURES / "MANIFEST.json").read_text(encoding="utf-8"))
    histogram: dict[str, int] = manifest["gold_replay"]["reward_hist"]
    return histogram


def _check(results: list[dict[str, Any]]) -> None:
    assert _histogram(results) == _expected()
    assert len({result["task_id"] for result in results}) == 97
    (judged,) = [result for result in results if result["task_id"] == "task_102"]
    nl = [check["passed"] for check in judged["info"]["reward_checks"] if check["basis"] == "NL_ASSERTION"]
    assert nl == [True]


def test_oracle_run_embedded_gives_the_manifests_histogram(setting: tuple[dict[str, str], str], tmp_path: Path) -> None:
    environ, judge = setting
    _check(_run(tmp_path, environ, judge))


def test_oracle_run_with_the_services_apart_gives_the_manifests_histogram(
    setting: tuple[dict[str, str], str], tmp_path: Path
) -> None:
    environ, judge = setting
    services = {"env": [], "user-sim": [], "scorer": []}
    with service_processes(services, tmp_path, env=environ) as started:
        addresses = [f"--{name.split('-')[0]}-addr" for name in services]
        flags = [part for name, flag in zip(services, addresses, strict=True) for part in (flag, started[name].address)]
        results = _run(tmp_path / "log", environ, judge, *flags)
    _check(results)
