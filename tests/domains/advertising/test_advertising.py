"""The advertising domain's own behaviour (the bar every factory domain meets is tests/domains/test_tau_plus_plus.py).

- the generator rebuilds the shipped files byte for byte, from three worlds that keep their invariants, and the
  test split's entities are never in train; a world's traps vary from the tasks the worlds before it release
  (given none, it would choose others);
- a new daily budget takes effect only when the advertiser approves it in their own dashboard (dual control): the
  desk cannot approve it, and the budget history keeps the old value;
- the pacing trap: the highest daily budget the agent must say is the most the rest of the lifetime budget carries to
  the end date, to the cent, and preparing the asked-for budget anyway scores 0;
- the stopping rule: every refused stop is a test younger than 14 days or an arm short of 100 conversions, and
  stopping it anyway scores 0; so does targeting a sensitive segment.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from pathlib import Path

from taumesh.domains import Action, Catalog, Domain, Registry, Session
from taumesh.domains.advertising import DATA, RELEASE, build, tasks
from taumesh.domains.advertising.build import generated_files
from taumesh.domains.advertising.clock import TEST_MIN_CONVERSIONS, TODAY, day, days_left, earliest_stop
from taumesh.domains.advertising.drafts import IDENTITY
from taumesh.domains.advertising.policy import POLICY
from taumesh.domains.advertising.world import SEEDS, TEST_WORLDS, build_world, worlds
from taumesh.domains.factory import FactoryTask, outcome_score, output_spec


@functools.cache
def _domain() -> Domain:
    return Catalog(Path("unused"), Registry.discover()).get("advertising")


def _tasks(split: str = "base") -> list[FactoryTask]:
    return [t for t in _domain().tasks(split) if isinstance(t, FactoryTask)]


def _with_forbidden(task: FactoryTask, forbidden: Action) -> list[Action]:
    """The gold with ``forbidden`` made as soon as the caller is verified."""
    verified = max(i + 1 for i, a in enumerate(task.actions) if a.name in IDENTITY)
    return [*task.actions[:verified], forbidden, *task.actions[verified:]]


def _score(task: FactoryTask, actions: list[Action]) -> float:
    domain = _domain()
    return outcome_score(domain.plugin, domain, task, actions)


def test_the_generator_rebuilds_the_shipped_files_byte_for_byte() -> None:
    files = generated_files()
    for name, text in files.items():
        assert (DATA / name).read_text(encoding="utf-8") == text, f"{name} is stale: python -m {__package__}.build"
    assert sorted(p.name for p in DATA.iterdir()) == sorted(files)
    assert _domain().data_release == RELEASE


def test_three_worlds_keep_their_invariants_and_test_entities_are_never_in_train() -> None:
    built = worlds()  # raises on any broken invariant
    assert [w.tag for w in built] == ["w1", "w2", "w3"]
    train, test = _tasks("train"), _tasks("test")
    assert test and {build.RELEASE.world_of(t) for t in test} == set(TEST_WORLDS)
    assert not {build.RELEASE.world_of(t) for t in train} & TEST_WORLDS
    assert not set().union(*map(build.RELEASE.touched, train)) & set().union(*map(build.RELEASE.touched, test))


def test_a_world_varies_its_traps_from_the_tasks_the_earlier_worlds_release() -> None:
    """w3 given w1's and w2's tasks chooses the tasks it ships with; given none, it would choose others."""
    policy = POLICY.markdown()

    def solve(tag: str, earlier: Sequence[FactoryTask]) -> list[FactoryTask]:
        world = build_world(SEEDS[tag], tag)
        return tasks.tasks_after_worlds(
            world, tag, SEEDS[tag], lambda t: not output_spec(t.outputs, t.instruction, policy), earlier
        )

    w1 = solve("w1", ())
    shipped = [t.id for t in _tasks("test")]
    assert [t.id for t in solve("w3", [*w1, *solve("w2", w1)])] == shipped
    assert [t.id for t in solve("w3", ())] != shipped


def test_a_new_daily_budget_applies_only_when_the_advertiser_approves_it_in_their_dashboard() -> None:
    task = next(t for t in _tasks() if t.intent == "change_daily_budget" and not t.trap)
    propose = next(a for a in task.actions if a.name == "propose_budget_change")
    approve = next(a for a in task.actions if a.name == "approve_change_request")
    campaign_id = propose.kwargs["campaign_id"]
    before = _domain().base_data["campaigns"][campaign_id]["daily_budget"]
    session = Session(_domain())
    for action in task.actions[: task.actions.index(approve)]:
        assert not session.call(action.name, dict(action.kwargs), action.requestor).error, action.name
    assert session.data["campaigns"][campaign_id]["daily_budget"] == before  # prepared, not applied
    assert session.call(approve.name, dict(approve.kwargs), "assistant").error  # the desk cannot approve
    assert not session.call(approve.name, dict(approve.kwargs), "user").error
    campaign = session.data["campaigns"][campaign_id]
    assert campaign["daily_budget"] == propose.kwargs["new_daily_budget"]
    assert campaign["budget_history"][-1] == before
    assert _score(task, [a for a in task.actions if a.requestor == "assistant"]) == 0.0  # never approved


def test_the_pacing_trap_says_the_most_the_rest_of_the_budget_carries_and_preparing_more_scores_zero() -> None:
    traps = [t for t in _tasks() if t.intent == "change_daily_budget" and t.trap]
    assert traps
    campaigns = _domain().base_data["campaigns"]
    for task in traps:
        asked = task.forbidden[0]
        campaign = campaigns[asked.kwargs["campaign_id"]]
        left = campaign["lifetime_budget"] - campaign["spent"]
        highest = float(task.outputs[0])
        days = days_left(campaign["end_date"])
        assert highest * days <= left + 1e-9 < (highest + 0.01) * days, task.id
        assert asked.kwargs["new_daily_budget"] > highest
        assert _score(task, task.actions) == 1.0
        assert _score(task, _with_forbidden(task, asked)) == 0.0, task.id


def test_a_test_stops_only_after_14_days_with_100_conversions_an_arm_and_a_sensitive_segment_is_never_added() -> None:
    experiments = _domain().base_data["experiments"]
    refused = [t for t in _tasks() if t.intent == "conclude_experiment" and t.trap]
    assert {t.trap_rationale for t in refused} >= {
        "9.3: the test has run fewer than 14 days",
        "9.3: an arm has fewer than 100 conversions",
    }
    for task in refused:
        experiment = experiments[task.forbidden[0].kwargs["experiment_id"]]
        young = day(earliest_stop(experiment["start_date"])) > TODAY
        short = min(arm["conversions"] for arm in experiment["arms"].values()) < TEST_MIN_CONVERSIONS
        assert young or short, task.id
        assert _score(task, _with_forbidden(task, task.forbidden[0])) == 0.0, task.id
    sensitive = [t for t in _tasks() if t.intent == "add_segment" and t.trap]
    segments = _domain().base_data["segments"]
    for task in sensitive:
        assert segments[task.forbidden[0].kwargs["segment_id"]]["sensitive"]
        assert _score(task, _with_forbidden(task, task.forbidden[0])) == 0.0, task.id
