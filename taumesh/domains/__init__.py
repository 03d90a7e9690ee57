"""Benchmark domains as plugins: tools with τ-bench semantics over typed, read-only base data.

The public API, and the only one a domain package imports (docs/adding-a-domain.md walks through it):
a domain is a package exposing a :class:`DomainPlugin`, whose fields declare it and whose methods are
the hooks the services call; its tasks are :class:`Task` records (or a subclass computing the task's
hooks); its reward is a list of :class:`RewardComponent`. The :class:`Registry` finds plugins through
the ``taumesh.domains`` entry points and ``TAUMESH_DOMAIN_PATH``, and a :class:`Catalog` serves those
whose files exist.
"""

from __future__ import annotations

from taumesh.domains._arguments import parse_arguments, replayed_calls
from taumesh.domains._calculator import check_powers
from taumesh.domains._catalog import Catalog, load_domain
from taumesh.domains._check import CheckReport, TaskCheck, check_domain
from taumesh.domains._cow import CowSwitch, CowTable, copy_json
from taumesh.domains._domain import Domain
from taumesh.domains._errors import (
    BaseDataMutation,
    DataError,
    DomainNotRunnable,
    EpisodeMismatch,
    PluginError,
    ToolCrash,
)
from taumesh.domains._hashing import CheckpointedText, DataHasher, Swaps
from taumesh.domains._plugin import Document, DomainPlugin, DomainSpec, UserPrompt
from taumesh.domains._registry import DOMAIN_PATH_ENV, ENTRY_POINT_GROUP, VARIANT_SEPARATOR, Registry
from taumesh.domains._reward import (
    V1_REWARD,
    Composed,
    DatabaseMatch,
    Episode,
    EpisodeScore,
    OutputsSaid,
    RewardComponent,
    Verdict,
    all_passed,
    compose,
    output_found,
    v1_gold_hash,
)
from taumesh.domains._session import Session, StepResult
from taumesh.domains._task import Action, Task, describe_validation_error, same_message
from taumesh.domains._tool import Data, Refusal, Requestor, Tool
from taumesh.domains._view import DomainLayout, DomainView, StateHasher, ToolRules
from taumesh.models import V1_RUN_DEFAULTS, ReplayMode, RunDefaults, TaskIdStyle

__all__ = [
    "DOMAIN_PATH_ENV",
    "ENTRY_POINT_GROUP",
    "V1_REWARD",
    "V1_RUN_DEFAULTS",
    "VARIANT_SEPARATOR",
    "Action",
    "BaseDataMutation",
    "Catalog",
    "CheckReport",
    "CheckpointedText",
    "Composed",
    "CowSwitch",
    "CowTable",
    "Data",
    "DataError",
    "DataHasher",
    "DatabaseMatch",
    "Document",
    "Domain",
    "DomainLayout",
    "DomainNotRunnable",
    "DomainPlugin",
    "DomainSpec",
    "DomainView",
    "Episode",
    "EpisodeMismatch",
    "EpisodeScore",
    "OutputsSaid",
    "PluginError",
    "Refusal",
    "Registry",
    "ReplayMode",
    "Requestor",
    "RewardComponent",
    "RunDefaults",
    "Session",
    "StateHasher",
    "StepResult",
    "Swaps",
    "Task",
    "TaskCheck",
    "TaskIdStyle",
    "Tool",
    "ToolCrash",
    "ToolRules",
    "UserPrompt",
    "Verdict",
    "all_passed",
    "check_domain",
    "check_powers",
    "compose",
    "copy_json",
    "describe_validation_error",
    "load_domain",
    "output_found",
    "parse_arguments",
    "replayed_calls",
    "same_message",
    "v1_gold_hash",
]
