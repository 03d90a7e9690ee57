"""``domain check`` for a fork environment: the usual replay, plus tasks copied from another environment.

A task is flagged as copied when a gold action names a tool this environment does not have, or its instruction
names one that another environment of the same fork has (big-tau's healthcare tasks are airline's, for instance).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from taumesh.domains import CheckReport, Domain, check_domain
from taumesh.forks._plugin import ForkPlugin
from taumesh.forks._record import load_record

_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def foreign_tools(domain: Domain) -> set[str]:
    """Tool names of the fork's other environments that this one lacks."""
    plugin = domain.spec
    assert isinstance(plugin, ForkPlugin)
    record = load_record(plugin.fork)
    own = set(domain.tools_by_name)
    others = {info["function"]["name"] for env in record.envs.values() for info in env.tools_info}
    return {name for name in others - own if "_" in name}  # one-word names ("think") name no tool in prose


def check_fork(domain: Domain, splits: Sequence[str] | None = None) -> CheckReport:
    """:func:`~taumesh.domains.check_domain`, with copied tasks added to each task's problems."""
    report = check_domain(domain, splits)
    foreign = foreign_tools(domain)
    own = set(domain.tools_by_name)
    for checked in report.tasks:
        task = domain.find_task(checked.split, checked.task_id)
        in_text = sorted({word for word in _WORD.findall(task.instruction) if word in foreign})
        in_gold = sorted({action.name for action in task.actions if action.name not in own})
        if in_text or in_gold:
            named = ", ".join(repr(name) for name in sorted({*in_text, *in_gold}))
            where = " and ".join(w for w, found in (("instruction", in_text), ("gold actions", in_gold)) if found)
            checked.errors.append(f"copied from another environment: {where} name {named}, tools it lacks")
    return report
