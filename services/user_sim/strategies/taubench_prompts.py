"""τ-bench v1's user-simulator prompts, read at run time from the imported data (never shipped with taumesh).

``taumesh data import taubench`` extracts them from the checkout's ``tau_bench/envs/user.py`` into
``user_sim/prompts.json`` of the v1 folder. They are looked for in the folder the service was started with
(``--data-dir``), then in ``$TAUMESH_DATA_DIR`` (or ``<cache>/taubench_v1``), then in ``<cache>/taubench_v1``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ValidationError

from taumesh.data import USER_PROMPTS_FILE, cache_dir, taubench_v1_dir
from taumesh.rpc.errors import FailedPrecondition

PROMPTS_MISSING = "USER_PROMPTS_MISSING"
"""Error reason when no imported prompts are found (or they do not read)."""


class TaubenchUserPrompts(BaseModel):
    """The texts of τ-bench's ``user.py`` as ``str.format`` templates (see ``taumesh.data._taubench_user``)."""

    greeting: str
    """The agent's opening line τ-bench hard-codes; the agent's real first message is never shown."""
    instruction_display: str
    """``{instruction}`` wrapped as τ-bench puts it into the system prompt."""
    system: dict[str, str]
    """``llm`` and ``react`` system prompts, each with ``{instruction_display}``."""
    verify: str
    """The supervisor's prompt, with ``{transcript}`` and ``{response}``."""
    reflect: str
    """The reflection prompt, with ``{transcript}`` and ``{response}``."""
    role_labels: dict[str, str]
    """Transcript labels by role (τ-bench capitalises any other role)."""

    def system_prompt(self, kind: str, instruction: str) -> str:
        """The ``kind`` (``llm`` or ``react``) system prompt for ``instruction``."""
        display = self.instruction_display.format(instruction=instruction)
        return self.system[kind].format(instruction_display=display)

    def transcript(self, messages: Sequence[Mapping[str, Any]]) -> str:
        """``Label: content`` per message, as τ-bench's verify and reflect show the history."""
        return "\n".join(
            f"{self.role_labels.get(m['role'], str(m['role']).capitalize())}: {m['content']}" for m in messages
        )


def _candidates(data_dir: Path | None) -> list[Path]:
    found: list[Path] = []
    for folder in (data_dir, taubench_v1_dir(), cache_dir() / "taubench_v1"):
        if folder is not None and folder not in found:
            found.append(folder)
    return found


_loaded: dict[Path, tuple[int, TaubenchUserPrompts]] = {}


def taubench_user_prompts(data_dir: Path | None = None) -> TaubenchUserPrompts:
    """The imported prompts; FAILED_PRECONDITION naming ``taumesh data import taubench`` when there are none."""
    places = _candidates(data_dir)
    for folder in places:
        path = folder / USER_PROMPTS_FILE
        try:
            stamp = path.stat().st_mtime_ns
        except OSError:
            continue
        known = _loaded.get(path)
        if known is not None and known[0] == stamp:
            return known[1]
        try:
            prompts = TaubenchUserPrompts.model_validate_json(path.read_bytes())
        except (OSError, ValidationError) as exc:
            raise FailedPrecondition(
                f"τ-bench's user prompts in {path} do not read ({exc.__class__.__name__}): "
                "run `taumesh data import taubench PATH --force` again",
                reason=PROMPTS_MISSING,
            ) from exc
        _loaded[path] = (stamp, prompts)
        return prompts
    raise FailedPrecondition(
        f"τ-bench's user prompts ({USER_PROMPTS_FILE}) are not in {', '.join(map(str, places))}: run "
        "`taumesh data import taubench PATH` with a τ-bench checkout (its tau_bench/envs/user.py is read)",
        reason=PROMPTS_MISSING,
    )
