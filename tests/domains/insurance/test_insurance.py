"""The insurance domain's own promises (the bar every τ++ domain meets is tests/domains/test_tau_plus_plus.py).

- the generator rebuilds the shipped files byte for byte, from three worlds that keep their invariants, and no test
  entity is in train;
- the desk's rules that the tools enforce: a document reaches a claim only from the policyholder's phone, after the
  upload link, and only a claim's required documents count (in any order); only the last security code verifies;
- the traps the issue names (waiting periods, exclusions, missing documents) are refusals with a reason: the
  forbidden write scores 0, and so does the refusal without its reason.
"""

from __future__ import annotations

import copy
import functools
from pathlib import Path

from taumesh.domains import Catalog, Domain, Episode, Registry, Session
from taumesh.domains.factory import FactoryTask, coverage, outcome_score
from taumesh.domains.insurance import DATA, IDENTITY_TOOLS, RELEASE, build, plugin
from taumesh.domains.insurance.build import generated_files
from taumesh.domains.insurance.clock import security_code
from taumesh.domains.insurance.policy import POLICY
from taumesh.domains.insurance.world import TEST_WORLDS, worlds
from taumesh.models import ChatMessage


@functools.cache
def _domain() -> Domain:
    return Catalog(Path("unused"), Registry.discover()).get("insurance")


def _tasks(split: str = "base") -> list[FactoryTask]:
    return [t for t in _domain().tasks(split) if isinstance(t, FactoryTask)]


def test_the_generator_rebuilds_the_shipped_files_byte_for_byte() -> None:
    for name, text in generated_files().items():
        assert (DATA / name).read_text(encoding="utf-8") == text, (
            f"{name} is stale: run python -m taumesh.domains.insurance.build"
        )
    assert _domain().data_release == RELEASE


def test_three_worlds_keep_their_invariants_and_test_entities_are_never_in_train() -> None:
    built = worlds()  # raises on a broken invariant
    assert [w.tag for w in built] == ["w1", "w2", "w3"]
    train, test = _tasks("train"), _tasks("test")
    release = build.RELEASE
    assert {release.world_of(t) for t in test} == set(TEST_WORLDS)
    assert not {release.world_of(t) for t in train} & TEST_WORLDS
    assert not set().union(*map(release.touched, train)) & set().union(*map(release.touched, test))
    assert len(train) + len(test) == len(_tasks())
    report = coverage(POLICY, [(t.id, t.clauses) for t in _tasks()])
    assert not report.unknown


def _unlocked_session(claim_id: str) -> tuple[Session, dict[str, object]]:
    """A fresh session in which the claim's policyholder has unlocked their phone, and the claim."""
    session = Session(_domain())
    claim = _domain().base_data["claims"][claim_id]
    holder = claim["policyholder_id"]
    assert not session.call(
        "unlock_phone", {"passcode": _domain().base_data["devices"][holder]["passcode"]}, "user"
    ).error
    return session, claim


def test_documents_come_only_from_the_policyholders_phone_after_the_link_in_any_order() -> None:
    claim_id, photos = next(
        (c["claim_id"], photos)
        for c in _domain().base_data["claims"].values()
        if c["status"] == "awaiting_documents"
        and len(
            photos := [
                p["photo_id"]
                for p in _domain().base_data["devices"][c["policyholder_id"]]["photos"]
                if p["document_type"] in c["required_documents"] and p["document_type"] not in c["documents_received"]
            ]
        )
        == 2
    )
    session, claim = _unlocked_session(claim_id)
    before = session.call("upload_document", {"claim_id": claim_id, "photo_id": photos[0]}, "user")
    assert before.error and "no upload link" in before.observation
    assert session.call("upload_document", {"claim_id": claim_id, "photo_id": photos[0]}).known_tool is False
    states = []
    for order in (photos, photos[::-1]):
        session, _ = _unlocked_session(claim_id)
        session.call("send_upload_link", {"claim_id": claim_id})
        for photo in order:
            assert not session.call("upload_document", {"claim_id": claim_id, "photo_id": photo}, "user").error
        states.append(session.data_hash())
    assert states[0] == states[1], "a claim's documents are a set: the upload order does not matter"
    holder = str(claim["policyholder_id"])
    other = next(
        p["photo_id"]
        for p in _domain().base_data["devices"][holder]["photos"]
        if p["document_type"] not in claim["required_documents"]  # type: ignore[operator]
    )
    refused = session.call("upload_document", {"claim_id": claim_id, "photo_id": other}, "user")
    assert refused.error and "does not ask for" in refused.observation


def test_only_the_last_security_code_verifies() -> None:
    holder = "ph-w1-001"
    session = Session(_domain())
    session.call("text_security_code", {"policyholder_id": holder})
    session.call("text_security_code", {"policyholder_id": holder})
    first = session.call("confirm_security_code", {"policyholder_id": holder, "code": security_code(holder, 1)})
    assert first.error and "last one sent" in first.observation
    last = session.call("confirm_security_code", {"policyholder_id": holder, "code": security_code(holder, 2)})
    assert not last.error and session.data["verifications"][holder]["verified"] is True


def _refusal_score(task: FactoryTask, says: str) -> float:
    """The grade of the gold's actions followed by ``says`` alone (no statement of the task's)."""
    session = Session(_domain())
    for action in task.actions:
        session.call(action.name, copy.deepcopy(action.kwargs), action.requestor)
    conversation = [ChatMessage(role="user", content=task.instruction), ChatMessage(role="assistant", content=says)]
    episode = Episode(
        _domain(), task, conversation, "user_stop", session.data_hash(), plugin.gold_hash(_domain(), task)
    )
    return plugin.score(episode).reward


def test_the_issues_traps_are_refusals_whose_reason_and_restraint_both_count() -> None:
    tasks = _tasks()
    traps = {
        "a waiting period": [t for t in tasks if t.trap and "4.2" in t.clauses],
        "an exclusion": [t for t in tasks if t.trap and "4.3" in t.clauses],
        "a missing document": [t for t in tasks if t.trap and "6.4" in t.clauses],
    }
    assert all(traps.values()), {kind: len(found) for kind, found in traps.items()}
    domain = _domain()
    for task in (t for found in traps.values() for t in found):
        gold = list(task.actions)
        assert outcome_score(plugin, domain, task, gold) == 1.0, task.id
        assert _refusal_score(task, "I'm sorry, but I can't do that for you.") == 0.0, task.id  # no reason given
        verified = max(i for i, a in enumerate(gold) if a.name in IDENTITY_TOOLS) + 1
        for forbidden in task.forbidden:
            wrong = [*gold[:verified], copy.deepcopy(forbidden), *gold[verified:]]
            assert outcome_score(plugin, domain, task, wrong) == 0.0, (task.id, forbidden.name)
    waiting = traps["a waiting period"][0]
    assert [s.kind for s in waiting.statements] == ["date"]  # the day coverage begins
    missing = traps["a missing document"][0]
    assert missing.dual_control and any(a.requestor == "user" for a in missing.actions)
