"""No test sees the user's HOME or taumesh cache (tests/helpers/environment.py), and yet τ² data reaches them.

A machine whose ``~/.cache/taumesh`` held an imported fork of retail and τ-bench's imported prompts failed two tests
that passed on a fresh one: rescore's guess named the fork too, and the llm user found prompts the shared data lacks.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from taumesh.data import cache_dir, taubench_v1_dir
from tests.forks import tinyfork
from tests.helpers.cli import child_env, taumesh
from tests.helpers.environment import PROVIDED, USER_CACHE_ENV, Isolation
from tests.helpers.paths import PROJECT_ROOT, V1_DATA
from tests.llm.taubench_user_checkout import load_records, write_taubench_checkout

FAILED_ON_A_USED_MACHINE = (
    "tests/test_cli_usability.py::test_rescore_warns_when_the_file_holds_another_domain_s_tasks",
    "tests/gym/test_play.py::test_a_user_without_its_prompts_is_a_clear_error",
)
PROBE = "import pathlib; from taumesh.data import cache_dir; print(pathlib.Path.home()); print(cache_dir())"


def test_this_process_has_its_own_home_and_cache(isolation: Isolation) -> None:
    assert Path.home() == isolation.home and cache_dir() == isolation.cache
    assert not isolation.user_cache.is_relative_to(isolation.root)
    for name in ("XDG_CACHE_HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME"):
        assert Path(os.environ[name]).is_relative_to(isolation.home), name
    assert taubench_v1_dir() == isolation.cache / "taubench_v1"  # TAUMESH_DATA_DIR, the user's v1 folder, is gone
    # of the user's cache, only what the test command provides is linked in
    links = {path.relative_to(isolation.cache).as_posix() for path in isolation.cache.rglob("*") if path.is_symlink()}
    assert links <= set(PROVIDED)
    for relative in links:
        assert (isolation.cache / relative).readlink() == isolation.user_cache / relative


def test_processes_the_helpers_start_see_the_same(isolation: Isolation) -> None:
    probed = subprocess.run([sys.executable, "-c", PROBE], env=child_env(), capture_output=True, text=True, check=True)
    assert probed.stdout.split() == [str(isolation.home), str(isolation.cache)]
    listed = taumesh("data", "list")
    assert listed.returncode == 0, listed.stderr
    assert str(isolation.cache / "taubench_v1") in listed.stdout and str(isolation.user_cache) not in listed.stdout


def test_fetched_tau2_data_still_reaches_the_tests(tau2_data: Path, isolation: Isolation) -> None:
    assert tau2_data.is_relative_to(isolation.cache)
    assert tau2_data.resolve() == (isolation.user_cache / "tau2").resolve()


@pytest.fixture(scope="module")
def used_home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A HOME whose taumesh cache holds what a user imports: τ-bench's prompts and a fork with a retail copy."""
    if not (V1_DATA / "user_sim" / "requests.jsonl").is_file():
        pytest.skip(f"τ-bench's recorded user requests not found under {V1_DATA}")
    root = tmp_path_factory.mktemp("used")
    home = root / "home"
    env = child_env() | {"HOME": str(home)}
    for name in ("TAUMESH_CACHE_DIR", "TAUMESH_DATA_DIR", USER_CACHE_ENV, "XDG_CACHE_HOME"):
        env.pop(name, None)
    checkout = write_taubench_checkout(root / "tau-bench", load_records(V1_DATA / "user_sim" / "requests.jsonl"))
    fork = tinyfork.write_fork(root / "shop")
    retail_tools = json.loads((V1_DATA / "retail" / "tools.json").read_text(encoding="utf-8"))
    specs = [
        (f"Tool{n}", t["function"]["name"], dict.fromkeys(t["function"]["parameters"].get("required", []), "string"),
         "return 'ok'")
        for n, t in enumerate(retail_tools)
    ]  # fmt: skip
    tinyfork._env(fork / "tau_bench" / "envs", "retail", "RetailEnv", specs, tinyfork.COPIED_TASKS)
    for argv in (("data", "import", "taubench", checkout), ("domain", "import-fork", fork)):
        done = subprocess.run(["taumesh", *map(str, argv)], env=env, capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, done.stdout + done.stderr
    cache = home / ".cache" / "taumesh"
    assert "fork:shop/retail" in json.loads((cache / "forks" / "index.json").read_text(encoding="utf-8"))
    assert (cache / "taubench_v1" / "user_sim" / "prompts.json").is_file()
    return home


@pytest.mark.slow
def test_a_used_cache_changes_no_test(used_home: Path) -> None:
    env = child_env() | {"HOME": str(used_home)}
    for name in ("TAUMESH_CACHE_DIR", "TAUMESH_DATA_DIR", USER_CACHE_ENV, "XDG_CACHE_HOME", "PYTEST_XDIST_WORKER"):
        env.pop(name, None)
    argv = [sys.executable, "-m", "pytest", "-q", "-p", "no:randomly", "-p", "no:cacheprovider", "-n", "0"]
    done = subprocess.run(
        [*argv, *FAILED_ON_A_USED_MACHINE], env=env, cwd=PROJECT_ROOT, capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, done.stdout[-4000:]
    assert "2 passed" in done.stdout
