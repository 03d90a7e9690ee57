"""``taumesh verify`` through the real path: oracle runs on loopback gRPC, their manifests, edits that must fail."""

from __future__ import annotations

import base64
import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from tests.helpers.cli import ORACLE, explain_result, invoke
from tests.helpers.paths import V1_DATA

RUN = ("--task-ids", "0", "--task-ids", "1", "--task-ids", "2", "--num-trials", "2", *ORACLE)


def _run(log_dir: Path, data_dir: Path, output_format: str = "taubench,tau2,mt") -> Path:
    result = invoke(
        "run", "--env", "retail", "--task-split", "test", *RUN, "--data-dir", data_dir, "--log-dir", log_dir,
        "--output-format", output_format,
    )  # fmt: skip
    assert result.exit_code == 0, explain_result(result)
    (manifest,) = log_dir.glob("*.json.manifest")
    return manifest.with_name(manifest.name.removesuffix(".manifest"))


def _verify(*args: str | Path) -> tuple[int, str]:
    result = invoke("verify", *args)
    return result.exit_code, result.stdout + result.stderr


@pytest.fixture(scope="module")
def data_copy(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """τ-bench v1's retail, copied so a test may change it (the copy lives in the test's temporary folder)."""
    if not V1_DATA.is_dir():
        pytest.skip(f"reference data not found at {V1_DATA}")
    folder = tmp_path_factory.mktemp("data")
    shutil.copytree(V1_DATA / "retail", folder / "retail")
    return folder


@pytest.fixture(scope="module")
def run_files(tmp_path_factory: pytest.TempPathFactory, data_copy: Path) -> Path:
    return _run(tmp_path_factory.mktemp("run"), data_copy)


def _copy_run(results: Path, into: Path) -> Path:
    shutil.copytree(results.parent, into, dirs_exist_ok=True)
    return into / results.name


def test_an_untouched_run_verifies_in_every_layout(run_files: Path) -> None:
    for target in (run_files, run_files.with_name(run_files.name.replace(".json", ".tau2.json"))):
        code, output = _verify(target)
        assert code == 0, output
        assert "ok: 6 rewards re-derived" in output and "ok: data release" in output
    (mt,) = (run_files.parent / "data").iterdir()
    code, output = _verify(mt)
    assert code == 0 and "ok: 6 rewards re-derived from the MT folder" in output, output


def test_a_run_written_only_in_tau2s_layout_verifies(tmp_path: Path, data_copy: Path) -> None:
    results = _run(tmp_path, data_copy, "tau2")
    assert not results.exists()
    code, output = _verify(results.with_name(results.name.replace(".json", ".tau2.json")))
    assert code == 0 and "ok: 6 rewards re-derived" in output, output


def _edit(path: Path, change: Any) -> None:
    entries = json.loads(path.read_text())
    change(entries)
    path.write_text(json.dumps(entries, indent=2))


def test_one_edited_reward_fails_naming_it(run_files: Path, tmp_path: Path) -> None:
    results = _copy_run(run_files, tmp_path)

    def zero(entries: list[dict[str, Any]]) -> None:
        entries[0]["reward"] = 0.0

    _edit(results, zero)
    code, output = _verify(results)
    assert code == 1, output
    assert (
        "MISMATCH reward: " in output and "task 0 trial 0: recorded reward 0.0 does not match its trajectory" in output
    )
    assert f"MISMATCH checksum: {results.name}: changed since the run" in output
    assert "reward 0.0 in the file, 1.0 in the manifest" in output


def test_one_edited_tool_result_fails_naming_the_episode(run_files: Path, tmp_path: Path) -> None:
    results = _copy_run(run_files, tmp_path)

    def tool_result(entries: list[dict[str, Any]]) -> None:
        message = next(m for m in entries[1]["traj"] if m["role"] == "tool")
        message["content"] = message["content"].replace("pending", "delivered", 1) + " "

    _edit(results, tool_result)
    code, output = _verify(results)
    assert code == 1, output
    assert "MISMATCH trajectory: " in output and "the trajectory changed since the run" in output
    task, trial = json.loads(results.read_text())[1]["task_id"], json.loads(results.read_text())[1]["trial"]
    assert f"task {task} trial {trial}: the trajectory changed" in output


def test_results_scored_against_another_data_release_fail(tmp_path: Path, data_copy: Path) -> None:
    data = tmp_path / "data"
    shutil.copytree(data_copy, data)
    results = _run(tmp_path / "run", data)
    with (data / "retail" / "wiki.md").open("a") as wiki:
        wiki.write("\nA rule added after the run.\n")
    code, output = _verify(results)
    assert code == 1, output
    assert "MISMATCH data release: the run was scored against release" in output
    assert "MISMATCH data release: data/wiki.md: differs from the file the run was scored against" in output


def _keys(folder: Path, name: str) -> tuple[Path, Path]:
    key = Ed25519PrivateKey.generate()
    private, public = folder / f"{name}.pem", folder / f"{name}.pub"
    private.write_bytes(
        key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
    )
    public.write_bytes(
        key.public_key().public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo)
    )
    return private, public


