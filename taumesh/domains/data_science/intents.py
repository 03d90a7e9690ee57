"""The reference solvers, one per intent: every outcome the policy allows for one subject, and what must be said.

A solver computes the figures a task expects by running the desk's own tool on a copy of the world (:func:`_run`),
so the figure the agent reads from the tool is the one graded. Each returns None when its subject does not make a
task (one reason per trap).
"""

from __future__ import annotations

import copy
import json
import random
from typing import Any

from taumesh.domains import Tool
from taumesh.domains.data_science.analysis_tools import (
    CleanDataset,
    CreateChart,
    PublishSummary,
    RunGroupTest,
    TrainModel,
)
from taumesh.domains.data_science.clock import (
    DROP_LIMIT,
    GRANT_DAYS,
    MAX_PIE_SLICES,
    MIN_GROUP_ROWS,
    TODAY,
    day,
    days_after,
    figure,
    grant_code,
)
from taumesh.domains.data_science.drafts import Draft
from taumesh.domains.factory import World, act

NO_GRANT = (
    "no access grant|not hold an access grant|does not hold a grant|doesn't hold a grant|no grant|not been granted"
    "|not granted access|does not have access|doesn't have access|has no access|no access to"
)
LAPSED = (
    "training has lapsed|training lapsed|training has expired|training expired|training is expired"
    "|training is no longer current|training is not current"
)
TOO_SMALL = "too small|fewer than eight|fewer than 8|less than eight|less than 8|too few|not enough|only has|only have"


def _run(world: World, tool: type[Tool], **kwargs: Any) -> Any:
    """What ``tool`` answers on a copy of ``world`` (the world itself is left as built)."""
    return json.loads(tool.invoke(copy.deepcopy(world), **kwargs))


def _person(world: World, requester_id: str) -> dict[str, Any]:
    return dict(world["requesters"][requester_id])


def _named(world: World, requester_id: str) -> str:
    p = world["requesters"][requester_id]
    return f"{p['first_name']} {p['last_name']} (staff number {p['staff_number']})"


def _dataset_words(world: World, dataset_id: str) -> str:
    return f"the data set {world['datasets'][dataset_id]['name']} ({dataset_id})"


def may_work_on(world: World, dataset_id: str, requester_id: str) -> bool:
    """Whether the requester may have work done on the data set (3.1)."""
    found = world["datasets"][dataset_id]
    if not found["restricted"] or found["owner_id"] == requester_id:
        return True
    return any(
        g["dataset_id"] == dataset_id and g["requester_id"] == requester_id and g["status"] == "active"
        for g in world["grants"].values()
    )


def cleaning_method(world: World, dataset_id: str) -> str:
    """What 4.2 and 4.3 prescribe for the data set's missing spend."""
    found = world["datasets"][dataset_id]
    return "drop_missing" if found["missing_spend"] / found["row_count"] <= DROP_LIMIT else "impute_median"


def _start(world: World, subject: dict[str, Any], intent: str, persona: str, dual: bool = False) -> Draft:
    draft = Draft(
        world=world, requester=_person(world, subject["requester_id"]), intent=intent, persona=persona, dual=dual
    )
    return draft.identify()


def _access_read(draft: Draft, dataset_id: str) -> Draft:
    """The grants are read before work on a restricted data set (1.3, 3.1)."""
    if draft.world["datasets"][dataset_id]["restricted"]:
        draft.cite("3.1").do(act("list_grants", dataset_id=dataset_id))
    return draft


def clean_dataset(world: World, subject: dict[str, Any], rng: random.Random, persona: str) -> Draft | None:
    """Clean by the share missing: drop at most ten percent (4.2), impute above it whatever was asked (4.3)."""
    ds = subject["dataset_id"]
    draft = _start(world, subject, "clean_dataset", persona).cite("1.3", "4.1", "4.4")
    _access_read(draft, ds).do(act("profile_table", table_id=ds))
    draft.goal.append(
        f"You want {_dataset_words(world, ds)} cleaned by dropping the rows whose spend is missing. If the desk's"
        " rules call for another treatment, you accept it. You want to know the mean spend of the cleaned table."
    )
    method = cleaning_method(world, ds)
    if method == "impute_median":
        draft.trap(
            f"4.3: more than ten percent of {ds}'s spend is missing: it is imputed, not dropped",
            act("clean_dataset", dataset_id=ds, method="drop_missing"),
        ).cite("4.3")
    else:
        draft.cite("4.2")
    draft.cite("1.2").do(act("clean_dataset", dataset_id=ds, method=method))
    cleaned = _run(world, CleanDataset, dataset_id=ds, method=method)
    return draft.say("amount", figure(cleaned["mean_spend"]), "4.4: the cleaned table's mean spend")


