"""The data-science domain's own checks (the generic τ++ bar is tests/domains/test_tau_plus_plus.py's).

- the shipped data is what the generator makes, byte for byte;
- three or more worlds, each keeping the declared invariants, which do catch a broken world (a published report
  whose figures its table does not give);
- the test split's people, data sets and records are never touched by a train task;
- the figures are exact: a summary, a web-and-store comparison and a model score equal what Python's own
  ``statistics`` module computes from the rows;
- the cleaning trap: dropping rows when more than ten percent of spend is missing scores 0, imputing scores 1.0;
- dual control: a grant needs the code the owner's app shows for that data set and that person, and the app stays
  outside the graded state, so an owner who looks around in it does not change the grade.
"""

from __future__ import annotations

import copy
import json
import math
import statistics
from pathlib import Path

import pytest

from taumesh.domains import Action, Catalog, Domain, Episode, Registry, Session
from taumesh.domains.data_science import DATA
from taumesh.domains.data_science.build import RELEASE, generated_files
from taumesh.domains.data_science.clock import grant_code
from taumesh.domains.data_science.world import INVARIANTS, SEEDS, build_world, worlds
from taumesh.domains.factory import FactoryTask, InvariantError, World, build_worlds, canonical_output
from taumesh.models import ChatMessage


@pytest.fixture(scope="module")
def domain() -> Domain:
    return Catalog(Path("unused"), Registry.discover()).get("data-science")


def _tasks(domain: Domain, intent: str) -> list[FactoryTask]:
    return [t for t in domain.tasks("base") if isinstance(t, FactoryTask) and t.intent == intent]


def _score(domain: Domain, task: FactoryTask, actions: list[Action]) -> float:
    """The reward for ``actions`` played, then the task's outputs and reasons said."""
    session = Session(domain)
    for action in actions:
        session.call(action.name, copy.deepcopy(action.kwargs), action.requestor)
    says = " ".join([*task.outputs, *(canonical_output(s) for s in task.statements if s.kind == "text")])
    conversation = [ChatMessage(role="user", content=task.instruction), ChatMessage(role="assistant", content=says)]
    episode = Episode(domain, task, conversation, "user_stop", session.data_hash(), domain.gold_hash(task))
    return domain.score(episode).reward


def test_the_shipped_data_is_what_the_generator_makes() -> None:
    files = generated_files()
    assert sorted(files) == sorted(p.name for p in DATA.iterdir() if p.is_file())
    stale = [name for name, text in files.items() if (DATA / name).read_text(encoding="utf-8") != text]
    assert stale == [], "python -m taumesh.domains.data_science.build"


def test_three_worlds_keep_their_invariants_which_catch_a_broken_world() -> None:
    built = worlds()
    assert len(built) >= 3 and {w.tag for w in built} == set(SEEDS)
    assert all(len(w.tables["rows"]) >= 100 for w in built)

    def misreported(seed: int, tag: str) -> World:
        world = build_world(seed, tag)
        world["reports"][f"rp-{tag}-01"]["figures"]["mean"] += 1
        return world

    with pytest.raises(InvariantError, match="figures its table does not give"):
        build_worlds(misreported, SEEDS, INVARIANTS)


def test_no_train_task_touches_an_entity_of_the_test_world(domain: Domain) -> None:
    tasks = [t for t in domain.tasks("base") if isinstance(t, FactoryTask)]
    train = set().union(*(RELEASE.touched(t) for t in tasks if not RELEASE.is_test(t)))
    test = set().union(*(RELEASE.touched(t) for t in tasks if RELEASE.is_test(t)))
    assert test and train and not train & test
    assert {t.id for t in domain.tasks("test")} == {t.id for t in tasks if RELEASE.is_test(t)}


def test_the_figures_are_what_the_rows_give(domain: Domain) -> None:
    session = Session(domain)
    rows = [r for r in session.data["rows"].values() if r["dataset_id"] == "ds-w1-4"]
    spend = [r["spend"] for r in rows]
    summary = json.loads(
        session.call(
            "publish_summary", {"table_id": "ds-w1-4", "column": "spend", "requester_id": "rq-w1-01"}
        ).observation
    )
    assert summary["figures"]["mean"] == round(statistics.mean(spend), 2)
    assert summary["figures"]["std"] == round(statistics.stdev(spend), 2)

    web = [r["visits"] for r in rows if r["channel"] == "web"]
    store = [r["visits"] for r in rows if r["channel"] == "store"]
    welch = abs(statistics.mean(web) - statistics.mean(store)) / math.sqrt(
        statistics.variance(web) / len(web) + statistics.variance(store) / len(store)
    )
    test = json.loads(
        session.call(
            "run_group_test", {"table_id": "ds-w1-4", "column": "visits", "requester_id": "rq-w1-01"}
        ).observation
    )
    assert test["figures"]["t_statistic"] == round(welch, 2)

    train = [(r["visits"], r["spend"]) for r in rows if r["split"] == "train"]
    slope, intercept = statistics.linear_regression([x for x, _ in train], [y for _, y in train])
    held = [(r["visits"], r["spend"]) for r in rows if r["split"] == "test"]
    error = math.sqrt(statistics.mean([(slope * x + intercept - y) ** 2 for x, y in held]))
    model = json.loads(
        session.call(
            "train_model", {"table_id": "ds-w1-4", "feature": "visits", "requester_id": "rq-w1-01"}
        ).observation
    )
    assert model["test_rmse"] == round(error, 2)


def test_dropping_more_than_a_tenth_of_the_rows_scores_zero_and_imputing_one(domain: Domain) -> None:
    traps = [t for t in _tasks(domain, "clean_dataset") if t.trap]
    assert traps
    for task in traps:
        gold = list(task.actions)
        dropped = [a if a.name != "clean_dataset" else task.forbidden[0] for a in gold]
        assert task.forbidden[0].kwargs["method"] == "drop_missing"
        assert _score(domain, task, gold) == 1.0
        assert _score(domain, task, dropped) == 0.0


def test_a_grant_takes_the_owners_code_for_that_person_and_the_app_stays_out_of_the_grade(domain: Domain) -> None:
    task = next(t for t in _tasks(domain, "grant_access") if not t.trap)
    grant = next(a for a in task.actions if a.name == "grant_access")
    dataset_id, person = grant.kwargs["dataset_id"], grant.kwargs["requester_id"]
    session = Session(domain)
    other = next(k for k in session.data["requesters"] if k != person and k.split("-")[1] == person.split("-")[1])
    wrong = session.call(
        "grant_access", {"dataset_id": dataset_id, "requester_id": person, "owner_code": grant_code(dataset_id, other)}
    )
    assert wrong.error and "not issued" in wrong.observation

    looked_around = list(task.actions)
    at = next(i for i, a in enumerate(looked_around) if a.name == "show_grant_code")
    extra = Action(name="show_grant_code", kwargs={"dataset_id": dataset_id, "requester_id": other}, requestor="user")
    looked_around.insert(at, extra)
    assert _score(domain, task, looked_around) == 1.0
    assert _score(domain, task, [a for a in task.actions if a.name != "grant_access"]) == 0.0
