"""The runs a server holds: list them, read one, cancel one that is still going.

TAUMESH_API_URL=http://127.0.0.1:8000 TAUMESH_API_KEY=tmk_… python examples/manage_runs.py
"""

from taumesh.client import TaumeshClient


def main() -> None:
    """Queue a long run, cancel it, and list the latest runs."""
    with TaumeshClient() as client:
        accepted = client.runs.create(env="retail", agent_strategy="oracle", user_strategy="scripted")
        cancelled = client.runs.cancel(accepted.run_id)
        print(f"run {cancelled.id}: {cancelled.status} after {cancelled.done_episodes} episodes")
        latest = client.runs.list(limit=5)
        print(f"{latest.total} runs on the server, the latest:")
        for run in latest.runs:
            print(f"  {run.id} {run.status:<9} {run.env} {run.model} {run.done_episodes}/{run.total_episodes}")


if __name__ == "__main__":
    main()