def summarize_column(world: World, subject: dict[str, Any], rng: random.Random, persona: str) -> Draft | None:
    """Publish a summary for someone who may see the data (3.1, 5.1) and say its mean (5.2)."""
    ds, column = subject["dataset_id"], rng.choice(["spend", "visits", "tenure_months"])
    rid = subject["requester_id"]
    draft = _start(world, subject, "summarize_column", persona).cite("5.1")
    draft.do(act("list_datasets"))
    _access_read(draft, ds)
    words = column.replace("_", " ")
    draft.goal.append(
        f"You want a summary of the {words} column of {_dataset_words(world, ds)} published for you, and you want to"
        " know its mean. If it cannot be done, you want to know why."
    )
    publish = act("publish_summary", table_id=ds, column=column, requester_id=rid)
    if not may_work_on(world, ds, rid):
        draft.trap(f"3.1: {rid} holds no active grant on the restricted {ds}", publish)
        return draft.say("text", NO_GRANT, "3.1: no access grant to the data set")
    report = _run(world, PublishSummary, table_id=ds, column=column, requester_id=rid)
    draft.cite("1.2", "2.2", "5.2").do(publish)
    return draft.say("amount", figure(report["figures"]["mean"]), "5.2: the summary's mean")


def compare_channels(world: World, subject: dict[str, Any], rng: random.Random, persona: str) -> Draft | None:
    """Run Welch's test when each group has eight recorded values (6.2), saying |t| (6.3)."""
    ds, column = subject["dataset_id"], rng.choice(["spend", "visits"])
    rid = subject["requester_id"]
    draft = _start(world, subject, "compare_channels", persona).cite("6.1", "6.2")
    _access_read(draft, ds).do(act("profile_table", table_id=ds))
    words = column.replace("_", " ")
    draft.goal.append(
        f"You want to know whether web and store customers of {_dataset_words(world, ds)} differ in {words}: you"
        " want the desk's comparison test run and its t statistic. If it cannot be done, you want to know why."
    )
    rows = [r for r in world["rows"].values() if r["dataset_id"] == ds and r[column] is not None]
    smallest = min(sum(r["channel"] == c for r in rows) for c in ("web", "store"))
    test = act("run_group_test", table_id=ds, column=column, requester_id=rid)
    if smallest < MIN_GROUP_ROWS:
        draft.trap(f"6.2: a channel of {ds} has only {smallest} recorded {column} values", test)
        return draft.say("text", TOO_SMALL, "6.2: a group is too small for the test")
    report = _run(world, RunGroupTest, table_id=ds, column=column, requester_id=rid)
    draft.cite("1.2", "6.3").do(test)
    return draft.say("amount", figure(report["figures"]["t_statistic"]), "6.3: the t statistic")


def train_model(world: World, subject: dict[str, Any], rng: random.Random, persona: str) -> Draft | None:
    """Train on a table without missing spend (8.2), cleaning first by section 4, and say the test error (8.3)."""
    ds, feature = subject["dataset_id"], rng.choice(["visits", "tenure_months"])
    rid = subject["requester_id"]
    draft = _start(world, subject, "train_model", persona).cite("8.1", "8.2", "1.3")
    _access_read(draft, ds).do(act("profile_table", table_id=ds))
    draft.goal.append(
        f"You want a model that predicts spend from {feature.replace('_', ' ')}, trained on"
        f" {_dataset_words(world, ds)}, and you want to know its test error. If the desk's rules require preparing"
        " the data first, you accept that."
    )
    table = ds
    if world["datasets"][ds]["missing_spend"]:
        method = cleaning_method(world, ds)
        draft.trap(
            f"8.2: {ds} has missing spend: the model is trained on its cleaned table",
            act("train_model", table_id=ds, feature=feature, requester_id=rid),
        )
        draft.cite("4.2" if method == "drop_missing" else "4.3").do(act("clean_dataset", dataset_id=ds, method=method))
        cleaned = copy.deepcopy(world)
        CleanDataset.invoke(cleaned, dataset_id=ds, method=method)
        table, world = f"{ds}-clean", cleaned
    model = _run(world, TrainModel, table_id=table, feature=feature, requester_id=rid)
    draft.cite("1.2", "8.3").do(act("train_model", table_id=table, feature=feature, requester_id=rid))
    return draft.say("amount", figure(model["test_rmse"]), "8.3: the model's test error")


