"""Healthcare release 2, built on the domain factory: what the issue asked of it, shown through the real services.

- the generator rebuilds the shipped files, over three worlds whose invariants hold, test patients never in train;
- the counts: 180 tasks over 15 intents, 30 % traps (each with its rationale and forbidden write), 28 dual control;
- every allowed outcome the reference solvers list scores 1.0 when rescored through the env and scorer, and the gold
  cut short, perturbed or with a forbidden write scores 0;
- the audit flags no task on any split, and its floors are null 0, identity-then-refuse 0, outputs-spam 0;
- release 1 stays selectable as ``healthcare:v1``, and each release declares itself.

That every outcome replays and every forbidden write leaves the allowed states (``verify_task``) is shown for every
factory domain, this one included, by tests/domains/test_tau_plus_plus.py.
"""

from __future__ import annotations

import asyncio
import copy
import functools
import json
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from taumesh.domains import DOMAIN_PATH_ENV, Action, Catalog, Domain, Registry, check_domain
from taumesh.domains.factory import (
    FactoryTask,
    canonical_output,
    coverage,
    output_spec,
    trap_cues,
    unfair_traps,
)
from taumesh.domains.healthcare import DATA_V2, IDENTITY_TOOLS, RELEASES, SPLITS
from taumesh.domains.healthcare.v2.build import RELEASE, generated_files
from taumesh.domains.healthcare.v2.policy import POLICY
from taumesh.domains.healthcare.v2.world import BLOOD_PRESSURES, TEST_WORLDS, age, worlds
from taumesh.orchestrator.audit import audit_domain
from tests.helpers.cli import ORACLE, explain_result, invoke, load_json, results_path
from tests.helpers.healthcare import PLUGIN_PATH, healthcare

Entry = dict[str, Any]


@functools.cache
def _domain() -> Domain:
    return healthcare()


def _tasks(split: str = "base") -> list[FactoryTask]:
    return [t for t in _domain().tasks(split) if isinstance(t, FactoryTask)]


def test_the_generator_rebuilds_the_shipped_release_byte_for_byte() -> None:
    for name, text in generated_files().items():
        assert (DATA_V2 / name).read_text(encoding="utf-8") == text, (
            f"{name} is stale: run python -m taumesh.domains.healthcare.v2.build"
        )
    assert _domain().data_release == RELEASES["v2"]


def test_counts_and_metadata() -> None:
    tasks = _tasks()
    assert len(tasks) == 180 and len(Counter(t.intent for t in tasks)) == 15
    traps = [t for t in tasks if t.trap]
    assert len(traps) / len(tasks) >= 0.25 and sum(t.dual_control for t in tasks) >= 25
    assert all(t.trap_rationale and t.forbidden and t.trap_rationale[0].isdigit() for t in traps)
    assert all(t.clauses and t.solver == t.intent for t in tasks)
    assert {t.tier for t in tasks} == {"easy", "medium", "hard"}
    report = coverage(POLICY, [(t.id, t.clauses) for t in tasks])
    # what the report shows no task tests: scope and advice (1.x), third-party records (9.2)
    assert not report.unknown and report.untested == ["1.1", "1.2", "9.2"], report.untested
    assert not trap_cues(tasks) and not unfair_traps(tasks)
    assert not [t.id for t in tasks if output_spec(t.outputs, t.instruction, POLICY.markdown())]
    assert all(len(o) > 2 for t in tasks for o in t.outputs)


def test_three_worlds_keep_their_invariants_and_test_patients_are_never_in_train() -> None:
    built = worlds()  # raises on any broken invariant
    assert [w.tag for w in built] == ["w1", "w2", "w3"]
    train, test = _tasks("train"), _tasks("test")
    assert {RELEASE.world_of(t) for t in test} == set(TEST_WORLDS)
    assert not {RELEASE.world_of(t) for t in train} & TEST_WORLDS
    assert not {t.user_id for t in train} & {t.user_id for t in test}
    assert not set().union(*map(RELEASE.touched, train)) & set().union(*map(RELEASE.touched, test))
    patients = _domain().base_data["patients"]
    for task in _tasks():
        if age(patients[task.user_id]["date_of_birth"]) < 18:
            assert task.intent == "proxy_access", task.id  # a child never calls for themselves
    readings = [r for d in _domain().base_data["devices"].values() for r in d["monitor_queue"]]
    pressures = [(r["systolic"], r["diastolic"]) for r in readings if r["kind"] == "blood_pressure"]
    assert pressures and all(d < s - 20 and (s, d) in BLOOD_PRESSURES for s, d in pressures)


