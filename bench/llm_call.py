"""CPU per model call through ``taumesh.llm.complete``, variants side by side in one process (issue 29, item 2).

The request is the tool-calling agent's first one on τ² retail (its policy, its 15 tools, the customer's opening),
sent to ``bench/_live_model.py`` with no latency, ``--in-flight`` calls at a time. Rounds alternate the variants
(the order reversed every other round) after a discarded warm-up, and each round's CPU (``process_time``, every
thread of this process) is divided by its calls; the medians and each variant's ratio to the first are printed.

Variants:

* ``lean``: taumesh's default (litellm's success logging skipped when no callback listens; ``_litellm.py``);
* ``stock``: litellm's own success logging on every call (``lean_success_logging(False)``);
* ``priced``: the default, with a model litellm has a price for (``openai/gpt-4o``, same server): the bench's models
  are unpriced, which makes litellm search its price table on every call.

    .venv/bin/python bench/llm_call.py                                   # lean stock priced, 10 rounds × 200 calls
    .venv/bin/python bench/llm_call.py --rounds 2 --calls 4 --in-flight 2    # the test's
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

PROJECT_ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(PROJECT_ROOT))

from taumesh.domains import Catalog  # noqa: E402
from taumesh.domains.tau2 import require  # noqa: E402
from taumesh.llm._litellm import lean_success_logging  # noqa: E402
from taumesh.llm.client import complete  # noqa: E402
from taumesh.models import ModelSettings, ToolSchema  # noqa: E402

MODEL_SERVER = PROJECT_ROOT / "bench" / "_live_model.py"
VARIANTS = ("lean", "stock", "priced")
BENCH_MODEL, PRICED_MODEL = "openai/bench-agent", "openai/gpt-4o"


def agent_request() -> tuple[list[dict[str, Any]], list[ToolSchema]]:
    """The tool-calling agent's first request of τ² retail's first task: policy, greeting, the customer's opening."""
    data = require()
    domain = Catalog(data).get("tau2-retail")
    tools = [ToolSchema.model_validate(schema["function"]) for schema in domain.tool_schemas]
    retail = data / "data" / "domains" / "retail"
    scenario = json.loads((retail / "tasks.json").read_text(encoding="utf-8"))[0]["user_scenario"]["instructions"]
    messages = [
        {"role": "system", "content": (retail / "policy.md").read_text(encoding="utf-8")},
        {"role": "assistant", "content": "Hi! How can I help you today?"},
        {"role": "user", "content": f"{scenario['known_info']} {scenario['reason_for_call']}"},
    ]
    return messages, tools


def variant_setup(name: str, url: str) -> Callable[[], ModelSettings]:
    """What a round of ``name`` calls with, after switching litellm's success logging for it."""

    def setup() -> ModelSettings:
        lean_success_logging(name != "stock")
        return ModelSettings(model=PRICED_MODEL if name == "priced" else BENCH_MODEL, api_base=url)

    return setup


async def round_cpu_ms(
    settings: ModelSettings, request: tuple[list[dict[str, Any]], list[ToolSchema]], calls: int, in_flight: int
) -> float:
    """CPU ms per call over ``calls`` calls, ``in_flight`` at a time."""
    messages, tools = request
    started = time.process_time()
    for _ in range(calls // in_flight):
        await asyncio.gather(*(complete(settings, messages, tools) for _ in range(in_flight)))
    return (time.process_time() - started) * 1000 / (calls // in_flight * in_flight)


async def measure(url: str, variants: list[str], rounds: int, calls: int, in_flight: int) -> dict[str, list[float]]:
    request = agent_request()
    setups = {name: variant_setup(name, url) for name in variants}
    for setup in setups.values():  # warm-up: imports, connections, litellm's caches
        await round_cpu_ms(setup(), request, max(in_flight, calls // 4), in_flight)
    figures: dict[str, list[float]] = {name: [] for name in variants}
    for index in range(rounds):
        for name in variants if index % 2 == 0 else variants[::-1]:
            figures[name].append(await round_cpu_ms(setups[name](), request, calls, in_flight))
    lean_success_logging()
    return figures


def report(figures: dict[str, list[float]]) -> None:
    first = statistics.median(next(iter(figures.values())))
    for name, values in figures.items():
        median = statistics.median(values)
        print(
            f"{name:7s} CPU ms/call median {median:6.2f} (min {min(values):.2f}, max {max(values):.2f}), "
            f"ratio {median / first:.2f}",
            flush=True,
        )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--variants", nargs="+", choices=VARIANTS, default=list(VARIANTS))
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--calls", type=int, default=200, help="calls per round and variant")
    parser.add_argument("--in-flight", type=int, default=10)
    parser.add_argument("--out", type=Path, default=None, help="also write the per-round figures as JSON")
    args = parser.parse_args(argv)
    tasks = require() / "data" / "domains" / "retail" / "tasks.json"
    server = subprocess.Popen(
        [sys.executable, str(MODEL_SERVER), "--tasks", str(tasks), "--agent-latency", "0", "--user-latency", "0"],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert server.stdout is not None
        url = server.stdout.readline().split()[-1]
        figures = asyncio.run(measure(url, args.variants, args.rounds, args.calls, args.in_flight))
    finally:
        server.terminate()
        server.wait()
    report(figures)
    if args.out is not None:
        args.out.write_text(json.dumps(figures, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
