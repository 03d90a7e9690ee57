"""``OperatorGrants``: what the operator's environment allows, and what ``taumesh run`` adds for its own services."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from taumesh.llm.access import (
    ALLOWED_AGENT_URLS_ENV,
    ALLOWED_API_BASES_ENV,
    FEW_SHOT_DIR_ENV,
    OperatorGrants,
    current_grants,
    granted,
)
from taumesh.rpc.errors import PermissionDenied
from tests.helpers.cli import explain_result, invoke, load_json, results_path
from tests.helpers.fake_model import FakeOpenAI, text
from tests.helpers.paths import V1_DATA


def test_the_environment_lists_endpoints_by_commas_or_spaces_and_ignores_trailing_slashes() -> None:
    grants = OperatorGrants.from_env({ALLOWED_API_BASES_ENV: " http://a:1/v1/ ,http://b:2/v1\nhttp://c:3 "})
    for allowed in ("http://a:1/v1", "http://a:1/v1/", "http://b:2/v1", "http://c:3/", "", "  "):
        grants.check_api_base(allowed, "api_base")
    for other in ("http://a:1/v2", "http://a:1", "https://a:1/v1", "http://b:2/v1/../v1", "http://evil/?http://a:1/v1"):
        with pytest.raises(PermissionDenied) as refused:
            grants.check_api_base(other, "config.model.api_base")
        assert refused.value.reason == "API_BASE_NOT_ALLOWED"
        assert refused.value.fields == [("config.model.api_base", "not an allowed model endpoint")]


def test_nothing_is_allowed_by_default() -> None:
    grants = OperatorGrants.from_env({})
    with pytest.raises(PermissionDenied):
        grants.check_api_base("http://127.0.0.1:1/v1", "api_base")
    with pytest.raises(PermissionDenied):
        grants.few_shot_file(str(V1_DATA / "few_shot_data" / "MockRetailDomainEnv-few_shot.jsonl"), "path")
    with pytest.raises(PermissionDenied) as refused:
        grants.check_human_user("config.strategy")
    assert refused.value.reason == "STRATEGY_NOT_SERVED"


def test_agent_urls_and_model_endpoints_are_separate_lists(caplog: pytest.LogCaptureFixture) -> None:
    """An allowed agent never becomes a model endpoint (it would get the keys); the other way is deprecated."""
    grants = OperatorGrants.from_env(
        {ALLOWED_AGENT_URLS_ENV: "http://agent:9009/, 127.0.0.1:5000", ALLOWED_API_BASES_ENV: "http://models:1/v1"}
    )
    for agent in ("http://agent:9009", "http://agent:9009/", "127.0.0.1:5000", "grpc://127.0.0.1:5000"):
        grants.check_agent_url(agent, "participants.agent")
    with pytest.raises(PermissionDenied) as refused:
        grants.check_api_base("http://agent:9009", "config.user_api_base")
    assert refused.value.reason == "API_BASE_NOT_ALLOWED"
    for other in ("", "http://agent:9010", "http://127.0.0.1:5000", "grpc://agent:9009", "http://models:1"):
        with pytest.raises(PermissionDenied) as refused:
            grants.check_agent_url(other, "participants.agent")
        assert refused.value.reason == "AGENT_URL_NOT_ALLOWED"
        assert refused.value.fields == [("participants.agent", "not an allowed agent URL")]
    with caplog.at_level("WARNING", logger="taumesh.llm.access"):
        grants.check_agent_url("http://models:1/v1", "config.model.api_base")  # deprecated: model list only
    assert ALLOWED_AGENT_URLS_ENV in caplog.text and "deprecated" in caplog.text


def test_few_shot_paths_resolve_inside_the_allowed_directories(tmp_path: Path) -> None:
    first, second = tmp_path / "one", tmp_path / "two"
    first.mkdir()
    second.mkdir()
    grants = OperatorGrants.from_env({FEW_SHOT_DIR_ENV: f"{first}{os.pathsep}{second}"})
    assert grants.few_shot_file(str(second / "sub" / "x.jsonl"), "p") == (second / "sub" / "x.jsonl").resolve()
    for outside in (str(tmp_path / "x.jsonl"), str(first / ".." / "x.jsonl"), str(tmp_path / "one-more" / "x"), ""):
        with pytest.raises(PermissionDenied) as refused:
            grants.few_shot_file(outside, "config.few_shot_displays_path")
        assert refused.value.reason == "FEW_SHOT_PATH_NOT_ALLOWED"


def test_granted_adds_to_the_environment_for_the_block_only(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(ALLOWED_API_BASES_ENV, "http://operator/v1")
    monkeypatch.setenv(ALLOWED_AGENT_URLS_ENV, "http://operator-agent")
    with granted(OperatorGrants.of(api_bases=["http://run/v1"], agent_urls=["http://run-agent"], human_user=True)):
        inside = current_grants()
        assert inside.api_bases == {"http://operator/v1", "http://run/v1"} and inside.human_user
        assert inside.agent_urls == {"http://operator-agent", "http://run-agent"}
    after = current_grants()
    assert after.api_bases == {"http://operator/v1"} and not after.human_user
    assert after.agent_urls == {"http://operator-agent"}


def test_overlapping_blocks_each_withdraw_only_their_own_grants(monkeypatch: pytest.MonkeyPatch) -> None:
    """Concurrent group rollouts in one server open and close their blocks in any order."""
    monkeypatch.delenv(ALLOWED_API_BASES_ENV, raising=False)
    first, second = (
        granted(OperatorGrants.of(api_bases=["http://a/v1"])),
        granted(OperatorGrants.of(api_bases=["http://b/v1"])),
    )
    first.__enter__()
    second.__enter__()
    first.__exit__(None, None, None)  # the first to open closes first: the second's grant stays
    assert current_grants().api_bases == {"http://b/v1"}
    second.__exit__(None, None, None)
    assert not current_grants().api_bases


@pytest.mark.slow  # a whole taumesh run: ~5 s
def test_taumesh_run_allows_its_own_api_base_for_its_in_process_services(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fake: FakeOpenAI
) -> None:
    """The person typing ``--api-base`` is the operator of the services ``taumesh run`` starts itself."""
    monkeypatch.delenv(ALLOWED_API_BASES_ENV)  # granted by the ``fake`` fixture: here only the run grants it
    fake.reset(text("Could you give me your order id?"))
    result = invoke(
        "run", "--env", "retail", "--task-split", "test", "--task-ids", "0", "--data-dir", V1_DATA,
        "--agent-strategy", "tool-calling", "--model", "gpt-4o", "--model-provider", "openai",
        "--api-base", fake.url, "--user-strategy", "scripted", "--max-steps", "2", "--quiet",
        "--log-dir", tmp_path,
    )  # fmt: skip
    assert result.exit_code == 0, explain_result(result)
    assert fake.served, "the run's own --api-base was refused"
    [entry] = load_json(results_path(tmp_path))
    assert entry["reward"] is not None, entry["info"]
    assert not current_grants().api_bases, "the run's allowance outlived it"
