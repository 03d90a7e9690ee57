"""τ-bench v1's default folder is resolved when a run or command is made, never at import: ``TAUMESH_CACHE_DIR``
set after taumesh is imported moves it for the commands, the settings and every config, as it does for
``taumesh data import``."""

from __future__ import annotations

from pathlib import Path

import pytest

from taumesh.api.settings import ApiSettings
from taumesh.orchestrator.config import RunConfig
from taumesh.orchestrator.gym.config import GymConfig
from taumesh.settings import RunSettings, ServeSettings
from tests.helpers.cli import invoke


@pytest.fixture
def moved_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("TAUMESH_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("TAUMESH_DATA_DIR", raising=False)
    return tmp_path / "cache" / "taubench_v1"


def test_every_config_defaults_to_the_cache_named_now(moved_cache: Path) -> None:
    assert RunConfig().data_dir == moved_cache
    assert GymConfig().data_dir == moved_cache
    assert ApiSettings().data_dir == moved_cache
    assert RunSettings().data_dir == moved_cache
    assert ServeSettings.model_validate({"service": "env"}).data_dir == moved_cache


@pytest.mark.parametrize(
    "command",
    [("domain", "check", "retail"), ("tools", "export", "--env", "retail", "--format", "openai")],
)
def test_a_command_s_data_dir_defaults_to_the_cache_named_now(moved_cache: Path, command: tuple[str, ...]) -> None:
    done = invoke(*command)
    assert done.exit_code != 0 and f"{moved_cache / 'retail'} is not a directory" in done.stderr, done.stderr


def test_taumesh_data_dir_still_names_the_folder(moved_cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TAUMESH_DATA_DIR", str(moved_cache.parent / "v1"))
    assert RunConfig().data_dir == moved_cache.parent / "v1"
    assert "v1/retail is not a directory" in invoke("domain", "check", "retail").stderr
