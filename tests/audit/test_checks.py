"""The audit's checks that read the task alone: guessable outputs, duplicate instructions, the basis lint."""

from __future__ import annotations

from taumesh.audit import basis_lint, duplicates, guessable_outputs

INSTRUCTION = "You are Samir Kowalski, born 1992-03-16. The last four digits of your phone are 7174. You paid $1,250."


def test_short_outputs_are_guessable() -> None:
    (flag,) = guessable_outputs(["88"], INSTRUCTION)
    assert flag.kind == "guessable_output"
    assert "2 characters or fewer" in flag.detail and "instruction" not in flag.detail
    (said,) = guessable_outputs(["16"], INSTRUCTION)  # in the date of birth the user gives
    assert "the user's own instruction holds it" in said.detail


def test_outputs_the_instruction_already_holds_are_guessable() -> None:
    assert [f.detail for f in guessable_outputs(["1992-03-16", "7174", "1250", "(7174)"], INSTRUCTION)] == [
        "output '1992-03-16' repeats digits the user's own instruction gives",
        "output '7174' repeats digits the user's own instruction gives",
        "output '1250' repeats digits the user's own instruction gives",  # $1,250 said as τ-bench compares it
        "output '(7174)' repeats digits the user's own instruction gives",
    ]


def test_outputs_the_agent_must_find_are_not_flagged() -> None:
    assert guessable_outputs(["646.25", "#W2378156", "refunded"], INSTRUCTION) == []
    assert guessable_outputs(["1992"], "born 1992-03-16") != []  # a part of a date run is said as it stands
    assert guessable_outputs(["19920"], "born 1992-03-16") == []


def test_duplicates_compare_normalised_instructions_over_the_same_state() -> None:
    found = duplicates(
        [("a", "Cancel my  order, please.", "s0"), ("b", "cancel my order please", "s0"), ("c", "Return it.", "s0")]
    )
    assert set(found) == {"a", "b"}
    assert found["a"].detail == "the same normalised instruction, over the same initial state, as task b"
    assert duplicates([("a", "one", "s0"), ("b", "two", "s0")]) == {}
    assert duplicates([("a", "My phone has no data.", "s1"), ("b", "My phone has no data.", "s2")]) == {}


def test_basis_lint_follows_upstream_pr_411() -> None:
    (blank,) = basis_lint(["DB", "NL_ASSERTION"], {"DB": 1, "NL_ASSERTION": 0})
    assert blank.detail == "the reward basis has NL_ASSERTION but the task lists nothing for it to check"
    (unscored,) = basis_lint(["DB", "COMMUNICATE"], {"DB": 1, "NL_ASSERTION": 2, "ACTION": 3})
    assert "lists 2 NL_ASSERTION check(s)" in unscored.detail and "never scored" in unscored.detail
    assert basis_lint(["DB", "COMMUNICATE"], {"DB": 1, "COMMUNICATE": 0}) == []  # τ²'s default basis: by design
    (no_env,) = basis_lint(["DB"], {"DB": 0})
    assert "DB" in no_env.detail