def test_the_findings_are_answered_by_the_allowed_outcomes() -> None:
    tasks = {t.id: t for t in _tasks()}
    ties = [
        t
        for t in tasks.values()
        if any("any provider sharing it" in s.why and len(s.alternatives) > 1 for s in t.steps)
    ]
    assert ties, "a tie between providers is listed as alternatives"
    triage = [t for t in tasks.values() if t.intent == "triage_to_human"]
    assert all([] in t.steps[0].alternatives for t in triage)  # a transfer needs no verification first (2.4)
    dual = [t for t in tasks.values() if t.dual_control]
    for task in dual:
        paths = next(s for s in task.steps if s.why.startswith("verification")).alternatives
        names = [[a.name for a in path] for path in paths]
        assert ["find_patient", "verify_identity"] in names  # either method
        assert any(n.count("send_verification_code") == 2 for n in names)  # a resent code
    refills = [t for t in tasks.values() if t.intent == "refill" and t.statements]
    assert refills and all(s.kind == "date" for t in refills for s in t.statements)  # the date a refill is possible
    claims = [t for t in tasks.values() if t.intent == "claim_dispute" and t.trap]
    assert claims and all(t.statements and t.statements[0].kind == "text" for t in claims)  # why not disputed


@pytest.fixture(scope="module")
def oracle_results(tmp_path_factory: pytest.TempPathFactory) -> Iterator[list[Entry]]:
    log_dir = tmp_path_factory.mktemp("healthcare_v2_oracle")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(DOMAIN_PATH_ENV, str(PLUGIN_PATH))
        result = invoke(
            "run", "--env", "healthcare", "--task-split", "base", *ORACLE, "--max-concurrency", "8",
            "--log-dir", log_dir,
        )  # fmt: skip
    assert result.exit_code == 0, explain_result(result)
    results: list[Entry] = load_json(results_path(log_dir))
    assert {r["task_id"]: r["reward"] for r in results} == {t.id: 1.0 for t in _tasks()}
    assert {r["info"]["run"]["data_release"] for r in results} == {RELEASES["v2"]}
    yield results


def _call(n: int, action: Action) -> list[dict[str, Any]]:
    call = {
        "id": f"t_{n}",
        "type": "function",
        "function": {"name": action.name, "arguments": json.dumps(action.kwargs)},
    }
    return [
        {"role": "assistant", "content": "", "tool_calls": [call]},
        {"role": "tool", "content": "", "tool_call_id": f"t_{n}", "name": action.name},
    ]


def trajectory(entry: Entry, actions: list[Action], says: str | None) -> Entry:
    """The oracle's entry played with ``actions`` (the agent's), then ``says``, then the user stops."""
    traj = list(entry["traj"][:2])  # the policy and the user's opening
    for n, action in enumerate(a for a in actions if a.requestor == "assistant"):
        traj += _call(n, action)
    if not (actions and actions[-1].name == "transfer_to_human_agents"):
        traj += [
            {"role": "assistant", "content": says or "Is there anything else?"},
            {"role": "user", "content": "###STOP###"},
        ]
    info = {**entry["info"], "user_tool_turns": []}
    return {**entry, "traj": traj, "info": info}


def _statement_text(task: FactoryTask) -> str | None:
    said = [canonical_output(s) for s in task.statements]
    return " ".join(said) if said else None


def _identity(action: Action) -> bool:
    return action.name in IDENTITY_TOOLS


def _rescored(entries: list[Entry], tmp_path: Path) -> list[float]:
    path = tmp_path / "trajectories.json"
    path.write_text(json.dumps([{**e, "trial": n} for n, e in enumerate(entries)]), encoding="utf-8")
    out = tmp_path / "rows.json"
    result = invoke("rescore", path, "--env", "healthcare", "--task-split", "base", "--out", out)
    assert result.exit_code in (0, 1), explain_result(result)
    rows = sorted(load_json(out), key=lambda row: row["trial"])
    assert len(rows) == len(entries)
    return [row["reward"] for row in rows]


