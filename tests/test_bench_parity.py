"""The parity bench's parts that need no real model: its proxy records, then replays what matches, over real HTTP,
and its comparison names the first request that differs, per role. The bench itself needs a τ-bench checkout and a
real model (bench/parity_taubench.py; docs/performance.md has its results)."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from taumesh.testing.processes import ServerProcess
from tests.helpers.bench import BENCH, load_bench
from tests.helpers.fake_model import FakeOpenAI, in_turn, text

TOOLS = [{"type": "function", "function": {"name": "find_user", "parameters": {"type": "object", "properties": {}}}}]


def _agent(*said: str) -> dict[str, Any]:
    messages = [{"role": "system", "content": "policy"}, *({"role": "user", "content": s} for s in said)]
    return {"model": "m", "messages": messages, "tools": TOOLS, "temperature": 0}


def _user(said: str) -> dict[str, Any]:
    return {
        "model": "m",
        "messages": [{"role": "system", "content": "You are a user."}, {"role": "user", "content": said}],
    }


@pytest.fixture
def model() -> Iterator[FakeOpenAI]:
    with FakeOpenAI(in_turn(text("one"), text("two"), text("three"), text("four"))) as server:
        yield server


def _proxy(upstream: str, record: Path, replay: Path | None, tmp_path: Path) -> ServerProcess:
    argv = [sys.executable, str(BENCH / "_parity_proxy.py"), "--upstream", upstream, "--record", str(record)]
    process = ServerProcess.spawn(
        [*argv, *(["--replay", str(replay)] if replay else [])], tmp_path / f"{record.stem}.log"
    )
    return process.wait_ready(r"serving (?P<address>http://\S+)", timeout=60)


def _ask(url: str, body: dict[str, Any]) -> str:
    answer = httpx.post(f"{url}/chat/completions", json=body, timeout=30).json()
    return str(answer["choices"][0]["message"]["content"])


def test_the_proxy_replays_what_matches_and_the_comparison_names_the_first_difference(
    model: FakeOpenAI, tmp_path: Path
) -> None:
    first, second = tmp_path / "taubench.jsonl", tmp_path / "taumesh.jsonl"
    recording = _proxy(model.url, first, None, tmp_path)
    try:
        said = [_ask(recording.address, body) for body in (_agent("hi"), _user("start"), _agent("hi", "more"))]
    finally:
        recording.stop(timeout=10)
    assert said == ["one", "two", "three"] and len(model.requests) == 3

    replaying = _proxy(model.url, second, first, tmp_path)
    try:
        again = [_ask(replaying.address, body) for body in (_agent("hi"), _user("begin"), _agent("hi", "more"))]
    finally:
        replaying.stop(timeout=10)
    assert again == ["one", "four", "three"]  # the user's request differed: only it reached the model
    assert len(model.requests) == 4

    parity = load_bench("parity_taubench")
    roles = {role.role: role for role in parity.compare_requests(first, second)}
    assert (roles["agent"].matched, roles["agent"].first_difference) == (2, None)
    found = roles["user"].first_difference
    assert roles["user"].matched == 0 and found is not None
    assert (found["request"], found["field"], found["taubench"], found["taumesh"]) == (
        "0",
        ".messages[1].content",
        "start",
        "begin",
    )
    assert "conversation handed back" in found["why"]


def test_first_difference_walks_keys_lists_and_lengths() -> None:
    parity = load_bench("parity_taubench")
    assert parity.first_difference({"a": [1, 2]}, {"a": [1, 2]}) is None
    assert parity.first_difference({"a": [1, 2]}, {"a": [1, 3]}) == (".a[1]", 2, 3)
    assert parity.first_difference({"a": [1]}, {"a": [1, 2]}) == (".a (length)", 1, 2)
    assert parity.first_difference({"t": 0}, {"t": 0, "n": 5}) == (".n", "(absent)", 5)


def _entry(role: str, body: dict[str, Any]) -> str:
    return json.dumps({"role": role, "index": 0, "request": body, "response": {}})


def test_the_comparison_passes_over_requests_only_taubench_sent_and_fields_providers_ignore(tmp_path: Path) -> None:
    """τ-bench's user asks the model when it is constructed (no instruction yet); litellm's message fields go back."""
    with_field = _agent("hi")
    with_field["messages"][1]["provider_specific_fields"] = {"refusal": None}
    taubench, taumesh = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    taubench.write_text("\n".join([_entry("user", _user("no instruction")), _entry("user", _user("go")),
                                   _entry("agent", with_field)]), encoding="utf-8")  # fmt: skip
    taumesh.write_text("\n".join([_entry("user", _user("go")), _entry("agent", _agent("hi"))]), encoding="utf-8")
    roles = {role.role: role for role in load_bench("parity_taubench").compare_requests(taubench, taumesh)}
    assert (roles["user"].matched, roles["user"].only_taubench, roles["user"].first_difference) == (1, 1, None)
    assert (roles["agent"].matched, roles["agent"].ignored_fields, roles["agent"].first_difference) == (1, 1, None)
