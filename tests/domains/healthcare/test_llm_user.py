"""The model-played user gets the patient's tools and uses them: a dual-control task with the LLM user.

The user model is a scripted OpenAI-compatible server on 127.0.0.1; the agent is the oracle. The user unlocks its
phone, reads the code the agent texted, reads its insurance card; the env runs those calls as the user's.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from taumesh.domains.healthcare.clock import one_time_code
from taumesh.domains.healthcare.patient_tools import PATIENT_TOOLS
from tests.helpers.cli import explain_result, invoke, load_json, results_path
from tests.helpers.fake_model import FakeOpenAI, Reply, in_turn, text, tool_call
from tests.helpers.healthcare import V1, healthcare

TASK_ID = "insurance_update-01"


def test_the_llm_user_plays_the_patient_tools(tmp_path: Path, fake: FakeOpenAI) -> None:
    tasks = healthcare(V1).tasks("base")
    index = [t.id for t in tasks].index(TASK_ID)
    passcode = tasks[index].actions[0].kwargs["passcode"]
    script: list[Reply] = [
        tool_call("unlock_phone", {"passcode": passcode}),
        text("Hi, I have a new insurance card and want my record updated."),
        tool_call("read_sms_inbox", {}),
        text("I read the code."),
        tool_call("view_insurance_card", {}),
        text("I read the card."),
        text("Thanks! ###STOP###"),
    ]
    fake.reset(in_turn(*script))
    result = invoke(
        "run", "--env", V1, "--task-split", "base", "--start-index", str(index),
        "--end-index", str(index + 1), "--agent-strategy", "oracle", "--user-strategy", "llm",
        "--user-model", "gpt-4o-mini",
        "--user-model-provider", "openai", "--user-api-base", fake.url, "--quiet", "--log-dir", tmp_path,
    )  # fmt: skip
    requests = fake.requests
    assert result.exit_code == 0, explain_result(result)
    offered = {tool["function"]["name"] for tool in requests[0]["tools"]}
    assert offered == {tool.name for tool in PATIENT_TOOLS}
    (entry,) = load_json(results_path(tmp_path))
    assert entry["reward"] == 1.0
    user_results = [m for turn in entry["info"]["user_tool_turns"] for m in turn["messages"] if m["role"] == "tool"]
    assert user_results[0]["content"] == "Phone unlocked."
    assert one_time_code(tasks[index].user_id, 1) in user_results[1]["content"]
    card: dict[str, Any] = json.loads(user_results[2]["content"])
    update = next(a for a in tasks[index].actions if a.name == "update_insurance")
    assert card["member_id"] == update.kwargs["member_id"]
