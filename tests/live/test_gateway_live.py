"""The live tier's model gateway: llama.cpp's server behind ``taumesh serve gateway``'s app, one rollout of τ²'s mock
domain with the tool-calling agent, and each agent call recorded with its token ids and log-probabilities.

llama.cpp reports completion token ids (``logprobs.content[].id``) but no prompt ids, so each trace's loss mask is
all 1s (docs/gateway.md). The model's answers are not asserted: a 1.5B model's episode may end anywhere.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from taumesh.domains import Catalog
from taumesh.gateway import GATEWAY_KEY_ENV
from taumesh.llm.access import ALLOWED_API_BASES_ENV
from taumesh.rollout import group_rollouts
from tests.gateway.servers import running_gateway
from tests.live.conftest import MODEL_NAME, MODEL_TIMEOUT, LiveServer

KEY = "live-gateway-key-0123456789abcdef"


def test_gateway_records_llama_cpp_token_ids_and_logprobs_for_each_agent_call(
    live_server: LiveServer, tmp_path: Path, tau2_data: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    live_server.warm(Catalog(tau2_data), "tau2-mock")
    with running_gateway(live_server.url, tmp_path / "traces", KEY, timeout=MODEL_TIMEOUT) as url:
        monkeypatch.setenv(GATEWAY_KEY_ENV, KEY)
        monkeypatch.setenv(ALLOWED_API_BASES_ENV, url)
        monkeypatch.setenv("OPENAI_API_KEY", "sk-live-not-sent-past-the-gateway")
        (episode,) = group_rollouts(
            env="tau2-mock",
            task_ids=[0],
            trials=1,
            agent_strategy="tool-calling",
            user_strategy="scripted",
            model=MODEL_NAME,
            gateway=url,
            max_steps=4,
            seed=1,
        )
    assert episode.error is None, episode.error
    assert 1 <= len(episode.traces) == episode.info["agent_usage"]["calls"]
    for index, trace in enumerate(episode.traces):
        assert trace.index == index and trace.rollout_id == episode.rollout_id
        assert trace.completion_token_ids and len(trace.completion_logprobs) == len(trace.completion_token_ids)
        assert all(logprob <= 0.0 for logprob in trace.completion_logprobs)
        assert trace.loss_mask == [0] * len(trace.prompt_token_ids) + [1] * len(trace.completion_token_ids)
        assert trace.response["choices"][0].get("logprobs") is None  # the agent asked for none, and saw none
