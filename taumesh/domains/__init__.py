"""Benchmark domains as plugins: tools with τ-bench semantics over typed, read-only base data.

A domain is a package exposing a :class:`DomainPlugin` (see docs/adding-a-domain.md); the
:class:`Registry` finds them through the ``taumesh.domains`` entry points and ``TAUMESH_DOMAIN_PATH``,
and a :class:`Catalog` serves those whose files exist.
"""

from __future__ import annotations

from taumesh.domains._arguments import parse_arguments
from taumesh.domains._catalog import Catalog, load_domain
from taumesh.domains._check import CheckReport, TaskCheck, check_domain
from taumesh.domains._domain import Action, Domain, Task
from taumesh.domains._errors import BaseDataMutation, DataError, EpisodeMismatch, PluginError, ToolCrash
from taumesh.domains._plugin import DomainPlugin, DomainSpec, StateHasher
from taumesh.domains._registry import DOMAIN_PATH_ENV, ENTRY_POINT_GROUP, Registry
from taumesh.domains._session import Session, StepResult
from taumesh.domains._tool import Data, Refusal, Requestor, Tool

__all__ = [
    "DOMAIN_PATH_ENV",
    "ENTRY_POINT_GROUP",
    "Action",
    "BaseDataMutation",
    "Catalog",
    "CheckReport",
    "Data",
    "DataError",
    "Domain",
    "DomainPlugin",
    "DomainSpec",
    "EpisodeMismatch",
    "PluginError",
    "Refusal",
    "Registry",
    "Requestor",
    "Session",
    "StateHasher",
    "StepResult",
    "Task",
    "TaskCheck",
    "Tool",
    "ToolCrash",
    "check_domain",
    "load_domain",
    "parse_arguments",
]
