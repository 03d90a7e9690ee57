"""Every domain built on the factory meets τ++'s bar (issue 43), read through the public contract alone.

One parametrised test per part of the bar, over every factory domain the registry finds (healthcare and τ++'s):

- **size**: 5 tables and 300 records or more; a policy of 1,200 words or more in numbered clauses; 15 assistant tools
  or more, reading and writing;
- **tasks**: 60 or more over 8 intents or more, a quarter or more traps (each with its rationale and forbidden
  write), every tier, a median of 4 gold actions or more, a tenth or more under dual control, every task's metadata;
  train and test touch no common entity;
- **validity**: every gold replays and every forbidden write leaves the allowed states; the gold cut short, perturbed,
  silent or with a forbidden write scores 0, and every allowed outcome 1.0 (the audit's ``non_unique``), in process on
  every task; the audit, through the env and scorer, flags no task of the test split and holds the floors; the oracle
  with the scripted user scores 1.0 over the real services on a sample of every intent (healthcare's audit, on every
  split, and its oracle run, on every task, are tests/domains/healthcare/test_v2.py's: not repeated here);
- **distinct**: no two of these domains share a task, policy sentences, tools or a table;
- **front doors**: the REST API lists and pages every one, the viewer labels its tasks (intent, tier, trap, dual
  control), and the Gym plays a task of each to 1.0.
"""

from __future__ import annotations

import asyncio
import copy
import functools
import json
import re
import statistics
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import gymnasium as gym
import httpx
import pytest

from taumesh.audit import overlaps
from taumesh.commands.domain_distinct import surface
from taumesh.domains import Action, Catalog, Domain, Registry, Session, check_domain
from taumesh.domains.factory import (
    FactoryPlugin,
    FactoryTask,
    clause_texts,
    oracle_says,
    outcome_score,
    verify_task,
)
from taumesh.orchestrator.audit import audit_domain
from taumesh.orchestrator.gym import AGENT_ENV_ID
from taumesh.orchestrator.run.stack import ServiceTargets
from taumesh.viewer.labels import task_labels
from tests.helpers.api_thread import start_thread_server
from tests.helpers.cli import ORACLE, explain_result, invoke, load_json, results_path
from tests.helpers.paths import PROJECT_ROOT
from tests.helpers.service_stack import address_flags, addresses, shared_services

MIN_TABLES, MIN_RECORDS, MIN_POLICY_WORDS, MIN_AGENT_TOOLS = 5, 300, 1_200, 15
MIN_TASKS, MIN_INTENTS, MIN_TRAP_SHARE, MIN_MEDIAN_GOLD, MIN_DUAL_SHARE = 60, 8, 0.25, 4, 0.10
FLOOR_IDENTITY_THEN_REFUSE, FLOOR_OUTPUTS_SPAM = 0.05, 0.02
FACTORY = sorted(name for name, plugin in Registry.discover().plugins.items() if isinstance(plugin, FactoryPlugin))
"""The registered domains built on the factory (the registry's, so a new one is tested as soon as it registers)."""


@functools.cache
def _domain(name: str) -> Domain:
    return Catalog(Path("unused")).get(name)


def _tasks(name: str, split: str = "base") -> list[FactoryTask]:
    tasks = _domain(name).tasks(split)
    assert all(isinstance(task, FactoryTask) for task in tasks), f"{name}: every task is a FactoryTask"
    return [task for task in tasks if isinstance(task, FactoryTask)]


def _plugin(name: str) -> FactoryPlugin:
    plugin = _domain(name).plugin
    assert isinstance(plugin, FactoryPlugin)
    return plugin


def test_the_factory_domains_are_registered() -> None:
    assert {"healthcare", "insurance", "loans", "hospitality", "real-estate", "events", "fitness"} <= set(FACTORY)
    assert {"hr", "sales", "advertising", "accounting", "finance", "legal"} <= set(FACTORY)
    assert {"logistics", "manufacturing", "construction", "agriculture", "pharmaceuticals", "space"} <= set(FACTORY)
    assert {"cybersecurity", "data-science", "web-automation", "education", "engineering"} <= set(FACTORY)


