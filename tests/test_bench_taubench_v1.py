"""bench/tau2_replay.py --taubench-v1: τ-bench v1's own per-task time from a checkout, beside taumesh over gRPC.

The end-to-end test runs v1's side for real, which needs a τ-bench checkout and the bench's τ² venv (v1's env and
reward import only litellm and pydantic, which that venv holds). The checkout is ``$TAUMESH_TAUBENCH_V1``, else one
built from the git directory ``$TAUMESH_TAUBENCH_V1_GIT`` (default: this machine's mirror); the venv is used only
when it is already installed, since installing it needs the package registry. Otherwise the test skips and says why.
No timing is asserted (the machine is shared): the report's shape and the rewards are.
"""

from __future__ import annotations

import importlib.util
import io
import json
import os
import subprocess
import sys
import tarfile
from pathlib import Path
from types import ModuleType

import pytest

from taumesh.common.v1 import common_pb2
from taumesh.data import cache_dir

pytestmark = pytest.mark.slow

PROJECT_ROOT = Path(__file__).resolve().parent.parent
BENCH = PROJECT_ROOT / "bench" / "tau2_replay.py"
CHECKOUT_ENV = "TAUMESH_TAUBENCH_V1"
GIT_DIR_ENV = "TAUMESH_TAUBENCH_V1_GIT"
DEFAULT_GIT_DIR = Path("/work/.mirror/sierra-research+tau-bench/repo")
TASK_IDS = ("2", "10", "13")
"""retail 2 and airline 2 must say outputs; retail 10 and airline 13 end with transfer_to_human_agents."""
LEVELS = (1, 2)


@pytest.fixture(scope="module")
def bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("tau2_replay", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # pydantic resolves the report models' annotations through it
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def checkout(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A τ-bench checkout: the configured one, else ``tau_bench/`` extracted from the git directory's HEAD."""
    configured = os.environ.get(CHECKOUT_ENV)
    if configured:
        return Path(configured)
    git_dir = Path(os.environ.get(GIT_DIR_ENV, DEFAULT_GIT_DIR))
    if not git_dir.is_dir():
        pytest.skip(f"no τ-bench v1 checkout: set {CHECKOUT_ENV} to one, or {GIT_DIR_ENV} to its git directory")
    archive = subprocess.run(
        ["git", f"--git-dir={git_dir}", "archive", "--format=tar", "HEAD", "tau_bench"],
        capture_output=True,
        check=True,
    ).stdout
    root = tmp_path_factory.mktemp("tau-bench")
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(root, filter="data")
    return root


@pytest.fixture(scope="module")
def tau2_venv_python(bench: ModuleType) -> Path:
    python: Path | None = bench.installed_tau2_python(cache_dir())
    if python is None:
        pytest.skip(
            f"the bench's τ² venv is not installed at {bench.tau2_venv(cache_dir())} (installing it needs the "
            "package registry): run bench/tau2_replay.py once without --skip-tau2"
        )
    return python


def test_v1_episodes_end_as_v1_ends_them(bench: ModuleType, v1_data_dir: Path) -> None:
    outputs, transfer = bench.v1_gold_episodes("retail", v1_data_dir, [37, 10], None)
    assert outputs.termination == common_pb2.TERMINATION_USER_STOP
    assert [m.content for m in outputs.closing] == ["camera 481.5", "###STOP###"]
    assert transfer.termination == common_pb2.TERMINATION_TERMINATE_TOOL
    assert (transfer.calls[-1].name, transfer.closing) == ("transfer_to_human_agents", ())
    first_two = bench.v1_gold_episodes("airline", v1_data_dir, None, 2)
    assert [e.ref.task_id for e in first_two] == ["0", "1"]
    assert [e.closing[0].content for e in first_two] == [bench.V1_NEUTRAL_RESPONSE] * 2


def test_a_reward_differing_from_v1s_fails_the_bench(bench: ModuleType) -> None:
    spread = bench.Spread.of([1.0])
    v1 = bench.InProcessTiming(wall_ms=spread, cpu_ms=spread, import_s=0.0, rewards={"0": 1.0, "1": 0.0})
    one_pass = bench.PassTiming(concurrency=1, episodes=2, wall_ms_per_episode=1.0, cpu_ms_per_episode=1.0)
    timing = bench.TaumeshTiming(mode="embedded", cold=one_pass, passes=[one_pass], best=one_pass, rewards={})
    bench.check_rewards("retail", v1, [timing.model_copy(update={"rewards": {"0": 1.0, "1": 0.0}})])
    for rewards in ({"0": 1.0, "1": 1.0}, {"0": 1.0}):
        with pytest.raises(SystemExit, match="rewards differ from τ-bench v1's"):
            bench.check_rewards("retail", v1, [timing.model_copy(update={"rewards": rewards})], name="τ-bench v1")


def test_v1_side_runs_from_a_checkout_and_matches_taumesh_rewards(
    checkout: Path, tau2_venv_python: Path, v1_data_dir: Path, tmp_path: Path
) -> None:
    out = tmp_path / "report.json"
    argv = [sys.executable, str(BENCH), "--taubench-v1", str(checkout), "--v1-only", "--data-dir", str(v1_data_dir)]
    argv += ["--v1-task-ids", *TASK_IDS, "--v1-repeats", "2", "--concurrency", *map(str, LEVELS), "--out", str(out)]
    done = subprocess.run(argv, capture_output=True, text=True, cwd=PROJECT_ROOT, env=os.environ, timeout=900)
    assert done.returncode == 0, (done.stdout[-2000:], done.stderr[-4000:])
    assert "τ-bench v1 test split" in done.stdout

    report = json.loads(out.read_text(encoding="utf-8"))
    assert report["domains"] == []
    assert report["taubench_v1_checkout"] == str(checkout.resolve())
    assert [d["domain"] for d in report["taubench_v1"]] == ["retail", "airline"]
    for domain in report["taubench_v1"]:
        v1 = domain["taubench_v1"]
        assert (domain["split"], domain["tasks"], v1["repeats"]) == ("test", len(TASK_IDS), 2)
        assert v1["rewards"] == dict.fromkeys(TASK_IDS, 1.0)
        assert v1["wall_ms"]["median"] > 0 and v1["cpu_ms"]["median"] > 0
        assert sorted(v1["phase_wall_ms"]) == ["replay", "reset", "reward"]
        assert v1["phase_wall_ms"]["reward"]["median"] > v1["phase_wall_ms"]["replay"]["median"]
        for mode in ("embedded", "separate"):
            assert domain[mode]["rewards"] == v1["rewards"]
            assert [p["concurrency"] for p in domain[mode]["passes"]] == list(LEVELS)
            assert set(domain["ratios"]) >= {f"{mode}_wall", f"{mode}_cpu", f"{mode}_cold_wall"}
            assert isinstance(domain["target_met"][mode], bool)
