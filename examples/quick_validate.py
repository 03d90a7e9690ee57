"""Run a few tasks synchronously and print the REST fork's response: per-episode rewards and metrics.

    TAUMESH_API_URL=http://127.0.0.1:8000 TAUMESH_API_KEY=tmk_… python examples/quick_validate.py

The oracle agent and the scripted user need no model; for a real agent pass ``agent_strategy="tool-calling"``
and ``user_strategy="llm"`` (the server holds the provider keys).
"""

from taumesh.client import quick_validate


def main() -> None:
    """One synchronous run of retail tasks 0-2, twice each."""
    answer = quick_validate(
        "openai",
        "gpt-4o",
        "retail",
        agent_strategy="oracle",
        user_strategy="scripted",
        task_ids=[0, 1, 2],
        num_trials=2,
    )
    print(f"run {answer.run_id}: {answer.status} in {answer.execution_time_seconds:.1f} s")
    for result in answer.results:
        print(f"  task {result.task_id} trial {result.trial}: reward {result.reward}")
    if answer.metrics is not None:
        print(f"success rate {answer.metrics.success_rate:.2f}, pass^k {answer.metrics.pass_hat_k}")


if __name__ == "__main__":
    main()