@pytest.mark.parametrize("name", FACTORY)
def test_world_policy_and_tools_meet_the_bar(name: str) -> None:
    domain = _domain(name)
    tables = {table: records for table, records in domain.base_data.items() if records}
    assert len(tables) >= MIN_TABLES and sum(map(len, tables.values())) >= MIN_RECORDS, {
        table: len(records) for table, records in tables.items()
    }
    words = len(re.findall(r"\w+", domain.policy))
    clauses = clause_texts(domain.policy)
    assert words >= MIN_POLICY_WORDS and len(clauses) >= 20, (words, len(clauses))
    agent = [tool for tool in domain.tools if tool.side == "assistant"]
    assert len(agent) >= MIN_AGENT_TOOLS, [tool.name for tool in agent]
    assert any(tool.writes for tool in agent) and any(not tool.writes for tool in agent)
    assert domain.plugin.identity_tools, "the identity tools are declared (the identity-then-refuse floor)"
    assert domain.data_release and domain.data_release.startswith(name)
    cited = {clause for task in _tasks(name) for clause in task.clauses}
    assert cited and cited <= set(clauses), sorted(cited - set(clauses))


@pytest.mark.parametrize("name", FACTORY)
def test_tasks_meet_the_bar(name: str) -> None:
    tasks = _tasks(name)
    intents = Counter(task.intent for task in tasks)
    assert len(tasks) >= MIN_TASKS and len(intents) >= MIN_INTENTS, intents
    traps = [task for task in tasks if task.trap]
    assert len(traps) >= MIN_TRAP_SHARE * len(tasks), f"{len(traps)} traps of {len(tasks)}"
    assert all(task.trap_rationale and task.forbidden for task in traps)
    assert {task.tier for task in tasks} == {"easy", "medium", "hard"}
    assert statistics.median(len(task.actions) for task in tasks) >= MIN_MEDIAN_GOLD
    dual = [task for task in tasks if task.dual_control]
    assert len(dual) >= MIN_DUAL_SHARE * len(tasks), f"{len(dual)} dual-control tasks of {len(tasks)}"
    assert all(any(a.requestor == "user" for a in task.actions) for task in dual)
    assert all(task.clauses and task.solver and task.intent for task in tasks)
    assert {task.id for task in _tasks(name, "train")} | {task.id for task in _tasks(name, "test")} == {
        task.id for task in tasks
    }


def _changed(domain: Domain, actions: list[Action]) -> set[tuple[str, str]]:
    """The records of the base data ``actions`` change (a record they add has the next free id, in any split)."""
    session = Session(domain)
    for action in actions:
        session.call(action.name, copy.deepcopy(action.kwargs), action.requestor)
    base = domain.base_data
    return {
        (table, key)
        for table, records in session.data.items()
        for key, record in records.items()
        if key in base[table] and base[table][key] != record
    }


def _touched(domain: Domain, task: FactoryTask) -> set[tuple[str, str]]:
    """The entities a task touches: its user, and the records any allowed outcome or forbidden write changes."""
    found = {("user", task.user_id)}
    for actions in [*task.outcomes(), *([*task.actions, write] for write in task.forbidden)]:
        found |= _changed(domain, actions)
    return found


@pytest.mark.parametrize("name", FACTORY)
def test_train_and_test_touch_no_common_entity(name: str) -> None:
    domain = _domain(name)
    train = set().union(*(_touched(domain, task) for task in _tasks(name, "train")))
    test = set().union(*(_touched(domain, task) for task in _tasks(name, "test")))
    assert _tasks(name, "test") and not train & test, sorted(train & test)[:10]


@pytest.mark.parametrize("name", FACTORY)
def test_every_gold_replays_and_every_forbidden_write_leaves_the_allowed_states(name: str) -> None:
    """``check`` replays train's and test's golds; base holds exactly their tasks (each base task equals its copy in
    train or test, so replaying base too would replay every gold twice)."""
    domain = _domain(name)
    split_copies = {task.id: task for split in ("train", "test") for task in _tasks(name, split)}
    assert {task.id: task for task in _tasks(name)} == split_copies
    assert check_domain(domain, ["train", "test"]).ok
    identity = domain.plugin.identity_tools or frozenset()
    problems = {task.id: verify_task(domain, task, identity) for task in _tasks(name)}
    assert {task_id: found for task_id, found in problems.items() if found} == {}


def _other(value: Any) -> Any:
    """Another value of the same kind: a number plus one, a flag flipped, a list shortened (or its item changed)."""
    if isinstance(value, bool):
        return not value
    if isinstance(value, int | float):
        return value + 1
    if isinstance(value, list):
        return value[:-1] if len(value) > 1 else [_other(item) for item in value]
    return f"{value}x"


