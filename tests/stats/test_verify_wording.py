"""``taumesh verify`` as a new user reads it (issue 40, item 7): no "ok" beside a mismatch of the same file, and a
broken file named with the reason it cannot be read."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.helpers.cli import ORACLE, explain_result, invoke


@pytest.fixture
def run_file(tau2_data: Path, tmp_path: Path) -> Path:
    """A two-task offline run of τ² mock, with its manifest."""
    ran = invoke("run", "--env", "tau2-mock", *ORACLE, "--task-ids", "0", "1", "--log-dir", tmp_path, "--quiet")
    assert ran.exit_code == 0, explain_result(ran)
    (manifest,) = tmp_path.glob("*.json.manifest")
    return manifest.with_name(manifest.name.removesuffix(".manifest"))


def test_an_edited_file_is_never_also_ok(run_file: Path) -> None:
    clean = invoke("verify", run_file)
    assert clean.exit_code == 0 and "ok: 1 file checksum matches the manifest" in clean.stdout, clean.output
    run_file.write_text(run_file.read_text().replace('"reward": 1.0', '"reward": 0.0', 1))
    edited = invoke("verify", run_file)
    assert edited.exit_code == 1
    assert f"MISMATCH checksum: {run_file.name}: changed since the run" in edited.stdout
    assert "file checksum" not in edited.stdout.replace("MISMATCH checksum", ""), (
        edited.stdout
    )  # was "ok: 1 file checksums"


@pytest.mark.parametrize("beside_a_manifest", [True, False], ids=["with-manifest", "alone"])
def test_a_cut_file_is_named_with_why_it_cannot_be_read(
    run_file: Path, beside_a_manifest: bool, tmp_path: Path
) -> None:
    target = run_file
    if not beside_a_manifest:
        target = tmp_path / "alone" / "results.json"
        target.parent.mkdir()
        shutil.copy(run_file, target)
    text = target.read_text()
    target.write_text(text[: len(text) // 2])
    result = invoke("verify", target)
    said = " ".join((result.stdout + result.stderr).split())
    assert result.exit_code == 2, said  # unreadable input
    assert f"{target}: not valid JSON (" in said and "cut short or edited since it was written" in said, said
    assert "no domain recorded" not in said  # the reason given before, with no manifest beside it


def test_verify_reads_the_mt_fork_s_folder(tau2_data: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """--mt-fork-folder writes ./data/{dataset}_{time}/ with the manifest in results/: verify found no manifest."""
    monkeypatch.chdir(tmp_path)
    ran = invoke(
        "run", "--env", "tau2-mock", *ORACLE, "--task-ids", "0", "1", "--output-format", "mt", "--mt-fork-folder",
        "--quiet",
    )  # fmt: skip
    assert ran.exit_code == 0, explain_result(ran)
    (folder,) = (tmp_path / "data").iterdir()
    result = invoke("verify", Path("data") / folder.name)
    assert result.exit_code == 0, result.output  # before: "an MT folder, but no manifest in . lists it", exit 2
    assert "ok: 2 rewards re-derived from the MT folder's trajectories" in result.stdout, result.stdout
    scores = folder / "oracle_scores.jsonl"
    scores.write_text(scores.read_text().replace("1.0", "0.0", 1))
    edited = invoke("verify", Path("data") / folder.name)
    assert edited.exit_code == 1 and f"MISMATCH checksum: ../data/{folder.name}/oracle_scores.jsonl" in edited.stdout
