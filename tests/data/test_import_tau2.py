"""``taumesh data import tau2``: upstream τ²/τ³ trees recognised by release, through the real command.

The trees are built here from the shared copy of upstream's banking_knowledge folder (v1.0.1 = HEAD a2c0247).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from taumesh.data import MANIFEST_NAME, RELEASE_FILE, recognise, releases
from tests.data._commands import clean_env, data, explain
from tests.helpers.paths import SHARED

BANKING = SHARED / "tau2" / "head_banking_knowledge" / "data"
CHANGED_DOC = "documents/doc_credit_cards_gold_rewards_card_001.json"

pytestmark = pytest.mark.skipif(not BANKING.is_dir(), reason=f"{BANKING} is not there")


def _checkout(root: Path) -> Path:
    """A checkout's layout: <root>/data/tau2/domains/banking_knowledge."""
    shutil.copytree(BANKING, root / "data" / "tau2" / "domains" / "banking_knowledge")
    return root


@pytest.mark.slow  # imports a τ² release: ~5 s under load
def test_shared_banking_folder_is_v1_0_1_and_listed(tmp_path: Path) -> None:
    env = clean_env(tmp_path / "cache")
    checkout = _checkout(tmp_path / "tau2-bench")
    done = data(env, "import", "tau2", checkout)
    assert done.returncode == 0, explain(done)
    assert "release v1.0.1" in done.stdout, explain(done)
    assert "warning" not in done.stderr, explain(done)
    imported = tmp_path / "cache" / "tau2_upstream"
    manifest = json.loads((imported / MANIFEST_NAME).read_text())
    assert manifest["version"] == "v1.0.1"
    assert manifest["files"][f"data/domains/banking_knowledge/{CHANGED_DOC}"]
    assert json.loads((imported / RELEASE_FILE).read_text())["folders"] == {"domains/banking_knowledge": ["v1.0.1"]}
    again = data(env, "import", "tau2", checkout / "data")  # its data/ folder: the same tree
    assert again.returncode == 0 and "nothing to do" in again.stdout, explain(again)
    listed = data(env, "list")
    assert listed.returncode == 0, explain(listed)
    row = next(line for line in listed.stdout.splitlines() if "tau2_upstream" in line)
    assert "v1.0.1" in row and "verified" in row, listed.stdout


@pytest.mark.slow  # imports a τ² release: ~5 s under load
def test_one_changed_file_is_an_unknown_release_named_in_the_warning(tmp_path: Path) -> None:
    env = clean_env(tmp_path / "cache")
    archive = _checkout(tmp_path / "unpacked" / "tau2-bench-main")  # an archive unpacked into one top folder
    document = archive / "data" / "tau2" / "domains" / "banking_knowledge" / CHANGED_DOC
    record = json.loads(document.read_text())
    document.write_text(json.dumps({**record, "content": record["content"] + " (edited)"}))
    done = data(env, "import", "tau2", tmp_path / "unpacked")
    assert done.returncode == 0, explain(done)
    warning = " ".join(done.stderr.split())
    assert f"changed domains/banking_knowledge/{CHANGED_DOC}" in warning, explain(done)
    assert "differs from v1.0.1" in warning and "unknown" in warning, explain(done)
    manifest = json.loads((tmp_path / "cache" / "tau2_upstream" / MANIFEST_NAME).read_text())
    assert manifest["version"] == "unknown"
    replaced = data(env, "import", "tau2", _checkout(tmp_path / "clean"))
    assert "release v1.0.1" in replaced.stdout and "replacing release unknown" in replaced.stdout, explain(replaced)


def test_a_folder_without_tau2_data_is_a_clear_error(tmp_path: Path) -> None:
    done = data(clean_env(tmp_path / "cache"), "import", "tau2", tmp_path)
    assert done.returncode == 1
    assert "holds no τ² data" in done.stderr and "Traceback" not in done.stderr, explain(done)


def test_releases_tell_v1_0_0_from_v1_0_1() -> None:
    """v1.0.1's grading fixes changed banking files: a tree with v1.0.0's hashes is v1.0.0, not v1.0.1."""
    recorded = {release.name: release for release in releases()}
    old = {path: sha for path, sha in recorded["v1.0.0"].files.items() if sha is not None}
    banking = {path: sha for path, sha in old.items() if path.startswith("domains/banking_knowledge/")}
    assert recognise(banking).release == "v1.0.0"
    assert banking != {path: recorded["v1.0.1"].files.get(path) for path in banking}