def _perturbed(action: Action) -> Action:
    """``action`` with its last argument changed."""
    kwargs: dict[str, Any] = copy.deepcopy(action.kwargs)
    key = list(kwargs)[-1]
    kwargs[key] = _other(kwargs[key])
    return action.model_copy(update={"kwargs": kwargs})


@pytest.mark.parametrize("name", FACTORY)
def test_the_gold_cut_perturbed_silent_or_with_a_forbidden_write_scores_zero(name: str) -> None:
    domain = _domain(name)
    identity = domain.plugin.identity_tools or frozenset()
    writing = {tool.name for tool in domain.tools if tool.writes}
    scored: dict[str, float] = {}
    for task in _tasks(name):
        gold = list(task.actions)
        says = oracle_says(task)  # the gold itself scores 1.0: its first allowed outcome (test_every_allowed_...)
        writes = [
            i
            for i, a in enumerate(gold)
            if a.requestor == "assistant" and a.name in writing and a.name not in identity and a.kwargs
        ]
        variants: dict[str, tuple[list[Action], str]] = {}
        if writes:
            at = writes[-1]
            variants["write cut"] = ([*gold[:at], *gold[at + 1 :]], says)
            variants["write perturbed"] = ([*gold[:at], _perturbed(gold[at]), *gold[at + 1 :]], says)
        if task.statements:
            variants["silent"] = (gold, "")
        verified = max((i + 1 for i, a in enumerate(gold) if a.name in identity), default=0)
        for forbidden in task.forbidden:
            variants[f"forbidden {forbidden.name}"] = ([*gold[:verified], forbidden, *gold[verified:]], says)
        assert variants, f"{task.id}: nothing to cut, perturb, silence or forbid"
        for kind, (actions, text) in variants.items():
            scored[f"{task.id} {kind}"] = outcome_score(domain.plugin, domain, task, actions, text)
    assert {variant: reward for variant, reward in scored.items() if reward != 0.0} == {}


@pytest.mark.parametrize("name", FACTORY)
def test_every_allowed_outcome_scores_one(name: str) -> None:
    """What the audit's ``non_unique`` flag checks, on every task in process: any outcome the policy allows passes."""
    domain = _domain(name)
    scores = {}
    for task in _tasks(name):
        outcomes = list(task.outcomes())
        assert outcomes[0] == list(task.actions), f"{task.id}: the gold is the first allowed outcome"
        for n, outcome in enumerate(outcomes):
            scores[f"{task.id} outcome {n}"] = outcome_score(domain.plugin, domain, task, outcome)
    failing = [f"{outcome}: {reward:g}" for outcome, reward in scores.items() if reward != 1.0]
    assert failing == []


@pytest.fixture(scope="module")
def services() -> Iterator[ServiceTargets]:
    """One stack for the module's audits and oracle runs (a stack each loaded the domain into its services again:
    ~0.2 s of CPU a domain, twice over 23 domains)."""
    with shared_services() as running:
        yield running


@pytest.mark.parametrize("name", [name for name in FACTORY if name != "healthcare"])
def test_the_audit_flags_no_task_and_the_floors_hold(name: str, services: ServiceTargets) -> None:
    """On the test split, through the env and scorer (``domain check NAME --strict`` audits every split: CI's time
    allows one; the in-process checks above cover every task). Healthcare's every split, with these same floors:
    tests/domains/healthcare/test_v2.py."""
    report = asyncio.run(audit_domain(name, "test", Path("unused"), addresses=addresses(services)))
    assert report.data_release == _domain(name).data_release
    assert [(t.task_id, t.flags) for t in report.tasks if t.flags] == []
    floors = report.floors
    assert floors["null"].passed == [], floors["null"].passed
    assert len(floors["identity_then_refuse"].passed) <= FLOOR_IDENTITY_THEN_REFUSE * floors["null"].of
    assert len(floors["outputs_spam"].passed) <= FLOOR_OUTPUTS_SPAM * floors["null"].of


def _sample(name: str) -> list[FactoryTask]:
    """A task of each intent from each split's worlds: the first and last of the intent's tasks in base."""
    by_intent: dict[str, list[FactoryTask]] = {}
    for task in _tasks(name):
        by_intent.setdefault(task.intent, []).append(task)
    return [task for tasks in by_intent.values() for task in {tasks[0].id: tasks[0], tasks[-1].id: tasks[-1]}.values()]


