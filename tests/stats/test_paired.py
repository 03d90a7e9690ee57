"""Paired comparison of runs, compatibility of runs, and planning, on constructed outcomes of known answer."""

from __future__ import annotations

import pytest

from taumesh.stats import (
    RunIdentity,
    TrialOutcome,
    TrialTable,
    compare_paired,
    differences,
    plan_from_pilot,
    plan_from_rate,
    simulator_note,
)


def _run(solved: set[int], tasks: int = 115, trials: int = 1) -> TrialTable:
    return TrialTable(TrialOutcome(str(t), j, float(t in solved)) for t in range(tasks) for j in range(trials))


def test_identical_runs_show_no_detectable_difference() -> None:
    a = _run(set(range(70)))
    result = compare_paired(a, a, name_a="A", name_b="B")
    assert not result.significant and result.p_value == 1.0
    assert result.pass1_difference.estimate == 0 and result.driving == []
    assert result.verdict().startswith("no detectable difference with 115 tasks × 1 trial")


def test_twenty_more_tasks_solved_of_115_is_better_with_p_below_001() -> None:
    a, b = _run(set(range(60))), _run(set(range(80)))
    result = compare_paired(a, b, name_a="A", name_b="B", n_resamples=2999)
    assert result.significant and result.p_value < 0.01
    assert result.pass1_difference.estimate == pytest.approx(20 / 115)
    assert 0 < result.pass1_difference.low < 20 / 115 < result.pass1_difference.high
    assert result.verdict().startswith("B is better than A by 17.4 points of pass^1 (95 % CI ")
    assert [task.task_id for task in result.driving] == [str(t) for t in range(60, 70)]
    assert result.better == [str(t) for t in range(60, 80)] and result.worse == []
    reverse = compare_paired(b, a, name_a="B", name_b="A", n_resamples=2999)
    assert reverse.verdict().startswith("B is better than A by 17.4 points")


def test_a_small_difference_says_how_many_trials_would_resolve_it() -> None:
    a, b = _run(set(range(60))), _run(set(range(63)))
    result = compare_paired(a, b, n_resamples=999)
    assert not result.significant
    assert result.trials_to_resolve is not None and result.trials_to_resolve > 1
    assert f"about {result.trials_to_resolve} trials per task would resolve" in result.verdict()


def test_runs_are_paired_on_the_trials_both_played() -> None:
    a, b = _run(set(range(10)), tasks=20, trials=3), _run(set(range(10)), tasks=20, trials=1)
    result = compare_paired(a, b, n_resamples=199)
    assert result.trials == 1 and result.pass1_difference.estimate == 0


def test_differences_name_what_differs() -> None:
    a = RunIdentity(label="a.json", tasks=["1", "2", "3"], env="retail", user_model="gpt-4o", data_release="x")
    b = RunIdentity(label="b.json", tasks=["1", "2", "4"], env="retail", user_model="gpt-4.1", data_release="y")
    found = differences(a, b)
    assert found[0] == "task set differs: 1 only in a.json (3); 1 only in b.json (4)"
    assert "user-simulator model differs: 'gpt-4o' in a.json, 'gpt-4.1' in b.json" in found
    assert "data release differs: 'x' in a.json, 'y' in b.json" in found
    assert differences(a, a) == []
    assert differences(a, a.model_copy(update={"data_release": ""})) == []  # unknown is not a difference
    strict = a.model_copy(update={"user_sim_version": "taumesh-strict-v1"})
    plain = b.model_copy(update={"tasks": a.tasks, "user_model": "gpt-4o", "data_release": "x"})
    assert differences(strict, plain) == [] and simulator_note(strict, plain) is None  # b's version is unknown
    plain = plain.model_copy(update={"user_sim_version": "tau-bench-v1"})
    assert differences(strict, plain) == []  # compare refuses it unless --allow-simulator-change; no --force
    assert simulator_note(strict, plain) == (
        "user simulators differ: 'taumesh-strict-v1' in a.json, 'tau-bench-v1' in b.json; the difference mixes the "
        "agents' and the simulators'"
    )


def test_plan_from_the_binomial_model() -> None:
    plan = plan_from_rate(115, 0.6, detect=0.05, width=0.10)
    assert (plan.trials_for_difference, plan.trials_for_width) == (13, 4)
    with pytest.raises(ValueError, match="--detect"):
        plan_from_rate(115, 0.6)
    with pytest.raises(ValueError, match="between 0 and 1"):
        plan_from_rate(115, 1.5, detect=0.05)


def test_plan_from_a_pilot_separates_task_spread_from_trial_noise() -> None:
    # half the tasks always pass, half always fail: no trial noise, all spread between tasks
    fixed = _run(set(range(50)), tasks=100, trials=4)
    plan = plan_from_pilot(fixed, detect=0.05, width=0.05)
    assert plan.within_variance == 0 and plan.between_variance == pytest.approx(0.2525, abs=1e-3)
    assert plan.trials_for_difference == 1 and plan.trials_for_width is None
    assert any("not reachable with 100 tasks" in line for line in plan.lines())
    # every task a coin: the pilot's figures approach the binomial model's
    noisy = TrialTable(TrialOutcome(str(t), j, float((t + j) % 2)) for t in range(100) for j in range(4))
    pilot = plan_from_pilot(noisy, detect=0.05)
    assert pilot.within_variance == pytest.approx(1 / 3) and pilot.between_variance == 0
