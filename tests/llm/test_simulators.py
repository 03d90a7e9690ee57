"""Versioned user simulators (issue 47, item 3): every result records the version played, --user-sim selects one,
compare refuses runs played against different ones unless --allow-simulator-change, and each pinned prompt hash
is still the prompt's."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from taumesh.services.user_sim.strategies.prompts import persona_prompt
from taumesh.simulators import SIMULATORS
from tests.helpers.cli import explain_result, invoke
from tests.helpers.fake_model import FakeOpenAI
from tests.helpers.paths import SHARED
from tests.llm.scripts import ScriptedLlmUser, TaskIndex

ORACLE = ("run", "--env", "retail", "--task-ids", "0", "--agent-strategy", "oracle", "--quiet")


def sha256(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def test_each_pinned_prompt_hash_is_its_prompts(tau2_data: Path) -> None:
    assert SIMULATORS["taumesh-v1"].prompt_hash == sha256(persona_prompt("{instruction}"))
    guidelines = tau2_data / "data" / "user_simulator" / "simulation_guidelines.md"
    assert SIMULATORS["tau2-v1.0"].prompt_hash == sha256(guidelines.read_text(encoding="utf-8"))
    recorded = SHARED / "taubench_v1" / "user_sim" / "requests.jsonl"
    if not recorded.is_file():
        pytest.skip(f"reference data not found at {recorded}")
    first = next(json.loads(line) for line in recorded.open() if json.loads(line)["strategy"] == "llm")
    system = first["request_body"]["messages"][0]["content"]
    assert SIMULATORS["tau-bench-v1"].prompt_hash == sha256(system[system.index("Rules:") :])
    assert "temperature" not in first["request_body"] and SIMULATORS["tau-bench-v1"].temperature is None


def played(log_dir: Path, *extra: str) -> list[str]:
    result = invoke(*ORACLE, "--log-dir", log_dir, *extra)
    assert result.exit_code == 0, explain_result(result)
    (path,) = [p for p in log_dir.glob("*.json") if not p.name.endswith(".errors.json")]
    versions = [entry["info"]["user_sim_version"] for entry in json.loads(path.read_text())]
    manifest = json.loads(path.with_name(path.name + ".manifest").read_text())
    assert [manifest["user_sim_version"]] == sorted(set(versions))  # the manifest carries it too
    return versions


def test_results_record_the_simulator_and_compare_refuses_a_change(
    fake: FakeOpenAI,
    task_index: TaskIndex,
    v1_data_dir: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    user = ScriptedLlmUser(task_index)
    fake.reset(lambda request, ordinal: user(request))
    data = ("--data-dir", str(v1_data_dir))
    assert played(tmp_path / "a", *data, "--user-strategy", "scripted") == ["custom:scripted/gpt-4o"]
    # the provider's own endpoint (here the fake, by litellm's OPENAI_API_BASE): the registered version
    monkeypatch.setenv("OPENAI_API_BASE", fake.url)
    assert played(tmp_path / "b", *data, "--user-sim", "taumesh-v1") == ["taumesh-v1"]
    assert fake.served and {s.request["model"] for s in fake.served} == {"gpt-4o"}
    # the same strategy and model behind another endpoint is not the registered simulator
    custom = played(tmp_path / "c", *data, "--user-sim", "taumesh-v1", "--user-api-base", fake.url)
    assert custom == ["custom:llm-taumesh/gpt-4o"]

    a, b = (next(p for p in (tmp_path / run).glob("*.json") if not p.name.endswith(".errors.json")) for run in "ab")
    refused = invoke("compare", a, b, "--resamples", "99")
    assert refused.exit_code == 1
    assert "user simulators differ" in refused.output and "--allow-simulator-change" in refused.output
    assert "B played taumesh-v1" in refused.output
    allowed = invoke("compare", a, b, "--resamples", "99", "--allow-simulator-change", "--force")
    assert allowed.exit_code == 0, allowed.output
    assert "note: user simulators differ" in allowed.output


def test_an_unknown_or_contradicted_simulator_is_refused_before_running(v1_data_dir: Path, tmp_path: Path) -> None:
    unknown = invoke(*ORACLE, "--data-dir", v1_data_dir, "--log-dir", tmp_path, "--user-sim", "tau2-v9")
    assert unknown.exit_code == 2 and "unknown user simulator 'tau2-v9'" in unknown.output
    assert "tau-bench-v1, tau2-v1.0, taumesh-v1" in unknown.output
    both = invoke(*ORACLE, "--log-dir", tmp_path, "--user-sim", "tau2-v1.0", "--user-model", "gpt-4o")
    assert both.exit_code == 2 and "--user-sim tau2-v1.0 plays gpt-4.1-2025-04-14" in both.output
    assert not list(tmp_path.glob("*.json"))
