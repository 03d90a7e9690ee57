"""The retrieval configurations as domains: ``tau2-banking-knowledge:<config>`` through the registry.

For every configuration the domain serves, its policy and its agent's tool schemas equal the shared
``retrieval.jsonl`` (the shell's configurations too, with bubblewrap on the machine); every
recorded search output is what the configuration's tool returns through a session (the timing line masked);
configurations that cannot run here are refused with what they lack.
"""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from taumesh.domains import Catalog, DataError, Domain, Registry, load_domain
from taumesh.domains.tau2_banking_knowledge.configs import CONFIGS
from taumesh.domains.tau2_banking_knowledge.plugin import banking_plugin
from taumesh.domains.tau2_banking_knowledge.retrieval_tools import EMBEDDING_MODEL_ENV
from taumesh.domains.tau2_banking_knowledge.sandbox import sandbox_problem
from tests.domains.tau2_banking_knowledge.support import (
    ENV,
    FIXTURES,
    NEEDS_FIXTURES_AND_CHECKOUT,
)

pytestmark = NEEDS_FIXTURES_AND_CHECKOUT
TIMING = re.compile(r"\[Timing: retrieval=\d+ms(, reranking=\d+ms)?, total=\d+ms\]$")
SERVED = [name for name, config in CONFIGS.items() if config.offline]
"""What runs here: no model (a shell when bubblewrap is installed); golden_retrieval's taskless policy."""
PARTLY = [name for name, config in CONFIGS.items() if name not in SERVED]


@cache
def _records(kind: str) -> tuple[dict[str, Any], ...]:
    with (FIXTURES / "retrieval.jsonl").open(encoding="utf-8") as lines:
        return tuple(record for record in map(json.loads, lines) if record["record"] == kind)


def _config(name: str) -> dict[str, Any]:
    return next(record for record in _records("config") if record["config"] == name)


@pytest.fixture(scope="module")
def registry(data_dir: Path) -> Registry:
    return Registry.discover()


def _domain(registry: Registry, data_dir: Path, config: str) -> Domain:
    return load_domain(f"{ENV}:{config}", data_dir, registry)


@pytest.mark.parametrize("config", SERVED)
def test_a_served_configurations_policy_and_tools_equal_upstreams(
    registry: Registry, data_dir: Path, config: str
) -> None:
    domain = _domain(registry, data_dir, config)
    recorded = _config(config)
    assert domain.policy == recorded["policy"]
    assert domain.tool_schemas == recorded["agent_tools"]
    assert domain.user_tool_schemas == recorded["user_tools"]


def test_the_plain_name_serves_upstreams_default_alltools(registry: Registry, data_dir: Path) -> None:
    """Its prompt and tools are AllTools' as upstream records them, whether or not it can run here."""
    plain = registry.get(ENV)
    domain = Domain(plain, plain.data_dir(data_dir))
    recorded = _config("alltools")
    assert (domain.policy, domain.tool_schemas) == (recorded["policy"], recorded["agent_tools"])
    assert ENV in registry.names()
    assert f"{ENV}:bm25" not in registry.names()  # variants are asked for, not listed


def test_the_plain_name_is_refused_on_load_without_an_embedding_model_yet_listed(
    data_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(EMBEDDING_MODEL_ENV, raising=False)
    registry = Registry.discover()
    lacking = "bubblewrap" if sandbox_problem() is not None else EMBEDDING_MODEL_ENV  # the sandbox is named first
    with pytest.raises(DataError, match=rf"retrieval config 'alltools' .*{lacking}"):
        load_domain(ENV, data_dir, registry)
    assert ENV in Catalog(data_dir, registry).names()
    assert registry.get(ENV).run_problem() is not None


def _serving(registry: Registry, data_dir: Path, configs: list[str]) -> Domain:
    """A configuration of ``configs`` as a domain: a served one by name, else AllTools' as it is built."""
    served = [config for config in configs if config in SERVED]
    if served:
        return _domain(registry, data_dir, served[0])
    assert "alltools" in configs, configs
    return Domain(banking_plugin(f"{ENV}:alltools", "alltools"), _domain(registry, data_dir, "no_knowledge").root)


def test_every_recorded_search_output_comes_out_of_its_configurations_tool(registry: Registry, data_dir: Path) -> None:
    outputs = _records("tool_output")
    for record in outputs:
        domain = _serving(registry, data_dir, record["configs"])
        session = domain.open_session(domain.task("base", 0))
        result = domain.call_tool(session, record["tool"], record["arguments"])
        assert TIMING.sub("", result.observation) == TIMING.sub("", record["output"]), record["call_index"]
        assert not result.error
    assert len(outputs) == 122


@pytest.mark.parametrize("config", PARTLY)
def test_a_configuration_that_cannot_run_here_says_what_it_lacks(
    registry: Registry, data_dir: Path, config: str
) -> None:
    with pytest.raises(DataError) as refused:
        _domain(registry, data_dir, config)
    assert any(word in str(refused.value) for word in ("sandboxed shell", "reranker", "embedding"))


def test_an_unknown_configuration_lists_the_known_ones(registry: Registry, data_dir: Path) -> None:
    with pytest.raises(KeyError) as unknown:
        _domain(registry, data_dir, "nope")
    assert f"{ENV}:bm25_grep" in str(unknown.value)


DENSE = [name for name, config in CONFIGS.items() if config.needs == [f"an embedding model ({EMBEDDING_MODEL_ENV})"]]


@pytest.mark.parametrize("config", DENSE)
def test_an_embedding_configurations_policy_and_tools_equal_upstreams_given_a_model(
    registry: Registry, data_dir: Path, config: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(EMBEDDING_MODEL_ENV, "openai/text-embedding-3-large")
    domain = _domain(registry, data_dir, config)  # the registry keeps no refusal: whether it runs is asked on load
    recorded = _config(config)
    assert domain.policy == recorded["policy"]
    assert domain.tool_schemas == recorded["agent_tools"]


@pytest.mark.parametrize("config", ["alltools", "alltools-qwen", "terminal_use", "bm25_reranker_grep"])
def test_a_partly_runnable_configuration_has_upstreams_policy_and_tools(
    registry: Registry, data_dir: Path, config: str
) -> None:
    """What taumesh builds of the configurations it may refuse (no model, no bwrap): upstream's policy and tools."""
    domain = Domain(banking_plugin(f"{ENV}:{config}", config), _domain(registry, data_dir, "no_knowledge").root)
    recorded = _config(config)
    assert domain.policy == recorded["policy"]
    assert domain.tool_schemas == recorded["agent_tools"]
