"""The domain factory: build a valid domain from parts that are each checked (docs/adding-a-domain.md).

- **Seeded worlds** (:func:`build_worlds`): a builder per seed, declared :class:`Invariant` s checked at build
  time, at least three worlds, ids that never clash (:func:`merge_worlds`), splits that share no entity
  (:func:`check_disjoint`).
- **Task metadata** (:class:`TaskMeta`, :class:`FactoryTask`): intent, tier, trap and its rationale, the policy
  clauses tested, forbidden writes, dual control.
- **Policies** (:class:`Policy`): numbered clauses and a :func:`coverage` report.
- **Reference solvers** (:data:`Solver`, :class:`Solution`): every outcome the policy allows, as :class:`Step` s of
  alternatives (ties, optional steps, verification paths), and :class:`Statement` s the agent must say;
  :func:`verify_task` replays them.
- **A grader that accepts every allowed outcome** (:class:`FactoryPlugin`, :class:`AllowedOutcomes`,
  :class:`StatementsSaid`), and the build-time lints :func:`trap_cues`, :func:`output_spec`, :func:`unfair_traps`.
- **Drafts** (:class:`TaskDraft`, :func:`act`): a solver builds a task step by step, then makes it a
  :class:`FactoryTask`.
- **A release** (:class:`Release`): the worlds, policy and solvers made into ``data/``'s files, checked on the way
  (cues, unfair traps, unspecific outputs, train and test touching a common entity); and a build entry point
  (:func:`build_main`): ``python -m <domain>.build [--check]`` writes ``data/`` or names what is stale.
"""

from __future__ import annotations

from taumesh.domains.factory._audit import factory_flags, oracle_says, outcome_score
from taumesh.domains.factory._build import build_main, json_text
from taumesh.domains.factory._draft import TaskDraft, act
from taumesh.domains.factory._lint import output_spec, sentences, trap_cues, unfair_traps
from taumesh.domains.factory._plugin import FactoryPlugin
from taumesh.domains.factory._policy import Clause, Coverage, Policy, Section, clause_texts, coverage
from taumesh.domains.factory._release import Release, TasksAfterWorlds, TasksOfWorld, world_tag
from taumesh.domains.factory._reward import (
    AllowedOutcomes,
    StatementsSaid,
    amounts,
    canonical_output,
    date_spellings,
    factory_reward,
    replay_hash,
    said,
)
from taumesh.domains.factory._solver import Solution, Solver, action_text, task_record, verify_task
from taumesh.domains.factory._task import FactoryTask, Statement, StatementKind, Step, TaskMeta, Tier
from taumesh.domains.factory._world import (
    MIN_SEEDS,
    Invariant,
    InvariantError,
    Record,
    SeededWorld,
    Table,
    World,
    build_worlds,
    check_disjoint,
    merge_worlds,
    per_record,
    within,
)

__all__ = [
    "MIN_SEEDS",
    "AllowedOutcomes",
    "Clause",
    "Coverage",
    "FactoryPlugin",
    "FactoryTask",
    "Invariant",
    "InvariantError",
    "Policy",
    "Record",
    "Release",
    "Section",
    "SeededWorld",
    "Solution",
    "Solver",
    "Statement",
    "StatementKind",
    "StatementsSaid",
    "Step",
    "Table",
    "TaskDraft",
    "TaskMeta",
    "TasksAfterWorlds",
    "TasksOfWorld",
    "Tier",
    "World",
    "act",
    "action_text",
    "amounts",
    "build_main",
    "build_worlds",
    "canonical_output",
    "check_disjoint",
    "clause_texts",
    "coverage",
    "date_spellings",
    "factory_flags",
    "factory_reward",
    "json_text",
    "merge_worlds",
    "oracle_says",
    "outcome_score",
    "output_spec",
    "per_record",
    "replay_hash",
    "said",
    "sentences",
    "task_record",
    "trap_cues",
    "unfair_traps",
    "verify_task",
    "within",
    "world_tag",
]
