"""Two plays of the same group with the same seed, compared: where each episode first diverged, and whose doing it was.

taumesh's own choices are fixed by the episode's seed and the env is deterministic, so when two plays of one
(task, trial) with one seed differ, the first message that differs says who made them differ:

* an agent's or a user's message, where that role called a model: the provider (it did not honour the seed, or it
  was not asked to, or its backend changed: ``info.provider``'s fingerprints and served models say which);
* a tool's result after equal messages (hence equal calls), the system prompt, or a message of a role that called no
  model (the oracle agent, the scripted user): taumesh's own nondeterminism, which should never happen.

Tool-call ids are the provider's opaque handles (OpenAI's are random), so they are compared by their order of first
appearance, not by their text. See docs/rollouts.md, "Provider nondeterminism".
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, Field

from taumesh.orchestrator.episode.usage import PROVIDER, ProviderAccount
from taumesh.rollout.episodes import RolloutEpisode

Speaker = Literal["system", "agent", "user", "env"]
"""Who wrote a trajectory message: the system prompt, the agent (``assistant``), the user, or the env (a tool's
result, whoever called the tool)."""

Cause = Literal["equal", "provider", "taumesh", "not_a_replay", "unplayed"]
"""How an episode's two plays compare: the same; different, by the provider's doing or taumesh's own; played with
different seeds (no replay); or not comparable, because one of them ended in an infrastructure error."""

_SPEAKERS: dict[str, Speaker] = {"system": "system", "assistant": "agent", "user": "user", "tool": "env"}


class ProviderChange(BaseModel):
    """One role whose provider described itself differently in the two plays (fingerprints or served models)."""

    role: str
    """``agent``, ``user``, ``user_check`` or ``judge`` (the roles of ``info.provider``)."""
    first: ProviderAccount | None
    """What the provider said in the first play; None when the role called no model there."""
    second: ProviderAccount | None


class EpisodeDivergence(BaseModel):
    """One (task, trial) played twice: equal, or where its trajectories first differ and whose doing that was."""

    task_id: str
    trial: int
    seeds: tuple[int, int]
    """The two plays' seeds: a replay has them equal (``cause`` is ``not_a_replay`` otherwise)."""
    cause: Cause
    index: int | None = None
    """The first message (0-based, in the trajectory's time order) that differs; None when none does."""
    speaker: Speaker | None = None
    """Who wrote that message (in the play that has it, the first when both do)."""
    first_message: dict[str, Any] | None = None
    """That message in the first play (None when its trajectory ended before it)."""
    second_message: dict[str, Any] | None = None
    rewards: tuple[float | None, float | None]
    provider_changes: list[ProviderChange] = Field(default_factory=list)
    """The roles whose provider fingerprints or served models differ between the plays (empty: none changed)."""

    @property
    def equal(self) -> bool:
        return self.cause == "equal"

    @property
    def provider_changed(self) -> bool:
        return bool(self.provider_changes)


class ReplayComparison(BaseModel):
    """Every (task, trial) of two plays compared, in the first play's order, and those only one of them played."""

    episodes: list[EpisodeDivergence]
    only_in_first: list[tuple[str, int]] = Field(default_factory=list)
    only_in_second: list[tuple[str, int]] = Field(default_factory=list)

    @property
    def diverged(self) -> list[EpisodeDivergence]:
        """The episodes whose plays are not equal."""
        return [episode for episode in self.episodes if not episode.equal]


def canonical(trajectory: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """``trajectory`` with each tool-call id replaced by its order of first appearance (``call_0``, ``call_1``…)."""
    names: dict[str, str] = {}

    def renamed(call_id: Any) -> Any:
        if not call_id:
            return call_id
        return names.setdefault(str(call_id), f"call_{len(names)}")

    out = []
    for message in trajectory:
        message = dict(message)
        if message.get("tool_calls"):
            message["tool_calls"] = [{**call, "id": renamed(call.get("id"))} for call in message["tool_calls"]]
        if "tool_call_id" in message:
            message["tool_call_id"] = renamed(message["tool_call_id"])
        out.append(message)
    return out


def _first_difference(first: list[dict[str, Any]], second: list[dict[str, Any]]) -> int | None:
    for index, (a, b) in enumerate(zip(canonical(first), canonical(second), strict=False)):
        if a != b:
            return index
    return None if len(first) == len(second) else min(len(first), len(second))


def _accounts(episode: RolloutEpisode) -> dict[str, ProviderAccount]:
    recorded = episode.info.get(PROVIDER) or {}
    return {role: ProviderAccount.model_validate(account) for role, account in recorded.items()}


def _provider_changes(first: RolloutEpisode, second: RolloutEpisode) -> list[ProviderChange]:
    before, after = _accounts(first), _accounts(second)
    changes = []
    for role in [*before, *(role for role in after if role not in before)]:
        a, b = before.get(role), after.get(role)
        if a is None or b is None or (a.fingerprints, a.served_models) != (b.fingerprints, b.served_models):
            changes.append(ProviderChange(role=role, first=a, second=b))
    return changes


def _cause(first: RolloutEpisode, second: RolloutEpisode, index: int | None, speaker: Speaker | None) -> Cause:
    if first.seed != second.seed:
        return "not_a_replay"
    if first.error is not None or second.error is not None:
        return "unplayed"
    if index is None:
        return "equal"
    spoke = speaker in ("agent", "user")  # the roles of info.provider that write messages
    if spoke and any(_accounts(episode).get(str(speaker), ProviderAccount()).calls for episode in (first, second)):
        return "provider"
    return "taumesh"  # a tool's result after equal calls, the system prompt, or a role that called no model


def compare_episodes(first: RolloutEpisode, second: RolloutEpisode) -> EpisodeDivergence:
    """Two plays of one (task, trial), compared."""
    index = _first_difference(first.trajectory, second.trajectory)
    a = first.trajectory[index] if index is not None and index < len(first.trajectory) else None
    b = second.trajectory[index] if index is not None and index < len(second.trajectory) else None
    written = a if a is not None else b
    speaker = _SPEAKERS.get(str(written.get("role"))) if written is not None else None
    return EpisodeDivergence(
        task_id=first.task_id,
        trial=first.trial,
        seeds=(first.seed, second.seed),
        cause=_cause(first, second, index, speaker),
        index=index,
        speaker=speaker,
        first_message=a,
        second_message=b,
        rewards=(first.reward, second.reward),
        provider_changes=_provider_changes(first, second),
    )


def divergences(first: Iterable[RolloutEpisode], second: Iterable[RolloutEpisode]) -> ReplayComparison:
    """Each (task, trial) of both plays compared (see the module's docstring for how a divergence is attributed)."""
    left = {(episode.task_id, episode.trial): episode for episode in first}
    right = {(episode.task_id, episode.trial): episode for episode in second}
    return ReplayComparison(
        episodes=[compare_episodes(episode, right[key]) for key, episode in left.items() if key in right],
        only_in_first=[key for key in left if key not in right],
        only_in_second=[key for key in right if key not in left],
    )


def read_episodes(path: Path) -> list[RolloutEpisode]:
    """The episodes of a JSON Lines file, as ``taumesh rollout --out`` writes them."""
    with path.open(encoding="utf-8") as lines:
        return [RolloutEpisode.model_validate_json(line) for line in lines if line.strip()]