def make_chart(world: World, subject: dict[str, Any], rng: random.Random, persona: str) -> Draft | None:
    """Make the chart asked for, a bar for a pie over more than five categories (7.3), saying its largest value."""
    ds, rid = subject["dataset_id"], subject["requester_id"]
    kind, x = rng.choice([("pie", "region"), ("pie", "channel"), ("bar", "region"), ("pie", "region")])
    y = rng.choice(["spend", "visits"])
    aggregate = "sum" if kind == "pie" else rng.choice(["sum", "mean"])
    shown = "all" if x == "channel" else rng.choice(["all", "web", "store"])
    draft = _start(world, subject, "make_chart", persona).cite("7.1", "7.2")
    _access_read(draft, ds).do(act("profile_table", table_id=ds))
    audience = "all customers" if shown == "all" else f"{shown} customers only"
    draft.goal.append(
        f"You want a {kind} chart of the {'total' if aggregate == 'sum' else 'average'} {y} per {x}, over"
        f" {audience}, made from {_dataset_words(world, ds)}, and you want to know the largest value it shows. If"
        " the desk's rules do not allow that chart, you accept the chart they do allow."
    )
    spec = {"table_id": ds, "x": x, "y": y, "aggregate": aggregate, "channel_filter": shown, "requester_id": rid}
    slices = len({r[x] for r in world["rows"].values() if r["dataset_id"] == ds and shown in ("all", r["channel"])})
    made = kind
    if kind == "pie" and slices > MAX_PIE_SLICES:
        made = "bar"
        draft.trap(
            f"7.3: a pie over {slices} {x} categories is not allowed: a bar chart instead",
            act("create_chart", chart_type="pie", **spec),
        ).cite("7.3")
    chart = _run(world, CreateChart, chart_type=made, **spec)
    draft.cite("1.2", "7.4").do(act("create_chart", chart_type=made, **spec))
    return draft.say("amount", figure(max(chart["plotted"].values())), "7.4: the largest value plotted")


def grant_access(world: World, subject: dict[str, Any], rng: random.Random, persona: str) -> Draft | None:
    """Admit a person whose training is current (3.3) under the owner's code (3.5), saying the expiry (3.4)."""
    ds, person = subject["dataset_id"], subject["person_id"]
    draft = _start(world, subject, "grant_access", persona, dual=True).cite("3.2", "3.3", "3.5")
    p = world["requesters"][person]
    draft.do(
        act("find_requester", first_name=p["first_name"], last_name=p["last_name"], staff_number=p["staff_number"]),
        act("get_requester", requester_id=person),
        act("list_grants", dataset_id=ds),
    )
    draft.goal.append(
        f"You want {_named(world, person)} given access to your restricted {_dataset_words(world, ds)[4:]}, and you"
        " want to know until when the access lasts. When the agent asks, show the approval code for admitting that"
        " person to that data set in your approval app and read it out. If it cannot be granted, you want to know"
        " why."
    )
    grant = act("grant_access", dataset_id=ds, requester_id=person, owner_code=grant_code(ds, person))
    if day(p["privacy_training_expires"]) <= TODAY:
        draft.trap(f"3.3: {person}'s privacy training lapsed on {p['privacy_training_expires']}", grant)
        return draft.say("text", LAPSED, "3.3: the person's privacy training has lapsed")
    draft.cite("1.2", "3.4").do(act("show_grant_code", "user", dataset_id=ds, requester_id=person), grant)
    return draft.say("date", days_after(TODAY, GRANT_DAYS), "3.4: the grant's expiry")


def share_report(world: World, subject: dict[str, Any], rng: random.Random, persona: str) -> Draft | None:
    """Share the author's report with a colleague who may see its data (9.2, 9.3)."""
    report, recipient = world["reports"][subject["report_id"]], subject["person_id"]
    draft = _start(world, subject, "share_report", persona).cite("9.1")
    p = world["requesters"][recipient]
    draft.do(
        act("list_reports", requester_id=draft.rid),
        act("find_requester", first_name=p["first_name"], last_name=p["last_name"], staff_number=p["staff_number"]),
    )
    ds = report["table_id"]
    _access_read(draft, ds)
    draft.goal.append(
        f"You want your report {report['report_id']} on {_dataset_words(world, ds)} shared with your colleague"
        f" {_named(world, recipient)}. If it cannot be shared, you want to know why."
    )
    share = act("share_report", report_id=report["report_id"], recipient_id=recipient)
    if not may_work_on(world, ds, recipient):
        draft.trap(f"9.2: {recipient} holds no active grant on the restricted {ds}", share).cite("9.2")
        return draft.say("text", NO_GRANT, "9.2: the colleague holds no access grant")
    return draft.cite("1.2", "9.2" if world["datasets"][ds]["restricted"] else "9.3").do(share)


def revoke_access(world: World, subject: dict[str, Any], rng: random.Random, persona: str) -> Draft | None:
    """Revoke an active grant on the owner's data set from today (3.6)."""
    grant = world["grants"][subject["grant_id"]]
    draft = _start(world, subject, "revoke_access", persona).cite("3.6", "1.2")
    draft.do(act("list_grants", dataset_id=grant["dataset_id"]))
    holder, ds = _named(world, grant["requester_id"]), _dataset_words(world, grant["dataset_id"])[4:]
    draft.goal.append(f"You want {holder}'s access to your {ds} revoked today.")
    return draft.do(act("revoke_access", grant_id=grant["grant_id"]))
