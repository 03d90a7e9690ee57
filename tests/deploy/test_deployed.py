"""The deploy tier: the real image, brought up by docker compose from the project's own files, plays real runs.

Run by ``bash scripts/test-deploy.sh`` (which installs the engine, builds the image and names it in
``TAUMESH_DEPLOY_IMAGE``); without that variable these tests skip, saying so. They show, on real containers:

* a run's every episode scored across the env, user-sim (two replicas), agent and scorer containers, and each
  episode one trace across the five services at the OTLP receiver, with no orphan span and no key in any attribute;
* a user-sim container and then the env container killed mid-run, and a third user-sim added by
  ``docker compose up --scale user-sim=3``, with no episode lost, repeated or scored as a fault, and the episodes
  after the scale-up served by three user-sim replicas.
"""

from __future__ import annotations

import os
import time
from collections import Counter
from collections.abc import Iterator

import pytest

from tests.helpers.containers import CANARY_KEY, DEPLOY_TIER, IMAGE_ENV, SERVICES, Deployment, episode_traces, wait_for
from tests.helpers.telemetry import assert_one_tree

pytestmark = DEPLOY_TIER

TASKS = 114
"""τ² retail's base split: the compose file's default run (oracle agent, scripted user)."""
SERVICE_NAMES = {"taumesh-orchestrator", *(f"taumesh-{service}" for service in SERVICES)}


@pytest.fixture(scope="module")
def deployment(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Deployment]:
    """The services up and healthy (the one-shot data fetch first), torn down with their volumes after."""
    folder = tmp_path_factory.mktemp("deploy")
    folder.chmod(0o755)
    deployed = Deployment(
        project=f"taumesh-deploy-tier-{os.getpid()}",
        image=os.environ[IMAGE_ENV],
        folder=folder,
        settings={
            # slow episodes enough for a run to outlast the kills and the scale-up
            "TAUMESH_DEPLOY_USER_LATENCY_MS": "400",
            # user-sim connections closed every 10 s: the orchestrator re-resolves the name and finds new replicas
            "TAUMESH_DEPLOY_CONNECTION_AGE": "10",
        },
    )
    started = time.monotonic()
    try:
        deployed.run("up", "--detach", "--no-build", "jaeger")
        deployed.run("up", "--detach", "--no-build", "--wait", *SERVICES, timeout=900)
        print(f"\ndeploy tier: services healthy {time.monotonic() - started:.0f} s after `up`")
        yield deployed
    finally:
        deployed.down()


def fresh_results(deployment: Deployment) -> None:
    for stale in deployment.results_dir.iterdir():
        stale.unlink()


def test_a_run_scores_every_episode_across_containers_each_one_trace(deployment: Deployment) -> None:
    fresh_results(deployment)
    started = time.monotonic()
    done = deployment.run(
        "run", "--rm", "--no-deps", "-e", "TAUMESH_NUM_TRIALS=1", "-e", "TAUMESH_MAX_CONCURRENCY=8", "orchestrator"
    )
    episodes = deployment.results()
    print(f"deploy tier: {len(episodes)} episodes scored across containers in {time.monotonic() - started:.0f} s")
    assert len(episodes) == TASKS, done.stdout[-2000:]
    assert all(episode["reward"] == 1.0 for episode in episodes)
    assert not list(deployment.results_dir.glob("*errors*")), "the run reported infrastructure errors"

    # The services export in batches: wait until every episode's trace has all five services.
    def complete() -> bool:
        traces = episode_traces(deployment.spans())
        return len(traces) == TASKS and all({s.service for s in t} >= SERVICE_NAMES for t in traces.values())

    wait_for(complete, "every episode's trace to hold spans of all five services", timeout=120)
    spans = deployment.spans()
    traces = episode_traces(spans)
    for trace in traces.values():
        assert_one_tree(trace)
    per_episode = Counter(len(trace) for trace in traces.values())
    print(f"deploy tier: {len(traces)} traces, one per episode; spans per trace {dict(sorted(per_episode.items()))}")
    leaked = [(s.service, s.name) for s in spans if CANARY_KEY in repr(s.attributes) or CANARY_KEY in repr(s.events)]
    assert not leaked, f"spans carrying the API key: {leaked[:5]}"


def test_killed_containers_and_a_scale_up_mid_run_lose_nothing(deployment: Deployment) -> None:
    fresh_results(deployment)
    trials = 4
    before = deployment.episodes_ended()
    run = deployment.start_run(TAUMESH_NUM_TRIALS=str(trials), TAUMESH_MAX_CONCURRENCY="4")
    try:
        user_sims = deployment.containers("user-sim")
        assert len(user_sims) == 2, user_sims
        wait_for(lambda: deployment.episodes_ended() >= before + 40, "40 episodes before the first kill")
        deployment.kill(user_sims[0])
        wait_for(lambda: deployment.episodes_ended() >= before + 100, "60 more episodes with one user-sim left")
        (env,) = deployment.containers("env")
        deployment.kill(env)
        time.sleep(2)
        deployment.start(env)  # as its supervisor would (compose's restart policy, a Deployment's ReplicaSet)
        wait_for(lambda: deployment.episodes_ended() >= before + 140, "40 more episodes after the env's restart")
        scaled_at = time.time_ns()
        deployment.run(
            "up", "--detach", "--no-build", "--no-deps", "--no-recreate", "--scale", "user-sim=3", "user-sim"
        )
        assert run.wait(timeout=900) == 0, (deployment.folder / "orchestrator.log").read_text()[-3000:]
    finally:
        if run.poll() is None:
            run.kill()
    log = (deployment.folder / "orchestrator.log").read_text(encoding="utf-8")
    assert "rebuilt on a new session" in log, "the env's kill hit no episode in flight: the test proved nothing"
    episodes = deployment.results()
    keys = Counter((str(e["task_id"]), e["trial"]) for e in episodes)
    assert len(episodes) == TASKS * trials, f"{len(episodes)} episodes, not {TASKS * trials}"
    assert max(keys.values()) == 1, f"episodes repeated: {[k for k, n in keys.items() if n > 1][:5]}"
    assert all(episode["reward"] == 1.0 for episode in episodes), "an episode was scored as a fault"
    assert not list(deployment.results_dir.glob("*errors*")), "the run reported infrastructure errors"

    wait_for(lambda: deployment.episodes_ended() >= before + TASKS * trials, "every episode's span", timeout=60)
    after = {
        str(span.resource.get("service.instance.id"))
        for span in deployment.spans()
        if span.service == "taumesh-user-sim" and span.start_ns > scaled_at
    }
    print(f"deploy tier: {len(episodes)} episodes, 0 lost; user-sim replicas serving after the scale-up: {len(after)}")
    assert len(after) == 3, f"episodes after the scale-up were served by {len(after)} user-sim replicas, not 3"
