"""Opt-in: real forks from checkouts the user fetched (tests fetch nothing).

* ``TAUMESH_TAUBENCH_CHECKOUT``: a sierra-research/tau-bench checkout. Imported as a fork, it reproduces every
  vector of ../shared/taubench_v1/vectors through the fork path (observations, done, hashes, rewards), and an
  oracle run over retail and airline test gives each task the reward the native domains give.

Get one with ``fetch github:sierra-research/tau-bench``, then ``git -C <mirror> archive HEAD tau_bench | tar -x``.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from taumesh.domains import Catalog, Domain, Episode, ToolCrash
from taumesh.forks._import import import_fork
from taumesh.models import ChatMessage
from tests.helpers.cli import ORACLE, taumesh
from tests.helpers.paths import V1_DATA, V1_VECTORS, read_jsonl

CHECKOUT = os.environ.get("TAUMESH_TAUBENCH_CHECKOUT")
pytestmark = pytest.mark.skipif(not CHECKOUT, reason="set TAUMESH_TAUBENCH_CHECKOUT to a tau-bench checkout")
FORK = "tau-bench"
SPLITS = [("retail", "test"), ("retail", "train"), ("retail", "dev"), ("airline", "test")]


@pytest.fixture(scope="module")
def catalog(tmp_path_factory: pytest.TempPathFactory) -> Any:
    mp = pytest.MonkeyPatch()
    mp.setenv("TAUMESH_CACHE_DIR", str(tmp_path_factory.mktemp("cache")))
    record = import_fork(Path(str(CHECKOUT)), name=FORK)
    assert sorted(record.envs) == ["airline", "retail"] and not record.failed
    assert record.differences == [] and record.reward == "upstream"
    try:
        yield Catalog(tmp_path_factory.mktemp("none"))
    finally:
        mp.undo()


def _domain(catalog: Catalog, env: str) -> Domain:
    return catalog.get(f"fork:{FORK}/{env}")


@pytest.mark.timeout(3600)  # the fork's own hash of retail's data takes 0.1 s, and every step's is compared
@pytest.mark.parametrize(("env", "split", "count"), [(*s, n) for s, n in zip(SPLITS, (115, 500, 20, 50), strict=True)])
def test_every_task_vector(catalog: Catalog, env: str, split: str, count: int) -> None:
    domain = _domain(catalog, env)
    vectors = list(read_jsonl(V1_VECTORS / f"{env}_{split}.jsonl"))
    assert len(vectors) == count
    for vector in vectors:
        task = domain.find_task(split, str(vector["task_id"]))
        assert [a.model_dump() for a in task.actions] == vector["actions"]
        assert task.outputs == vector["expected_outputs"]
        session = domain.open_session(task)
        assert session.data_hash() == vector["initial_hash"]
        for action, step in zip(task.actions, vector["steps"], strict=True):
            result = domain.call_tool(session, action.name, dict(action.kwargs))
            assert (result.observation, result.done) == (step["observation"], step["done"]), (env, split, task.id)
            assert session.data_hash() == step["hash_after"]
        assert session.data_hash() == vector["final_hash"]
        assert domain.gold_hash(task) == vector["gt_data_hash"]


def test_every_error_and_sequence_vector(catalog: Catalog) -> None:
    for case in read_jsonl(V1_VECTORS / "error_cases.jsonl"):
        domain = _domain(catalog, case["env"])
        session = domain.open_session(domain.task("test", 0))
        if "raised" in case:  # τ-bench's own step raised: the episode ends
            with pytest.raises(ToolCrash):
                domain.call_tool(session, case["tool"], case["kwargs"])
            continue
        result = domain.call_tool(session, case["tool"], case["kwargs"])
        assert (result.observation, result.done) == (case["observation"], case["done"]), case["note"]
        after = session.data_hash()
        if "hash_after" in case:
            assert after == case["hash_after"], case["note"]
        if "data_changed" in case:
            assert (after != domain.initial_hash) == case["data_changed"], case["note"]
    for case in read_jsonl(V1_VECTORS / "sequence_cases.jsonl"):
        domain = _domain(catalog, case["env"])
        session = domain.open_session(domain.task("test", 0))
        for call, expected in zip(case["sequence"], case["results"], strict=True):
            if "raised" in expected:  # τ-bench's own step raised: the episode ends
                with pytest.raises(ToolCrash, match="ValidationError"):
                    domain.call_tool(session, call["tool"], call["kwargs"])
                break
            assert domain.call_tool(session, call["tool"], call["kwargs"]).observation == expected["observation"]
        else:
            assert session.data_hash() == case["hash_after"]


def test_every_reward_vector(catalog: Catalog) -> None:
    for case in read_jsonl(V1_VECTORS / "reward_cases.jsonl"):
        domain = _domain(catalog, case["env"])
        task = domain.find_task(case["split"], str(case["task_id"]))
        session = domain.open_session(task)
        for action in case["actions"]:
            domain.call_tool(session, action["name"], action["kwargs"])
        said = [ChatMessage(role="assistant", content=text) for text in case["respond_contents"]]
        score = domain.score(Episode(domain, task, said, "user_stop", session.data_hash(), domain.gold_hash(task)))
        assert score.reward == case["reward"], case["description"]


@pytest.mark.timeout(3600)
def test_oracle_rewards_equal_the_native_domains(catalog: Catalog, tmp_path: Path) -> None:
    for env in ("retail", "airline"):
        rewards = {}
        for name, where in ((env, "native"), (f"fork:{FORK}/{env}", "fork")):
            out = tmp_path / f"{env}-{where}"
            done = taumesh("run", "--env", name, *ORACLE, "--data-dir", V1_DATA, "--max-concurrency", "8",
                           "--log-dir", out, timeout=900)  # fmt: skip
            assert done.returncode == 0, done.stderr[-3000:]
            [results] = [p for p in out.glob("*.json") if not p.name.endswith(".manifest")]
            rewards[where] = {row["task_id"]: row["reward"] for row in json.loads(results.read_text())}
        assert rewards["fork"] == rewards["native"], env