@pytest.mark.parametrize("name", [name for name in FACTORY if name != "healthcare"])
def test_the_oracle_scores_one_over_the_services(name: str, services: ServiceTargets, tmp_path: Path) -> None:
    """A sample (:func:`_sample`) in CI; ``taumesh run --env NAME --task-split base`` with the oracle plays them all.
    Healthcare's every base task: tests/domains/healthcare/test_v2.py (``oracle_results``)."""
    sample = _sample(name)
    ids = [task.id for task in sample]
    run = ("run", "--env", name, "--task-split", "base", "--task-ids", *ids, *ORACLE, "--max-concurrency", "16")
    result = invoke(*run, *address_flags(services), "--log-dir", tmp_path)
    assert result.exit_code == 0, explain_result(result)
    rewards = {entry["task_id"]: entry["reward"] for entry in load_json(results_path(tmp_path))}
    assert rewards == {task.id: 1.0 for task in sample}


def test_no_two_factory_domains_share_a_task_policy_tools_or_a_table() -> None:
    found = overlaps([surface(_domain(name)) for name in FACTORY])
    assert [(f.domain, f.kind, f.other, f.detail) for f in found] == []


@pytest.mark.slow  # an API server: seconds to start
def test_the_rest_api_lists_every_factory_domain_and_the_viewer_labels_its_tasks(tmp_path: Path) -> None:
    server = start_thread_server(f"sqlite:///{tmp_path / 'api.db'}", tmp_path, tmp_path / "no-data")
    try:
        with httpx.Client(base_url=server.base_url, headers=server.headers, timeout=120) as client:
            listed = client.get("/health").json()["supported_environments"]
            assert set(FACTORY) <= set(listed), sorted(set(FACTORY) - set(listed))
            for name in FACTORY:
                body = {"env": name, "task_split": "test", "page_size": 2}
                response = client.post("/api/v1/list-tasks", json=body)
                assert response.status_code == 200, response.text
                assert response.json()["total_tasks"] == len(_tasks(name, "test"))
    finally:
        server.stop()
    for name in FACTORY:
        labels = task_labels(name)
        assert {task_id: set(found) for task_id, found in labels.items()} == {
            task.id: {"intent", "tier", "trap", "dual_control"} for task in _tasks(name)
        }


def test_the_gym_plays_a_task_of_each_domain_to_one() -> None:
    """One environment, one service stack, a reset per domain (``options["domain"]``): each domain's first test
    task under its own control that does not end in a transfer (which ends the episode before the closing message)."""
    env = gym.make(AGENT_ENV_ID, domain=FACTORY[0], data_dir="unused", task_split="test")
    rewards = {}
    try:
        for name in FACTORY:
            stops = _domain(name).plugin.terminate_tools
            task = next(t for t in _tasks(name, "test") if not t.dual_control and t.actions[-1].name not in stops)
            _, info = env.reset(options={"domain": name, "task_id": task.id})
            assert info["policy"] == _domain(name).policy
            for action in task.agent_actions():
                env.step(json.dumps({"name": action.name, "arguments": action.kwargs}))
            _, reward, terminated, _, info = env.step(oracle_says(task) or "Done. Anything else?")
            rewards[name] = (reward, terminated)
    finally:
        env.close()
    assert rewards == {name: (1.0, True) for name in FACTORY}


TABLE_ROW = re.compile(r"^\| \[(?P<name>[\w-]+)\]\(domains/[\w-]+\.md\) \| [^|]+ \| (?P<counts>.+) \|$")
"""A row of docs/domains.md's table of τ++'s domains: the name, what it models, then its counts."""


def _counts(name: str) -> list[str]:
    domain, tasks = _domain(name), _tasks(name)
    agent = sum(tool.side == "assistant" for tool in domain.tools)
    return [
        str(len(tasks)),
        str(len({task.intent for task in tasks})),
        str(sum(task.trap for task in tasks)),
        str(sum(task.dual_control for task in tasks)),
        str(len(_tasks(name, "test"))),
        f"{sum(len(records) for records in domain.base_data.values()):,}",
        f"{agent} / {len(domain.tools) - agent}",
    ]


def test_the_docs_table_gives_each_domains_counts() -> None:
    page = (PROJECT_ROOT / "docs" / "domains.md").read_text(encoding="utf-8")
    rows = {m["name"]: m["counts"].split(" | ") for line in page.splitlines() if (m := TABLE_ROW.match(line))}
    wanted = {name: _counts(name) for name in FACTORY if name != "healthcare"}  # healthcare has a section of its own
    assert rows == wanted, "\n".join(f"| {name} | {' | '.join(counts)} |" for name, counts in wanted.items())
