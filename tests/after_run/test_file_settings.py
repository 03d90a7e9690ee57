"""After a run, ``rescore`` and ``verify`` take the domain, split and grader its results file records (issue 39).

Through the real path: oracle runs written by ``taumesh run``, then the after-run commands on loopback gRPC. A flag
overrides a value only when given, and one that cannot work with the file (a split holding none of its tasks) is
refused before anything is replayed, naming what the file records.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tests.helpers.cli import ORACLE, explain_result, invoke, load_json, results_path

HEALTHCARE_TRAIN_TASKS = 120
"""Tasks of healthcare's train split (release 2, what ``healthcare`` serves): the issue's 120."""


def _said(result: object) -> str:
    """stdout and stderr of an in-process command, each run of spaces made one (rich wraps long lines)."""
    return " ".join(f"{getattr(result, 'stdout', '')} {getattr(result, 'stderr', '')}".split())


@pytest.fixture(scope="module")
def healthcare_train(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An oracle run of all of healthcare's train split (about 3 s), and its results file."""
    log_dir = tmp_path_factory.mktemp("healthcare_train")
    ran = invoke(
        "run", "--env", "healthcare", "--task-split", "train", *ORACLE, "--max-concurrency", "8", "--log-dir", log_dir
    )  # fmt: skip
    assert ran.exit_code == 0, explain_result(ran)
    return results_path(log_dir)


def test_rescore_of_a_train_split_file_takes_its_split_and_scores_every_task(
    healthcare_train: Path, tmp_path: Path
) -> None:
    entries = load_json(healthcare_train)
    assert len(entries) == HEALTHCARE_TRAIN_TASKS and {e["reward"] for e in entries} == {1.0}
    assert {e["info"]["run"]["task_split"] for e in entries} == {"train"}
    # healthcare's first split is base: only the file says train (a name test said test: every task NOT_FOUND)

    rows_path = tmp_path / "rows.json"
    rescored = invoke("rescore", healthcare_train, "--out", rows_path)  # neither --env nor --task-split
    assert rescored.exit_code == 0, explain_result(rescored)
    count = HEALTHCARE_TRAIN_TASKS
    assert f"rescored {count} trajectories: {count} agree, 0 differ" in rescored.stdout
    rows = json.loads(rows_path.read_text(encoding="utf-8"))
    assert len(rows) == count and all(row["reward"] == 1.0 and not row["failed"] for row in rows)


def test_a_split_flag_overrides_the_file_and_one_that_cannot_work_is_refused(healthcare_train: Path) -> None:
    refused = invoke("rescore", healthcare_train, "--task-split", "test")  # test holds none of train's tasks
    assert refused.exit_code == 2, explain_result(refused)
    said = _said(refused)
    assert f"none of the {HEALTHCARE_TRAIN_TASKS} tasks" in said and "split 'test'" in said, said
    assert "the file records split 'train'" in said, said
    assert "rescored" not in refused.stdout, explain_result(refused)  # refused before any replay

    base = invoke("rescore", healthcare_train, "--task-split", "base")  # base holds them all: the flag is taken
    assert base.exit_code == 0, explain_result(base)
    assert f"{HEALTHCARE_TRAIN_TASKS} agree, 0 differ" in base.stdout


def test_rescore_takes_the_grader_the_file_records_unless_told(healthcare_train: Path, tmp_path: Path) -> None:
    entries = load_json(healthcare_train)
    for entry in entries:  # as the strict grader's run records it
        entry["info"]["validity"]["grader"] = "strict"
    mixed = tmp_path / "mixed.json"
    entries[0]["info"]["validity"]["grader"] = "faithful"
    mixed.write_text(json.dumps(entries), encoding="utf-8")
    refused = invoke("rescore", mixed)
    assert refused.exit_code == 2, explain_result(refused)
    assert "several graders (faithful, strict)" in _said(refused)

    bogus = invoke("rescore", healthcare_train, "--grader", "lenient")
    assert bogus.exit_code == 2 and "--grader 'lenient': use faithful or strict" in _said(bogus), _said(bogus)


def test_verify_re_derives_a_train_split_file_on_its_own_split(healthcare_train: Path, tmp_path: Path) -> None:
    verified = invoke("verify", healthcare_train)  # with its manifest
    assert verified.exit_code == 0, explain_result(verified)
    assert f"{HEALTHCARE_TRAIN_TASKS} rewards re-derived" in verified.stdout

    alone = tmp_path / "no_manifest.json"  # no manifest: the split comes from the file alone
    shutil.copy(healthcare_train, alone)
    verified = invoke("verify", alone)
    assert verified.exit_code == 0, explain_result(verified)
    assert f"{HEALTHCARE_TRAIN_TASKS} rewards re-derived" in verified.stdout


def test_a_tau2_run_is_rescored_on_its_own_domain_and_split(tau2_data: Path, tmp_path: Path) -> None:
    """τ²-retail's test split: the τ-bench-layout file records it; τ²'s document records none (then base)."""
    ran = invoke(
        "run", "--env", "tau2-retail", "--task-split", "test", "--end-index", "2", *ORACLE,
        "--output-format", "both", "--log-dir", tmp_path,
    )  # fmt: skip
    assert ran.exit_code == 0, explain_result(ran)
    listed = results_path(tmp_path)
    (document,) = tmp_path.glob("*.tau2.json")
    assert {e["info"]["run"]["task_split"] for e in load_json(listed)} == {"test"}

    for path in (listed, document):  # no flag: the file's domain, and its split (the document's: base)
        rescored = invoke("rescore", path)
        assert rescored.exit_code == 0, explain_result(rescored)
        assert "rescored 2 trajectories: 2 agree, 0 differ" in rescored.stdout

    refused = invoke("rescore", listed, "--task-split", "train")  # given: taken, and test's tasks are not in train
    assert refused.exit_code == 2, explain_result(refused)
    said = _said(refused)
    assert "none of the 2 tasks" in said and "the file records split 'test'" in said, said
