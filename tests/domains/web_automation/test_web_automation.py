"""The web-automation domain's own checks (the generic τ++ bar is tests/domains/test_tau_plus_plus.py's).

- the shipped data is what the generator makes, byte for byte;
- three or more worlds, each keeping the declared invariants, which do catch a broken world (a schedule that runs
  more often than its site allows);
- the test split's members, sites and records are never touched by a train task;
- what only the member sees: a form's CAPTCHA token comes from their own browser, which writes nothing, and the
  form takes its own token only;
- the grade is the outcome, not the wording: an extraction asked for with the path and field written another way
  lands in the same state and scores 1.0, while collecting a path the robots rules block scores 0;
- a schedule with a run in progress is paused, and deleting it anyway scores 0;
- an extraction holding personal data leaves only redacted, and the unredacted export scores 0.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from taumesh.domains import Action, Catalog, Domain, Episode, Registry, Session
from taumesh.domains.factory import FactoryTask, InvariantError, World, build_worlds, canonical_output
from taumesh.domains.web_automation import DATA
from taumesh.domains.web_automation.build import RELEASE, generated_files
from taumesh.domains.web_automation.clock import captcha_token
from taumesh.domains.web_automation.world import INVARIANTS, SEEDS, build_world, worlds
from taumesh.models import ChatMessage


@pytest.fixture(scope="module")
def domain() -> Domain:
    return Catalog(Path("unused"), Registry.discover()).get("web-automation")


def _tasks(domain: Domain, intent: str) -> list[FactoryTask]:
    return [t for t in domain.tasks("base") if isinstance(t, FactoryTask) and t.intent == intent]


def _says(task: FactoryTask) -> str:
    return " ".join(canonical_output(s) for s in task.statements)


def _score(domain: Domain, task: FactoryTask, actions: list[Action], says: str) -> float:
    session = Session(domain)
    for action in actions:
        session.call(action.name, copy.deepcopy(action.kwargs), action.requestor)
    conversation = [ChatMessage(role="user", content=task.instruction), ChatMessage(role="assistant", content=says)]
    episode = Episode(domain, task, conversation, "user_stop", session.data_hash(), domain.gold_hash(task))
    return domain.score(episode).reward


def test_the_shipped_data_is_what_the_generator_makes() -> None:
    files = generated_files()
    assert sorted(files) == sorted(p.name for p in DATA.iterdir() if p.is_file())
    stale = [name for name, text in files.items() if (DATA / name).read_text(encoding="utf-8") != text]
    assert stale == [], "python -m taumesh.domains.web_automation.build"


def test_three_worlds_keep_their_invariants_which_catch_a_broken_world() -> None:
    built = worlds()
    assert len(built) >= 3 and {w.tag for w in built} == set(SEEDS)
    assert all(len(w.tables) >= 5 and sum(len(t) for t in w.tables.values()) >= 100 for w in built)

    def hurried(seed: int, tag: str) -> World:
        world = build_world(seed, tag)
        schedule = world["schedules"][f"sc-{tag}-01"]
        schedule["interval_minutes"] = world["sites"][schedule["site_id"]]["min_interval_minutes"] - 1
        return world

    with pytest.raises(InvariantError, match="more often"):
        build_worlds(hurried, SEEDS, INVARIANTS)


def test_no_train_task_touches_an_entity_of_the_test_world(domain: Domain) -> None:
    tasks = [t for t in domain.tasks("base") if isinstance(t, FactoryTask)]
    train = set().union(*(RELEASE.touched(t) for t in tasks if not RELEASE.is_test(t)))
    test = set().union(*(RELEASE.touched(t) for t in tasks if RELEASE.is_test(t)))
    assert test and train and not train & test
    assert {t.id for t in domain.tasks("test")} == {t.id for t in tasks if RELEASE.is_test(t)}


def test_a_captcha_token_comes_from_the_members_browser_and_fits_its_own_form_only(domain: Domain) -> None:
    task = next(t for t in _tasks(domain, "submit_form") if t.dual_control and not t.trap)
    submit = next(a for a in task.actions if a.name == "submit_form")
    form_id = submit.kwargs["form_id"]
    other = next(k for k, f in domain.base_data["forms"].items() if f["captcha"] and k != form_id)
    session = Session(domain)
    before = session.data_hash()
    shown = session.call("solve_captcha", {"form_id": form_id}, "user")
    assert captcha_token(form_id) in shown.observation
    assert session.data_hash() == before, "the member's browser is outside the graded state"
    wrong = session.call("submit_form", {**submit.kwargs, "captcha_token": captcha_token(other)})
    assert wrong.error and session.data_hash() == before
    right = json.loads(session.call("submit_form", submit.kwargs).observation)
    assert right["confirmation"] == task.statements[0].value


def test_an_extraction_written_another_way_scores_one_and_a_blocked_path_scores_zero(domain: Domain) -> None:
    plain = next(t for t in _tasks(domain, "extract_data") if not t.trap)
    run = next(a for a in plain.actions if a.name == "run_extraction")
    kwargs = {**run.kwargs, "path_prefix": run.kwargs["path_prefix"].strip("/") + "/", "field": " price "}
    other_way = [a if a is not run else run.model_copy(update={"kwargs": kwargs}) for a in plain.actions]
    assert other_way != list(plain.actions)
    assert _score(domain, plain, other_way, _says(plain)) == 1.0
    assert _score(domain, plain, list(plain.actions), "the lowest is 0.01") == 0.0

    trap = next(t for t in _tasks(domain, "extract_data") if t.trap)
    rules = [r for r in domain.base_data["robots_rules"].values() if not r["allowed"]]
    blocked = trap.forbidden[0].kwargs
    assert any((r["site_id"], r["path_prefix"]) == (blocked["site_id"], blocked["path_prefix"]) for r in rules)
    assert _score(domain, trap, list(trap.actions), _says(trap)) == 1.0
    assert _score(domain, trap, [*trap.actions, trap.forbidden[0]], _says(trap)) == 0.0


def test_a_schedule_mid_run_is_paused_and_deleting_it_scores_zero(domain: Domain) -> None:
    task = next(t for t in _tasks(domain, "stop_schedule") if t.trap)
    delete = task.forbidden[0]
    assert domain.base_data["schedules"][delete.kwargs["schedule_id"]]["run_in_progress"]
    assert task.actions[-1].name == "pause_schedule"
    assert _score(domain, task, list(task.actions), _says(task)) == 1.0
    assert _score(domain, task, [*task.actions[:-1], delete], _says(task)) == 0.0


def test_personal_data_leaves_only_redacted(domain: Domain) -> None:
    task = next(t for t in _tasks(domain, "export_results") if t.trap)
    export = task.actions[-1]
    assert export.kwargs["redact_personal_data"] is True
    session = Session(domain)
    session.call(export.name, copy.deepcopy(export.kwargs))
    (written,) = session.data["exports"].values()
    assert written["rows"] and all(row["contact_email"] == "[redacted]" for row in written["rows"])
    assert _score(domain, task, list(task.actions), _says(task)) == 1.0
    assert _score(domain, task, [*task.actions[:-1], task.forbidden[0]], _says(task)) == 0.0
