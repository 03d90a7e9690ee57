"""Queue a run, follow its live progress (Server-Sent Events), then read results and trajectories, with asyncio.

TAUMESH_API_URL=http://127.0.0.1:8000 TAUMESH_API_KEY=tmk_… python examples/async_run_with_events.py
"""

import asyncio

from taumesh.client import AsyncTaumeshClient, EpisodeDone, RunEnded


async def main() -> None:
    """A queued run of retail tasks 10-15, its events as they come, and what it stored."""
    async with AsyncTaumeshClient() as client:  # TAUMESH_API_URL, TAUMESH_API_KEY
        accepted = await client.runs.create(
            env="retail", agent_strategy="oracle", user_strategy="scripted", start_index=10, end_index=16
        )
        print(f"queued run {accepted.run_id}")
        async for event in client.stream_events(accepted.run_id):
            if isinstance(event, EpisodeDone):
                print(
                    f"  {event.done}/{event.total}: task {event.task_id} reward {event.reward} "
                    f"(pass rate {event.pass_rate}, ${event.cost_usd:.4f})"
                )
            elif isinstance(event, RunEnded):
                print(f"{event.event}: {event.metrics.pass_hat_k if event.metrics else event.error}")
        results = await client.runs.results(accepted.run_id)
        print(f"{len(results)} results, {sum(r.success for r in results)} successful")
        first = (await client.runs.trajectories(accepted.run_id, limit=1))[0]
        print(f"task {first.task_id}: {len(first.messages)} messages, the first from {first.messages[0]['role']}")


if __name__ == "__main__":
    asyncio.run(main())
