"""Token data: what the gateway asks the backend for, reads from its answer, and removes before answering.

Backends return token-level data in three shapes, all read here:

* vLLM (≥ 0.10.2) with ``return_token_ids``: ``prompt_token_ids`` at the top level (the completions API puts it in
  each choice) and ``choices[i].token_ids``; ``logprobs`` gives ``choices[i].logprobs.content[].logprob``.
* Older vLLM (and SGLang) with ``return_tokens_as_token_ids``: each ``logprobs.content[].token`` is ``token_id:N``.
* llama.cpp's server with ``logprobs``: each ``logprobs.content[]`` carries ``id``, ``token`` and ``logprob``; it
  reports no prompt ids, so ``prompt_token_ids`` stays empty.

What the gateway added to the request it removes from the response, so the caller sees what it would have seen
without the gateway; what the caller asked for itself (``logprobs``, ``return_token_ids``) it keeps.
"""

from __future__ import annotations

import copy
from typing import Any, Literal

from pydantic import BaseModel, Field

Api = Literal["chat", "completions"]
TOKEN_ID_PREFIX = "token_id:"  # noqa: S105 - a token of text, not a secret
"""How ``return_tokens_as_token_ids`` spells a token."""


class TokenData(BaseModel):
    """The first choice's token data, as far as the backend reported it."""

    prompt_token_ids: list[int] = Field(default_factory=list)
    completion_token_ids: list[int] = Field(default_factory=list)
    completion_logprobs: list[float] = Field(default_factory=list)

    @property
    def loss_mask(self) -> list[int]:
        """0 for each prompt token, 1 for each token the policy produced."""
        return [0] * len(self.prompt_token_ids) + [1] * len(self.completion_token_ids)


def asking_for_tokens(body: dict[str, Any], api: Api, tokens_as_ids: bool = False) -> tuple[dict[str, Any], set[str]]:
    """The request to send the backend (``body`` plus token-data options), and which options the gateway added.

    ``tokens_as_ids`` also asks for ``return_tokens_as_token_ids`` (older vLLM, SGLang), unless the caller asked for
    log-probabilities itself (it would then see ``token_id:N`` where it expects text).
    """
    sent = dict(body)
    added: set[str] = set()
    if api == "chat":
        if not body.get("logprobs"):
            sent["logprobs"], added = True, added | {"logprobs"}
    elif body.get("logprobs") is None:
        sent["logprobs"], added = 1, added | {"logprobs"}
    if "return_token_ids" not in body:
        sent["return_token_ids"], added = True, added | {"return_token_ids"}
    if tokens_as_ids and "logprobs" in added and "return_tokens_as_token_ids" not in body:
        sent["return_tokens_as_token_ids"] = True
        added.add("return_tokens_as_token_ids")
    return sent, added


def _ints(values: Any) -> list[int]:
    if not isinstance(values, list) or not all(isinstance(v, int) and not isinstance(v, bool) for v in values):
        return []
    return list(values)


def _token_id(entry: dict[str, Any]) -> int | None:
    """An entry of ``logprobs.content``'s token id: llama.cpp's ``id``, or ``token_id:N``."""
    if isinstance(entry.get("id"), int):
        return int(entry["id"])
    token = entry.get("token")
    if isinstance(token, str) and token.startswith(TOKEN_ID_PREFIX):
        try:
            return int(token[len(TOKEN_ID_PREFIX) :])
        except ValueError:
            return None
    return None


def _dict(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def token_data(response: dict[str, Any], api: Api) -> TokenData:
    """The first choice's prompt ids, completion ids and log-probabilities; empty lists for what is missing."""
    choices = _list(response.get("choices"))
    choice = _dict(choices[0]) if choices else {}
    prompt = _ints(response.get("prompt_token_ids")) or _ints(choice.get("prompt_token_ids"))
    completion = _ints(choice.get("token_ids"))
    logprobs = _dict(choice.get("logprobs"))
    values: list[float] = []
    if api == "chat":
        entries = [_dict(entry) for entry in _list(logprobs.get("content"))]
        values = [float(entry.get("logprob", 0.0)) for entry in entries]
        ids = [_token_id(entry) for entry in entries]
    else:
        values = [float(v) for v in _list(logprobs.get("token_logprobs")) if isinstance(v, int | float)]
        ids = [_token_id({"token": token}) for token in _list(logprobs.get("tokens"))]
    if not completion and ids and all(i is not None for i in ids):
        completion = [i for i in ids if i is not None]
    return TokenData(prompt_token_ids=prompt, completion_token_ids=completion, completion_logprobs=values)


def without_added(response: dict[str, Any], added: set[str]) -> dict[str, Any]:
    """``response`` less the token data the gateway asked for (``added``): what the caller would have received."""
    seen = copy.deepcopy(response)
    if "return_token_ids" in added:
        seen.pop("prompt_token_ids", None)
    for choice in _list(seen.get("choices")):
        if not isinstance(choice, dict):
            continue
        if "return_token_ids" in added:
            choice.pop("token_ids", None)
            choice.pop("prompt_token_ids", None)
        if "logprobs" in added and "logprobs" in choice:
            choice["logprobs"] = None
    return seen
