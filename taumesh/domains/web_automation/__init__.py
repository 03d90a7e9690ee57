"""The web-automation domain: Brightlane's web automation desk, with dual control (issue 46).

It uses the public API of ``taumesh.domains`` only. Brightlane's team members ask an agent to collect data from
other companies' sites, to schedule collections and stop them, to watch pages and review the changes caught, to
export what was collected, to submit sites' forms and to link their own accounts on sites. The web is simulated:
sites with terms for automated clients and robots rules, pages with their fields, forms. What only the member can
see (a form's CAPTCHA in their own browser, a sign-in code on their authenticator) reaches the desk when they read
it out. Built on the domain factory from three seeded worlds (w3 is the test split);
``python -m taumesh.domains.web_automation.build`` regenerates ``data/`` (docs/domains/web-automation.md).
"""

from __future__ import annotations

from pathlib import Path

from taumesh.domains import RunDefaults
from taumesh.domains.factory import FactoryPlugin, FactoryTask
from taumesh.domains.web_automation.agent_tools import AGENT_TOOLS, IDENTITY_TOOLS
from taumesh.domains.web_automation.models import AutomationDatabase
from taumesh.domains.web_automation.user_tools import USER_TOOLS

DATA = Path(__file__).resolve().parent / "data"
SPLITS = ("base", "train", "test")
"""base is every task; train the tasks of worlds w1 and w2; test those of w3, whose members and records train never
meets."""

RUN_DEFAULTS = RunDefaults(seed=10, max_steps=50, max_errors=10, per_trial_seeds=True, task_id_style="id")
"""The desk's own: a task takes up to 8 actions (identity, the member's team, the site's terms, the write, and the
member's own CAPTCHA or sign-in code), beside the conversation and a confirmation before each change, so τ-bench
v1's 30 steps leave little room; 50 bound a loop. Ten tool errors end an episode, as τ²'s dual-control runs do; each
trial gets its own seed; task ids are the domain's own text. The member's tools write nothing, so re-grading needs
no replay of their calls."""

plugin = FactoryPlugin(
    name="web-automation",
    tools=(*AGENT_TOOLS, *USER_TOOLS),
    database=AutomationDatabase,
    splits=SPLITS,
    terminate_tools=frozenset({"transfer_to_human_agents"}),
    own_data=DATA,
    task_model=FactoryTask,
    identity_tools=IDENTITY_TOOLS,
    unordered_arguments={},
    release="web-automation-1",
    run_defaults=RUN_DEFAULTS,
)
"""What the registry loads (entry point ``web-automation = "taumesh.domains.web_automation:plugin"``)."""
