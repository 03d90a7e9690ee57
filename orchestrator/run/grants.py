"""What a run's own settings allow the services it embeds: the model endpoints, agent URL and few-shot file it names.

A request to a service may name a model endpoint only when the operator allows it (:mod:`taumesh.llm.access`).
A run's own ``--api-base`` (and the user's, the judge's) is the operator's choice, so ``taumesh run`` and the group
rollouts grant them to the services they start in this process, for as long as the run plays.
"""

from __future__ import annotations

from taumesh.llm.access import OperatorGrants
from taumesh.orchestrator.config import RunConfig


def run_grants(config: RunConfig) -> OperatorGrants:
    """What ``config``'s own settings allow its in-process services: model endpoints, few-shot file, a human user."""
    few_shot = [config.agent.few_shot_displays_path] if config.agent.few_shot_displays_path else []
    agent_is_a2a = config.agent.strategy == "a2a"  # its --api-base is an A2A agent's URL, not a model endpoint
    return OperatorGrants.of(
        api_bases=[
            *([] if agent_is_a2a else [config.agent.model.api_base]),
            config.user.model.api_base,
            config.judge.api_base,
        ],
        agent_urls=[config.agent.model.api_base] if agent_is_a2a else [],
        few_shot_paths=few_shot,
        human_user=True,
    )