@pytest.mark.slow  # 5-7 s under load
def test_signatures_sign_and_a_bad_one_fails(run_files: Path, tmp_path: Path) -> None:
    results = _copy_run(run_files, tmp_path / "run")
    private, public = _keys(tmp_path, "mine")
    _, other = _keys(tmp_path, "other")
    code, output = _verify(results, "--sign", private)
    assert code == 0 and "signed: " in output, output
    code, output = _verify(results, "--verify-key", public)
    assert code == 0 and "ok: signature" in output, output
    code, output = _verify(results, "--verify-key", other)
    assert code == 1 and "MISMATCH signature: bad signature" in output, output
    signature = results.with_name(results.name + ".manifest.sig")
    forged = bytearray(base64.b64decode(signature.read_bytes()))
    forged[0] ^= 1
    signature.write_bytes(base64.b64encode(bytes(forged)))
    code, output = _verify(results, "--verify-key", public)
    assert code == 1 and "MISMATCH signature: bad signature" in output, output


def test_unreadable_input_is_a_clear_error(tmp_path: Path) -> None:
    code, output = _verify(tmp_path / "nothing.json")
    assert code == 2 and "not found" in output
    code, output = _verify(tmp_path)
    assert code == 2 and "neither an MT folder nor a τ² submission" in output


def _tau2_run(log_dir: Path) -> Path:
    result = invoke(
        "run", "--env", "tau2-retail", "--task-ids", "0", "--task-ids", "1", "--num-trials", "2", *ORACLE,
        "--log-dir", log_dir, "--output-format", "tau2",
    )  # fmt: skip
    assert result.exit_code == 0, explain_result(result)
    (document,) = log_dir.glob("*.tau2.json")
    return document


@pytest.mark.slow  # 5-7 s under load
def test_tau2_documents_and_a_leaderboard_submission(tau2_data: Path, tmp_path: Path) -> None:
    document = _tau2_run(tmp_path / "run")
    code, output = _verify(document)
    assert code == 0 and "ok: 4 rewards re-derived" in output, output
    # τ²'s own document: no manifest, the rewards alone
    alone = tmp_path / "own" / "results.json"
    alone.parent.mkdir()
    shutil.copy(document, alone)
    code, output = _verify(alone)
    assert code == 0 and "no manifest" in output, output
    # a submission folder laid out as τ²'s `tau2 submit prepare` writes it
    submission = tmp_path / "submission"
    (submission / "trajectories").mkdir(parents=True)
    shutil.copy(document, submission / "trajectories" / "my_model_retail.json")
    claimed = {"model_name": "oracle", "results": {"retail": {"pass_1": 100.0, "pass_2": 100.0}}}
    (submission / "submission.json").write_text(json.dumps(claimed))
    code, output = _verify(submission)
    assert code == 0 and "retail: pass^k of submission.json against its trajectories" in output, output
    claimed["results"]["retail"]["pass_1"] = 97.5
    (submission / "submission.json").write_text(json.dumps(claimed))
    code, output = _verify(submission)
    assert code == 1 and "MISMATCH metric: retail: pass_1 97.5 submitted, 100.0000 from the trajectories" in output
