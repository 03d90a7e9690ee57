"""τ² has no terminate tool; the transfer's message and the user's cue are read from τ²'s own texts."""

from __future__ import annotations

import pytest

from taumesh.domains import Catalog, Registry
from taumesh.domains.tau2 import (
    TRANSFER_TOKEN,
    TRANSFER_TOOL,
    DatasetMissing,
    Tau2Plugin,
    announces_transfer,
    require,
    transfer_announcement,
)
from taumesh.domains.tau2._transfer import FALLBACK_ANNOUNCEMENT
from taumesh.models import USER_STOP_TOKENS
from tests.helpers.tau2 import tau2_domain


def test_tau2_domains_declare_no_terminate_tool_and_v1_keeps_its_own() -> None:
    registry = Registry.discover()
    plugins = {name: registry.get(name) for name in registry.names()}
    tau2 = {name for name, plugin in plugins.items() if isinstance(plugin, Tau2Plugin)}
    assert {"tau2-mock", "tau2-airline", "tau2-retail", "tau2-telecom", "tau2-telecom-workflow"} <= tau2
    assert all(plugins[name].terminate_tools == frozenset() for name in tau2)
    assert plugins["retail"].terminate_tools == plugins["airline"].terminate_tools == {TRANSFER_TOOL}


def test_the_transfer_tool_answers_and_the_session_goes_on() -> None:
    try:
        require()
    except DatasetMissing as exc:
        pytest.skip(f"τ² data not fetched: {exc}")
    domain = tau2_domain("retail")
    session = domain.plugin.open_session(domain, domain.tasks("base")[0])
    result = domain.plugin.call_tool(session, TRANSFER_TOOL, {"summary": "needs a human"})
    assert (result.observation, result.done, result.error) == ("Transfer successful", False, False)


@pytest.mark.parametrize("source_name", ["airline", "retail", "telecom"])
def test_the_announcement_is_the_one_the_policy_names(source_name: str) -> None:
    try:
        require()
    except DatasetMissing as exc:
        pytest.skip(f"τ² data not fetched: {exc}")
    policy = Catalog(".").get(f"tau2-{source_name}").policy
    announcement = transfer_announcement(policy)
    assert f"then send the message '{announcement}' to the user." in policy
    assert announces_transfer(announcement)


def test_a_policy_without_one_gets_a_plain_announcement() -> None:
    assert transfer_announcement("# Mock Domain Policy\n4. You should transfer the a human agent.") == (
        FALLBACK_ANNOUNCEMENT
    )
    assert announces_transfer(FALLBACK_ANNOUNCEMENT)


@pytest.mark.parametrize(
    ("said", "announces"),
    [
        ("I'm transferring you to a human agent now.", True),
        ("You have been transferred to a Human representative.", True),
        ("Your refund will be transferred to your card.", False),
        ("I cannot transfer you; a human would say the same.", False),
        ("Is there anything else I can help you with?", False),
    ],
)
def test_what_counts_as_telling_the_user_of_a_transfer(said: str, announces: bool) -> None:
    assert announces_transfer(said) is announces


def test_the_transfer_token_is_a_user_stop() -> None:
    assert TRANSFER_TOKEN in USER_STOP_TOKENS
