"""``--grader strict`` on τ² retail: tasks whose gold errors are left out, and declared sets compare in any order.

The tasks left out are exactly those whose gold τ²'s own code recorded errors for (the shared vectors' ``num_errors``),
through ``taumesh run`` (in this process, typer's runner: the same command without a process start of its own). An
order-swapped trajectory of a task the audit flags ``order_sensitive`` is played through the real env and graded by
the real scorer (gRPC, in-process on loopback): the faithful grader fails it, the strict one passes it; the faithful
grade of the gold itself is unchanged. The Gym environment with the strict grader does the same, and never draws a
task whose gold errors.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import grpc
import gymnasium as gym
import pytest

from taumesh.convert import message_to_proto, task_ref_to_proto, termination_to_proto
from taumesh.domains import Catalog
from taumesh.models import TaskRef
from taumesh.orchestrator.audit.replay import Played, play
from taumesh.orchestrator.audit.trajectories import DomainFacts, gold, reorderings
from taumesh.orchestrator.clients import ServiceClients
from taumesh.orchestrator.config import ServiceAddresses
from taumesh.orchestrator.gym import AGENT_ENV_ID
from taumesh.orchestrator.run.stack import service_stack
from taumesh.scorer.v1 import scorer_pb2
from tests.audit.conftest import audited, flagged
from tests.helpers.cli import ORACLE, explain_result, invoke, load_json, results_path
from tests.helpers.paths import read_jsonl
from tests.helpers.tau2 import TAU2_EXPECTED


def erroring_gold() -> set[str]:
    """τ² retail's tasks whose gold τ²'s own evaluation recorded errors for."""
    return {r["task_id"] for r in read_jsonl(TAU2_EXPECTED / "vectors" / "retail.jsonl") if r["num_errors"]}


def test_strict_run_leaves_out_the_tasks_whose_gold_errors(tau2_data: Path, tmp_path: Path) -> None:
    strict = invoke("run", "--env", "tau2-retail", "--grader", "strict", *ORACLE, "--log-dir", tmp_path / "strict")
    assert strict.exit_code == 0, explain_result(strict)
    faithful = invoke("run", "--env", "tau2-retail", *ORACLE, "--log-dir", tmp_path / "faithful")
    assert faithful.exit_code == 0, explain_result(faithful)
    left_out = erroring_gold()
    assert len(left_out) == 18
    strict_results = load_json(results_path(tmp_path / "strict"))
    faithful_results = load_json(results_path(tmp_path / "faithful"))
    assert len(faithful_results) == 114
    played = {str(entry["task_id"]) for entry in strict_results}  # τ-bench's layout writes "2" as 2
    assert played == {str(entry["task_id"]) for entry in faithful_results} - left_out
    for entry in strict_results:
        assert entry["info"]["validity"]["grader"] == "strict" and entry["info"]["run"]["grader"] == "strict"
        assert set(entry["info"]["validity"]["excluded"]) == left_out
    assert all("grader" not in entry["info"]["run"] for entry in faithful_results)  # faithful: as before
    assert "strict grader: 18 selected tasks left out" in strict.stdout
    assert "[grader strict]" in strict.stdout


def test_strict_run_of_only_erroring_gold_is_refused(tau2_data: Path, tmp_path: Path) -> None:
    task_id = sorted(erroring_gold())[0]
    run = invoke(
        "run", "--env", "tau2-retail", "--grader", "strict", "--task-ids", task_id, *ORACLE, "--log-dir", tmp_path
    )  # fmt: skip
    assert run.exit_code == 2, explain_result(run)
    said = run.stderr.replace("\n", " ")
    assert "the strict grader leaves out all 1 selected tasks of tau2-retail base" in said and "gold action" in said
    assert "Traceback" not in run.output and not list(tmp_path.glob("*.json"))


async def graded(clients: ServiceClients, ref: TaskRef, played: Played, grader: int) -> float:
    request = scorer_pb2.ScoreEpisodeRequest(
        task=task_ref_to_proto(ref),
        termination=termination_to_proto(played.termination),
        final_data_hash=played.final_hash,
        conversation=[message_to_proto(message) for message in played.conversation],
        grader=grader,  # type: ignore[arg-type]
    )
    response: scorer_pb2.ScoreEpisodeResponse = await clients.scorer.ScoreEpisode(request, timeout=60)
    return response.reward


@pytest.fixture(scope="module")
def sensitive(tau2_data: Path) -> set[str]:
    """τ² retail's tasks the audit flags ``order_sensitive`` whose gold replays cleanly (one audit for the module)."""
    report = audited("tau2-retail", None, tau2_data)
    return {str(task_id) for task_id in flagged(report, "order_sensitive")} - erroring_gold()