@pytest.mark.slow  # an oracle run, then rescoring through the services
def test_every_allowed_outcome_scores_one(oracle_results: list[Entry], tmp_path: Path) -> None:
    tasks = {t.id: t for t in _tasks()}
    built, names = [], []
    for entry in oracle_results:
        task = tasks[entry["task_id"]]
        for n, outcome in enumerate(task.outcomes()):
            built.append(trajectory(entry, outcome, _statement_text(task)))
            names.append(f"{task.id} outcome {n}")
    rewards = _rescored(built, tmp_path)
    assert len(built) > len(tasks) + 100  # ties, optional verification, either method, resent codes
    assert [n for n, r in zip(names, rewards, strict=True) if r != 1.0] == []


def _last_required_write(task: FactoryTask) -> int | None:
    """The position in the gold of the last agent write that is not verification (every outcome makes one)."""
    writes = _domain().spec.tools
    writing = {t.name for t in writes if t.writes}
    found = [
        i for i, a in enumerate(task.actions) if a.name in writing and a.requestor == "assistant" and not _identity(a)
    ]
    return found[-1] if found else None


def _perturbed(action: Action) -> Action:
    kwargs = copy.deepcopy(action.kwargs)
    key = list(kwargs)[-1]
    value = kwargs[key]
    kwargs[key] = (
        value + 1
        if isinstance(value, int | float)
        else [*value[:-1]] or ["imaging"]
        if isinstance(value, list)
        else f"{value}x"
    )
    return action.model_copy(update={"kwargs": kwargs})


@pytest.mark.slow  # an oracle run, then rescoring through the services
def test_cut_perturbed_and_forbidden_trajectories_score_zero(oracle_results: list[Entry], tmp_path: Path) -> None:
    tasks = {t.id: t for t in _tasks()}
    built, names = [], []
    for entry in oracle_results:
        task = tasks[entry["task_id"]]
        gold, says = list(task.actions), _statement_text(task)
        at = _last_required_write(task)
        variants: dict[str, tuple[list[Action], str | None]] = {}
        if at is not None:
            variants["write cut"] = ([*gold[:at], *gold[at + 1 :]], says)
            variants["write perturbed"] = ([*gold[:at], _perturbed(gold[at]), *gold[at + 1 :]], says)
        if task.statements:
            variants["statement cut"] = (gold, None)
        verified = max(i for i, a in enumerate(gold) if _identity(a)) if any(_identity(a) for a in gold) else -1
        for forbidden in task.forbidden:
            variants[f"forbidden {forbidden.name}"] = ([*gold[: verified + 1], forbidden, *gold[verified + 1 :]], says)
        if not variants:
            pytest.fail(f"{task.id}: nothing to cut, perturb or forbid")
        for kind, (actions, text) in variants.items():
            built.append(trajectory(entry, actions, text))
            names.append(f"{task.id} {kind}")
    rewards = _rescored(built, tmp_path)
    assert [n for n, r in zip(names, rewards, strict=True) if r != 0.0] == []
    assert sum("forbidden" in n for n in names) >= sum(t.trap for t in tasks.values())


@pytest.mark.parametrize("split", SPLITS)
def test_the_audit_flags_no_task_and_the_floors_hold(split: str) -> None:
    report = asyncio.run(audit_domain("healthcare", split, Path()))
    assert report.data_release == RELEASES["v2"]
    assert [(t.task_id, t.flags) for t in report.tasks if t.flags] == []
    floors = report.floors
    assert floors["null"].passed == []
    assert len(floors["identity_then_refuse"].passed) <= 0.05 * floors["null"].of
    assert len(floors["outputs_spam"].passed) <= 0.02 * floors["null"].of


def test_release_one_stays_selectable_and_each_release_is_declared() -> None:
    """``healthcare:v1`` is the faithful first release, its own data and tasks; results record each one's release.

    What is not yet true (the issue's note): a run of the variant records its base's release, since the runner takes
    a variant's DomainInfo from its base (ListDomains lists no variant); see the report of issue 41.
    """
    v1 = Catalog(Path("unused"), Registry.discover([PLUGIN_PATH])).get("healthcare:v1")
    assert v1.data_release == RELEASES["v1"] and _domain().data_release == RELEASES["v2"]
    assert len(v1.tasks("base")) == 165 and v1.tasks("base")[0].id == "book_appointment-01"
    assert check_domain(v1, ["test"]).ok
