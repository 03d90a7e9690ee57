"""Several agents on the same tasks, side by side: a printed table and a plain dict (pandas-ready, pandas-free).

    TAUMESH_API_URL=http://127.0.0.1:8000 TAUMESH_API_KEY=tmk_… python examples/compare_models.py

Models are ``"provider/model"`` strings, the REST fork's ``{"provider": …, "model": …}`` dicts or ``ModelSpec``s.
This one compares the offline oracle with a tool-calling ``openai/gpt-4o`` agent: the server needs
``OPENAI_API_KEY``, or an OpenAI-compatible endpoint it allows (``--allowed-api-base``) named in
``TAUMESH_EXAMPLE_API_BASE``.
"""

import json
import os

import rich

from taumesh.client import ModelSpec, validate_with_comparison

MODELS = [
    ModelSpec(model="oracle", agent_strategy="oracle"),
    {"provider": "openai", "model": "gpt-4o", "agent_strategy": "tool-calling"},
]


def main() -> None:
    """Queue one run per model (the server plays them concurrently), wait for all, print the comparison."""
    comparison = validate_with_comparison(
        MODELS,
        env="retail",
        num_trials=2,
        user_strategy="scripted",
        task_ids=[0, 1, 2],
        api_base=os.environ.get("TAUMESH_EXAMPLE_API_BASE", ""),
    )
    rich.print(comparison)  # a rich table; str(comparison) is the same as plain text
    print(json.dumps(comparison.to_dict(), indent=1))


if __name__ == "__main__":
    main()
