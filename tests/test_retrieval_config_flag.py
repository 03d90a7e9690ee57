"""``--retrieval-config`` chooses a configuration of a domain that offers several, as ``--env DOMAIN:CONFIG`` does."""

from __future__ import annotations

import pytest

from taumesh.domains import Registry
from taumesh.settings import RunSettings
from tests.helpers.cli import explain_result, invoke


def test_the_flag_names_the_domains_variant() -> None:
    settings = RunSettings(env="tau2-banking-knowledge", retrieval_config="bm25")
    assert settings.run_config().env == "tau2-banking-knowledge:bm25"
    assert RunSettings(env="tau2-banking-knowledge").run_config().env == "tau2-banking-knowledge"  # alltools
    replays = RunSettings(env="tau2-banking-knowledge", retrieval_config="no_knowledge")  # the reference vectors'
    assert replays.run_config().env == "tau2-banking-knowledge:no_knowledge"


def test_an_unknown_configuration_is_refused_before_the_run(tmp_path: pytest.TempPathFactory) -> None:
    if "tau2-banking-knowledge" not in Registry.discover([]).names():
        pytest.skip("the tau2-banking-knowledge plugin is not installed")
    result = invoke(
        "run", "--env", "tau2-banking-knowledge", "--retrieval-config", "no_such_config",
        "--agent-strategy", "oracle", "--user-strategy", "scripted", "--log-dir", tmp_path,
    )  # fmt: skip
    assert result.exit_code != 0, explain_result(result)
    assert "no_such_config" in explain_result(result)
