"""The model gateway through the real path: litellm's HTTP call from the tool-calling agent, the gateway on
loopback, a backend reporting token ids and log-probabilities (issue 48's first must-show).

One group of 8 rollouts of one hospitality task, with the scripted user, plays once for the module through the
gateway (``gateway=URL``); the other tests speak HTTP to the same gateway.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from taumesh.domains import load_domain
from taumesh.gateway import GATEWAY_KEY_ENV, ROLLOUT_HEADER, sign_rollout
from taumesh.llm.access import ALLOWED_API_BASES_ENV
from taumesh.orchestrator.options import RunOptions
from taumesh.rollout import RolloutEpisode, group_rollouts
from tests.gateway.servers import TokenBackend, running_gateway

KEY = "test-gateway-key-0123456789abcdef"
ENV, SPLIT, TRIALS = "hospitality", "base", 8


@pytest.fixture(scope="module")
def backend() -> Iterator[TokenBackend]:
    with TokenBackend("vllm") as server:
        yield server


@pytest.fixture(scope="module")
def traces(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("traces")


@pytest.fixture(scope="module")
def gateway(backend: TokenBackend, traces: Path) -> Iterator[str]:
    with running_gateway(backend.url, traces, KEY) as url, pytest.MonkeyPatch.context() as patch:
        patch.setenv(GATEWAY_KEY_ENV, KEY)
        patch.delenv(ALLOWED_API_BASES_ENV, raising=False)  # the rollout grants its own --gateway, as taumesh run does
        patch.setenv("OPENAI_API_KEY", "sk-not-sent-past-the-gateway")
        yield url


@pytest.fixture(scope="module")
def group(gateway: str, backend: TokenBackend) -> list[RolloutEpisode]:
    task_id = load_domain(ENV, Path()).tasks(SPLIT)[0].id
    episodes = group_rollouts(
        env=ENV,
        task_split=SPLIT,
        task_ids=[task_id],
        trials=TRIALS,
        agent_strategy="tool-calling",
        user_strategy="scripted",
        model="openai/policy",
        gateway=gateway,
        seed=3,
    )
    return episodes


def test_every_agent_call_of_a_group_of_8_is_recorded_with_its_tokens_and_joined_to_its_episode(
    group: list[RolloutEpisode], backend: TokenBackend
) -> None:
    assert len(group) == TRIALS and all(e.error is None for e in group)
    assert len({e.rollout_id for e in group}) == TRIALS
    for episode in group:
        assert episode.rollout_id == episode.info["rollout_id"] == episode.info["episode_id"]
        calls = episode.info["agent_usage"]["calls"]
        assert calls >= 2 and len(episode.traces) == calls  # a tool call, then the answer to the user
        said = json.dumps(episode.trajectory)
        for index, trace in enumerate(episode.traces):
            assert (trace.rollout_id, trace.index, trace.model) == (episode.rollout_id, index, "policy")
            assert trace.prompt_token_ids and len(trace.completion_token_ids) == 4
            assert trace.completion_logprobs == [-0.5, -0.25, -0.5 / 3, -0.125]
            assert trace.loss_mask == [0] * len(trace.prompt_token_ids) + [1] * 4
            message = trace.response["choices"][0]["message"]
            # joined to the right episode: what this call answered is in this episode's trajectory
            if message.get("tool_calls"):
                assert message["tool_calls"][0]["id"] in said
            else:
                assert message["content"] in said
            assert trace.request["messages"][-1]["role"] in ("user", "tool")
            # the caller saw no token data it did not ask for
            assert "token_ids" not in trace.response["choices"][0] and "prompt_token_ids" not in trace.response
            assert trace.response["choices"][0]["logprobs"] is None
    # every agent call reached the backend once, asked for token data, and without the caller's headers
    assert len(backend.seen) == sum(len(e.traces) for e in group)
    assert all(s.body["logprobs"] is True and s.body["return_token_ids"] is True for s in backend.seen)
    assert not any(ROLLOUT_HEADER.lower() in s.headers or "authorization" in s.headers for s in backend.seen)


def test_a_missing_or_forged_signature_gets_401_and_nothing_is_recorded(
    group: list[RolloutEpisode], gateway: str, backend: TokenBackend, traces: Path
) -> None:
    before, files = len(backend.seen), sorted(p.name for p in traces.iterdir())
    body = {"model": "policy", "messages": [{"role": "user", "content": "hi"}]}
    forged = sign_rollout(b"another-key-0123456789", "stolen")
    for headers in ({}, {ROLLOUT_HEADER: forged}, {ROLLOUT_HEADER: "stolen.00"}, {ROLLOUT_HEADER: "../x.ab"}):
        answer = httpx.post(f"{gateway}/chat/completions", json=body, headers=headers)
        assert answer.status_code == 401, headers
        assert ROLLOUT_HEADER in answer.json()["error"]["message"]
    assert len(backend.seen) == before and sorted(p.name for p in traces.iterdir()) == files
    # a rollout's traces are read with its own signature only
    rollout_id = group[0].rollout_id
    assert httpx.get(f"{gateway}/rollouts/{rollout_id}/traces").status_code == 401
    other = {ROLLOUT_HEADER: sign_rollout(KEY.encode(), group[1].rollout_id)}
    assert httpx.get(f"{gateway}/rollouts/{rollout_id}/traces", headers=other).status_code == 401


def test_a_request_chooses_neither_the_backend_nor_the_store(gateway: str, backend: TokenBackend, traces: Path) -> None:
    with TokenBackend("vllm") as decoy:
        token = sign_rollout(KEY.encode(), "probe")
        body = {
            "model": "policy",
            "messages": [{"role": "user", "content": "hi"}],
            "api_base": decoy.url,
            "base_url": decoy.url,
            "traces": "/tmp",
        }
        headers = {ROLLOUT_HEADER: token, "X-Forwarded-Host": "evil.example", "Host": "evil.example"}
        answer = httpx.post(f"{gateway}/chat/completions", json=body, headers=headers)
        assert answer.status_code == 200
        assert not decoy.seen and backend.seen[-1].body["api_base"] == decoy.url  # forwarded as data, to ours
    assert (traces / "probe.jsonl").exists() and not Path("/tmp/probe.jsonl").exists()
    for bad in ("..%2F..%2Fetc%2Fpasswd", "a.b", "x" * 129):
        answer = httpx.get(f"{gateway}/rollouts/{bad}/traces", headers={ROLLOUT_HEADER: token})
        assert answer.status_code in (400, 404), bad


def test_streaming_is_refused_and_a_callers_own_logprobs_are_kept(gateway: str, backend: TokenBackend) -> None:
    headers = {ROLLOUT_HEADER: sign_rollout(KEY.encode(), "own-logprobs")}
    body = {"model": "policy", "messages": [{"role": "user", "content": "hi"}]}
    refused = httpx.post(f"{gateway}/chat/completions", json={**body, "stream": True}, headers=headers)
    assert refused.status_code == 400 and "stream" in refused.json()["error"]["message"]
    answer = httpx.post(f"{gateway}/chat/completions", json={**body, "logprobs": True}, headers=headers)
    choice = answer.json()["choices"][0]
    assert len(choice["logprobs"]["content"]) == 4 and "token_ids" not in choice
    got = httpx.get(f"{gateway}/rollouts/own-logprobs/traces", headers=headers).json()["traces"]
    assert [t["index"] for t in got] == [0] and got[0]["request"]["logprobs"] is True


def test_llama_cpp_token_ids_and_unattributed_calls(tmp_path: Path) -> None:
    with (
        TokenBackend("llama.cpp") as llama,
        running_gateway(llama.url, tmp_path, KEY, allow_unattributed=True) as url,
    ):
        body = {"model": "qwen", "messages": [{"role": "user", "content": "hi"}]}
        answer = httpx.post(f"{url}/chat/completions", json=body, headers={"X-Taumesh-Weight-Version": "step-7"})
        assert answer.status_code == 200 and answer.json()["choices"][0]["logprobs"] is None
        token = sign_rollout(KEY.encode(), "unattributed")
        (trace,) = httpx.get(f"{url}/rollouts/unattributed/traces", headers={ROLLOUT_HEADER: token}).json()["traces"]
    assert trace["completion_token_ids"] == [0, 1, 2, 3] and trace["prompt_token_ids"] == []  # llama.cpp: no prompt
    assert trace["loss_mask"] == [1, 1, 1, 1] and trace["weight_version"] == "step-7"


def test_a_run_with_a_gateway_needs_its_key_and_no_api_base(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(GATEWAY_KEY_ENV, raising=False)
    with pytest.raises(ValueError, match=GATEWAY_KEY_ENV):
        RunOptions(env=ENV, gateway="http://127.0.0.1:9/v1")
    monkeypatch.setenv(GATEWAY_KEY_ENV, KEY)
    with pytest.raises(ValueError, match="not both"):
        RunOptions(env=ENV, gateway="http://127.0.0.1:9/v1", api_base="http://127.0.0.1:8/v1")
    config = RunOptions(env=ENV, gateway="http://127.0.0.1:9/v1").run_config()
    assert config.agent.model.api_base == "http://127.0.0.1:9/v1" and config.user.model.api_base == ""
    assert config.rollout_token("abc") == sign_rollout(KEY.encode(), "abc")
    plain = RunOptions(env=ENV).run_config()  # upstream: no token, nothing new in the dump
    assert plain.rollout_token("abc") == "" and "gateway" not in plain.model_dump()
