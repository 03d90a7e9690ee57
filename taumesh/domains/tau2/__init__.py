"""τ² (tau2-bench) domains: shared machinery for the ``tau2-*`` plugins.

The data is fetched, never committed (``taumesh data fetch tau2``). Each plugin writes its data
models (``tau2_<name>.models``) and tools; tool schemas take the texts agents see from the fetched
``texts.json`` (:mod:`._texts`, :mod:`._schemas`). :func:`open_session` puts a session in a task's initial
state, :func:`call_tool` is τ²'s ``get_response``, :func:`evaluate` τ²'s reward as checks. Its components
(:data:`TAU2_REWARD`) are public for domains built on τ²'s, like ``tau2-banking-knowledge``.
"""

from __future__ import annotations

from taumesh.domains.tau2._files import DatasetMissing, dataset_dir, domain_data, domain_sources, require
from taumesh.domains.tau2._hash import Tau2Hasher
from taumesh.domains.tau2._layout import Tau2Layout, dump_json
from taumesh.domains.tau2._observation import ModelDump, to_json_str
from taumesh.domains.tau2._plugin import TAU2_SPLITS, Tau2Plugin, tau2_tool
from taumesh.domains.tau2._reward import (
    TAU2_REWARD,
    ActionCheck,
    CommunicateCheck,
    DatabaseCheck,
    EnvAssertionCheck,
    NlAssertionCheck,
    Tau2Reward,
    Tau2Score,
    evaluate,
    gold_hash,
)
from taumesh.domains.tau2._state import apply_initial_state, call_tool, open_session, run_function
from taumesh.domains.tau2._tasks import EnvAssertion, EnvFunctionCall, GoldAction, Tau2Task
from taumesh.domains.tau2._transfer import TRANSFER_TOKEN, TRANSFER_TOOL, announces_transfer, transfer_announcement

__all__ = [
    "TAU2_REWARD",
    "TAU2_SPLITS",
    "TRANSFER_TOKEN",
    "TRANSFER_TOOL",
    "ActionCheck",
    "CommunicateCheck",
    "DatabaseCheck",
    "DatasetMissing",
    "EnvAssertion",
    "EnvAssertionCheck",
    "EnvFunctionCall",
    "GoldAction",
    "ModelDump",
    "NlAssertionCheck",
    "Tau2Hasher",
    "Tau2Layout",
    "Tau2Plugin",
    "Tau2Reward",
    "Tau2Score",
    "Tau2Task",
    "announces_transfer",
    "apply_initial_state",
    "call_tool",
    "dataset_dir",
    "domain_data",
    "domain_sources",
    "dump_json",
    "evaluate",
    "gold_hash",
    "open_session",
    "require",
    "run_function",
    "tau2_tool",
    "to_json_str",
    "transfer_announcement",
]