def test_an_order_swapped_trajectory_passes_strict_and_fails_faithful(tau2_data: Path, sensitive: set[str]) -> None:
    assert sensitive, "τ² retail has order-sensitive tasks whose gold replays cleanly"
    domain = Catalog(tau2_data).get("tau2-retail")
    facts = DomainFacts.of(domain)
    tasks = {task.id: task for task in domain.tasks("base")}

    async def swapped_and_gold(task_id: str) -> tuple[list[float], list[float]]:
        task = tasks[task_id]
        ref = TaskRef(domain="tau2-retail", split="base", task_id=task_id)
        said = " ".join(task.outputs) or "Done."
        async with service_stack(ServiceAddresses(), tau2_data) as clients:
            _, variant = reorderings(task, facts)[0]
            swapped = await play(clients, ref, variant.model_copy(update={"says": said}), task.instruction)
            original = await play(clients, ref, gold(task, facts).model_copy(update={"says": said}), task.instruction)
            graders = (scorer_pb2.GRADER_FAITHFUL, scorer_pb2.GRADER_STRICT)
            return (
                [await graded(clients, ref, swapped, grader) for grader in graders],
                [await graded(clients, ref, original, grader) for grader in graders],
            )

    task_id = sorted(sensitive)[0]
    swapped, original = asyncio.run(swapped_and_gold(task_id))
    assert swapped == [0.0, 1.0], f"task {task_id}: faithful, strict"
    assert original == [1.0, 1.0]


def test_the_scorer_refuses_to_grade_an_erroring_gold_under_strict_only(tau2_data: Path) -> None:
    task_id = sorted(erroring_gold())[0]
    ref = TaskRef(domain="tau2-retail", split="base", task_id=task_id)

    async def ask(grader: int) -> grpc.aio.AioRpcError | float:
        request = scorer_pb2.ScoreEpisodeRequest(
            task=task_ref_to_proto(ref),
            termination=termination_to_proto("max_steps"),
            grader=grader,  # type: ignore[arg-type]
        )
        async with service_stack(ServiceAddresses(), tau2_data) as clients:
            try:
                response: scorer_pb2.ScoreEpisodeResponse = await clients.scorer.ScoreEpisode(request, timeout=60)
            except grpc.aio.AioRpcError as exc:
                return exc
            return response.reward

    refused = asyncio.run(ask(scorer_pb2.GRADER_STRICT))
    assert isinstance(refused, grpc.aio.AioRpcError) and refused.code() == grpc.StatusCode.FAILED_PRECONDITION
    assert "gold errors" in (refused.details() or "") and "gold action" in (refused.details() or "")
    assert asyncio.run(ask(scorer_pb2.GRADER_FAITHFUL)) == 0.0  # not ended: 0, as τ² scores it
    assert pytest.approx(0.0) == asyncio.run(ask(scorer_pb2.GRADER_UNSPECIFIED))


def test_gym_strict_grader_leaves_out_erroring_gold_and_passes_a_swapped_order(
    tau2_data: Path, sensitive: set[str]
) -> None:
    """The Gym environment with ``grader="strict"``: the caller plays the agent through Gymnasium's API."""
    task_id = sorted(sensitive)[0]
    domain = Catalog(tau2_data).get("tau2-retail")
    task = next(task for task in domain.tasks("base") if task.id == task_id)
    _, variant = reorderings(task, DomainFacts.of(domain))[0]
    rewards = {}
    for grader in ("faithful", "strict"):
        env = gym.make(AGENT_ENV_ID, domain="tau2-retail", grader=grader)
        try:
            if grader == "strict":
                drawn = {env.reset(seed=seed)[1]["task_id"] for seed in range(10)}
                assert drawn and not drawn & erroring_gold()
                with pytest.raises(ValueError, match=r"is not graded by the strict grader: .*gold errors"):
                    env.reset(options={"task_id": sorted(erroring_gold())[0]})
            env.reset(options={"task_id": task_id})
            for call in variant.calls:
                env.step(json.dumps({"name": call.name, "arguments": json.loads(call.arguments)}))
            _, reward, terminated, _, _ = env.step(" ".join(task.outputs) or "Done. Anything else?")
            assert terminated
            rewards[grader] = float(reward)
        finally:
            env.close()
    assert rewards == {"faithful": 0.0, "strict": 1.0}


def test_rescore_regrades_with_the_grader_the_file_records(
    tau2_data: Path, sensitive: set[str], tmp_path: Path
) -> None:
    """A strict run's file, its one trajectory's declared-set lists reversed, re-graded by ``taumesh rescore``."""
    task_id = sorted(sensitive)[0]
    declared = Catalog(tau2_data).get("tau2-retail").spec.unordered_arguments or {}
    run = invoke(
        "run", "--env", "tau2-retail", "--grader", "strict", "--task-ids", task_id, *ORACLE, "--log-dir", tmp_path
    )  # fmt: skip
    assert run.exit_code == 0, explain_result(run)
    path = results_path(tmp_path)
    [entry] = load_json(path)
    swapped = False
    for message in entry["traj"]:
        for call in message.get("tool_calls") or []:
            arguments = json.loads(call["function"]["arguments"])
            for group in declared.get(call["function"]["name"], ()):
                if not swapped and all(len(arguments.get(name) or []) > 1 for name in group):
                    for name in group:
                        arguments[name] = list(reversed(arguments[name]))
                    call["function"]["arguments"] = json.dumps(arguments)
                    swapped = True
    assert swapped
    rewards = {}
    for grader in ("strict", "faithful"):
        entry["info"]["validity"]["grader"] = grader
        if grader == "faithful":
            entry["info"]["run"].pop("grader")
        path.write_text(json.dumps([entry]), encoding="utf-8")
        rescored = invoke("rescore", path, "--out", tmp_path / f"{grader}.json")
        [row] = json.loads((tmp_path / f"{grader}.json").read_text(encoding="utf-8"))
        rewards[grader] = row["reward"]
        assert rescored.exit_code in (0, 1), explain_result(rescored)  # 1: a reward differs from the recorded one
    assert rewards == {"strict": 1.0, "faithful": 0.0}
