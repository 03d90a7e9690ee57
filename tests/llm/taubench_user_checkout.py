"""A τ-bench checkout whose ``tau_bench/envs/user.py`` holds τ-bench's user prompts, rebuilt from recorded requests.

The prompt texts are derived from ``../shared/taubench_v1/user_sim/requests.jsonl`` (the bodies τ-bench's own
``user.py`` sent), never written here: the system prompts around the instruction, the greeting, the transcript
labels, the verify and reflect prompts around their transcript and response. The file is laid out in τ-bench's
shape (the classes, methods and functions the importer reads), with a marker that shows if it was ever run.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from taumesh.services.user_sim.strategies.taubench import litellm_message_text
from tests.data.test_import_taubench import MARKER, write_checkout

Record = dict[str, Any]


def load_records(path: Path) -> list[Record]:
    with path.open(encoding="utf-8") as lines:
        return [json.loads(line) for line in lines]


def _escape(text: str) -> str:
    return text.replace("{", "{{").replace("}", "}}")


def _fstring(template: str) -> str:
    """Python source of an f-string whose text is ``template`` (``{name}`` fields, doubled literal braces)."""
    return "f" + repr(template)


def _first(records: list[Record], **match: Any) -> Record:
    return next(r for r in records if all(r[key] == value for key, value in match.items()))


def _system_parts(records: list[Record], strategy: str) -> tuple[str, str, str, str]:
    """(head, before, after, tail): the system prompt is head + before + instruction + after + tail."""
    construct = _first(records, strategy=strategy, phase="construct")["request_body"]["messages"][0]["content"]
    reset = _first(records, strategy=strategy, phase="reset")
    system, instruction = reset["request_body"]["messages"][0]["content"], reset["instruction"]
    at = system.index(instruction)
    left, right = system[:at], system[at + len(instruction) :]
    for k in range(len(left) + 1):
        head, tail = construct[:k], construct[k:]
        if left[:k] == head and right.endswith(tail):
            return head, left[k:], right[: len(right) - len(tail)], tail
    raise AssertionError("the construct and reset system prompts do not differ by the instruction")


def _label(text: str, content: str) -> str:
    """The transcript label in front of ``content`` (the line's start up to ``": "``)."""
    at = text.index(f": {content}")
    return text[text.rindex("\n", 0, at) + 1 : at]


def _around(text: str, transcript: str, response: str) -> str:
    start = text.index(transcript)
    middle = text.index(response, start + len(transcript))
    return (
        _escape(text[:start])
        + "{transcript}"
        + _escape(text[start + len(transcript) : middle])
        + "{response}"
        + _escape(text[middle + len(response) :])
    )


def prompt_texts(records: list[Record]) -> dict[str, Any]:
    """Every text ``user.py`` must hold, recovered from the recorded requests."""
    head, before, after, tail = _system_parts(records, "llm")
    react_head, _, _, react_tail = _system_parts(records, "react")
    reset = _first(records, strategy="verify", phase="step", call_kind="generate")
    messages = reset["request_body"]["messages"]
    check = next(r for r in records if r["seq"] == reset["seq"] + 1)["request_body"]["messages"][0]["content"]
    labels = {"user": _label(check, messages[1]["content"]), "assistant": _label(check, messages[2]["content"])}

    def transcript(history: list[dict[str, str]]) -> str:
        return "\n".join(f"{labels.get(m['role'], m['role'].capitalize())}: {m['content']}" for m in history)

    verify = _around(check, transcript(messages), litellm_message_text(reset["fake_reply"]))
    reflect_record = _first(records, strategy="reflection", call_kind="reflect")
    phase = [
        r
        for r in records
        if r["strategy"] == "reflection"
        and (r["domain"], r["task_index"], r["phase"], r["step"])
        == (reflect_record["domain"], reflect_record["task_index"], reflect_record["phase"], reflect_record["step"])
    ]
    history, initial = phase[0]["request_body"]["messages"], phase[0]["fake_reply"]
    reflect = _around(reflect_record["request_body"]["messages"][0]["content"], transcript(history), initial)
    return {
        "greeting": messages[1]["content"],
        "before": before,
        "after": after,
        "llm": _escape(head) + "{instruction_display}" + _escape(tail),
        "react": _escape(react_head) + "{instruction_display}" + _escape(react_tail),
        "labels": labels,
        "verify": verify,
        "reflect": reflect,
    }


def user_py(texts: dict[str, Any]) -> str:
    """``user.py`` in τ-bench's shape, holding ``texts``."""
    display = f"(({texts['before']!r} + instruction + {texts['after']!r}) if instruction is not None else '')"
    return f"""{MARKER}
class LLMUserSimulationEnv:
    def build_system_prompt(self, instruction=None):
        instruction_display = {display}
        return {_fstring(texts["llm"])}

    def reset(self, instruction=None):
        self.messages = [
            {{"role": "system", "content": self.build_system_prompt(instruction=instruction)}},
            {{"role": "user", "content": {texts["greeting"]!r}}},
        ]


class ReactUserSimulationEnv(LLMUserSimulationEnv):
    def build_system_prompt(self, instruction=None):
        instruction_display = {display}
        return {_fstring(texts["react"])}


def map_role_label(role):
    if role == "user":
        return {texts["labels"]["user"]!r}
    elif role == "assistant":
        return {texts["labels"]["assistant"]!r}
    else:
        return role.capitalize()


def verify(model, provider, response, messages):
    transcript = "\\n".join(f"{{map_role_label(m['role'])}}: {{m['content']}}" for m in messages)
    prompt = {_fstring(texts["verify"])}
    return prompt


def reflect(model, provider, response, messages):
    transcript = "\\n".join(f"{{map_role_label(m['role'])}}: {{m['content']}}" for m in messages)
    prompt = {_fstring(texts["reflect"])}
    return prompt
"""


def write_taubench_checkout(root: Path, records: list[Record]) -> Path:
    """The importer tests' miniature checkout, plus a ``user.py`` with τ-bench's user prompts."""
    write_checkout(root)
    (root / "tau_bench" / "envs" / "user.py").write_text(user_py(prompt_texts(records)), encoding="utf-8")
    return root
