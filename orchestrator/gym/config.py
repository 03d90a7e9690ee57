"""What a taumesh Gym environment plays: domain and tasks, the other party, limits, where the services are."""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from taumesh.data import taubench_v1_dir
from taumesh.llm.limiter import ProviderLimits
from taumesh.models import AgentSettings, ModelSettings, TaskRef, UserSettings
from taumesh.orchestrator.config import RunConfig, ServiceAddresses
from taumesh.orchestrator.options import RunOptions

STEP_TIMEOUT = 7 * 24 * 3600.0
"""How long the turn loop waits for the Gym caller's action, in seconds: a person or a trainer may pause."""


class GymConfig(BaseModel):
    """The keyword arguments of ``gymnasium.make("taumesh/AgentEnv-v0", ...)`` and of the environments."""

    model_config = ConfigDict(extra="forbid")

    domain: str = "retail"
    """The domain (``retail``, ``airline``, ``tau2-mock``, …); ``reset(options={"domain": ...})`` overrides it."""
    task_split: str | None = None
    """None: the domain's first split (τ-bench's ``test``, τ²'s ``base``)."""
    task_id: str | None = None
    """The task every reset plays; None: one drawn from the split with the environment's seeded generator."""
    tasks: Literal["all", "certified"] = "all"
    """certified: draw (and accept) only the tasks the stored audit of the data flags nothing on, as ``taumesh run
    --tasks certified`` (``taumesh domain audit NAME --write`` stores it; docs/validity.md)."""
    grader: Literal["faithful", "strict"] = "faithful"
    """As ``taumesh run --grader``: faithful is the benchmark's own grading; strict the corrected one."""
    data_dir: Path = Field(default_factory=taubench_v1_dir)
    """τ-bench v1 data (as ``taumesh run --data-dir``); τ²'s comes from ``taumesh data fetch tau2``."""
    addresses: ServiceAddresses = Field(default_factory=ServiceAddresses)
    """Running services to use (host:port); the others start in-process on loopback. The Gym seat's is ignored."""
    max_steps: int | None = Field(default=None, ge=1)
    """None: the domain's own (τ-bench's 30, τ²'s 200, as the env sends them). Reaching it ends the episode as
    truncated."""
    max_errors: int | None = Field(default=None, ge=1)
    """None: the domain's own (none for τ-bench, τ²'s 10)."""
    agent: AgentSettings = Field(default_factory=lambda: AgentSettings(strategy="oracle"))
    """The agent when the caller plays the user (UserEnv)."""
    user: UserSettings = Field(default_factory=lambda: UserSettings(strategy="scripted"))
    """The simulated user when the caller plays the agent (AgentEnv)."""
    judge: ModelSettings = Field(default_factory=ModelSettings)
    """The model judging τ²'s NL assertions, where a task has them."""
    provider_limits: ProviderLimits = Field(default_factory=dict)
    """Model calls in flight per provider (``{"openai": 4}`` or ``["openai=4"]``), as ``taumesh run
    --provider-limit``: the other party's and the judge's calls take permits of this environment's limiters, which
    wait out a 429's Retry-After and learn from it across its episodes."""
    rpc_timeout: float = Field(default=60.0, gt=0)
    step_timeout: float = Field(default=STEP_TIMEOUT, gt=0)
    """Longest wait for the caller's action (and for the other party's model)."""

    def run_config(self, task: TaskRef) -> RunConfig:
        """The orchestrator's configuration for one episode of ``task``, built as every front door builds it."""
        agent, user, cx = self.agent, self.user, self.agent.dialogflow_cx
        options = RunOptions(
            env=task.domain,
            task_split=task.split,
            tasks=self.tasks,
            grader=self.grader,
            data_dir=self.data_dir,
            env_addr=self.addresses.env,
            user_addr=self.addresses.user,
            agent_addr=self.addresses.agent,
            scorer_addr=self.addresses.scorer,
            embedded_processes=self.addresses.processes,
            max_steps=self.max_steps,
            max_errors=self.max_errors,
            agent_strategy=agent.strategy,  # with the CX agent's ids: RunOptions checks the pair
            agent_id=cx.agent_id if cx else "",
            project_id=cx.project_id if cx else "",
            provider_limit=self.provider_limits,
            quiet=True,
        )
        # the caller's own model settings whole (a judge's provider, a user's temperature: no flag has them)
        update = {"agent": agent, "user": user, "judge": self.judge}
        return options.run_config().model_copy(
            update=update | {"rpc_timeout": self.rpc_timeout, "model_timeout": self.step_timeout}
        )
