"""Whether a strategy calls a model is declared once, by its class, and every lookup by name reads that declaration."""

from __future__ import annotations

import pytest

from taumesh.services.agent import strategies as agents
from taumesh.services.strategy_classes import registered_class
from taumesh.services.user_sim import strategies as users

OFFLINE_AGENTS = {"oracle", "null", "dialogflow-cx", "decibel", "a2a"}
"""Agents whose model settings name no model of the run's (a2a's names the transport to an agent of its own)."""
OFFLINE_USERS = {"scripted", "human"}


REGISTERED = [
    *((f"agent {name}", registered_class(agents.STRATEGIES, name)) for name in agents.STRATEGIES),
    *((f"user {name}", registered_class(users.STRATEGIES, name)) for name in users.STRATEGIES),
]


@pytest.mark.parametrize(("name", "cls"), REGISTERED)
def test_every_registered_strategy_class_declares_whether_it_calls_a_model(name: str, cls: type) -> None:
    declared = [vars(klass)["calls_model"] for klass in cls.__mro__ if "calls_model" in vars(klass)]
    assert declared and isinstance(declared[0], bool), f"{name}: {cls.__qualname__} declares no calls_model"


def test_the_strategies_that_call_no_model() -> None:
    assert {n for n in agents.STRATEGIES if not agents.calls_model(n)} == OFFLINE_AGENTS
    assert {n for n in users.STRATEGIES if not users.calls_model(n)} == OFFLINE_USERS


def test_a_name_no_registry_holds_is_taken_to_call_a_model() -> None:
    """An external agent's or a remote service's strategy: nothing here can vouch that it calls none."""
    assert agents.calls_model("someone-elses-agent") and users.calls_model("someone-elses-user")
