"""Run configuration: τ-bench v1's flags and defaults, plus where the services are."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, Field

from taumesh.models import AgentSettings, ModelSettings, UserSettings

CACHE_DATA_DIR = Path.home() / ".cache" / "taumesh" / "taubench_v1"
"""Where the τ-bench data is looked for when neither --data-dir nor TAUMESH_DATA_DIR says."""
DEFAULT_DATA_DIR = Path(os.environ.get("TAUMESH_DATA_DIR", CACHE_DATA_DIR))
"""The data folder as the environment names it at import (commands not yet on :mod:`taumesh.settings`)."""
MAX_NUM_STEPS = 30
"""τ-bench v1's step limit: tool calls and messages to the user, together."""


OutputFormat = Literal["taubench", "tau2", "both"]
"""Which results layouts a run writes: τ-bench's file, τ²'s ``Results`` document, or both."""


class ServiceAddresses(BaseModel):
    """host:port of each service; None starts that service in-process on loopback."""

    env: str | None = None
    user: str | None = None
    agent: str | None = None
    scorer: str | None = None


class RunConfig(BaseModel):
    """One benchmark run: which tasks, how many trials, which agent and user."""

    env: str = "retail"
    task_split: str | None = None
    """None: the domain's first split (τ-bench's test, τ²'s base), resolved when the run starts."""
    task_ids: list[int] | None = None
    start_index: int = 0
    end_index: int = -1
    num_trials: int = Field(default=1, ge=1)
    agent: AgentSettings = Field(default_factory=lambda: AgentSettings(strategy="tool-calling"))
    user: UserSettings = Field(
        default_factory=lambda: UserSettings(strategy="llm", model=ModelSettings(model="gpt-4o"))
    )
    max_concurrency: int = Field(default=1, ge=1)
    seed: int = 10
    shuffle: bool = False
    log_dir: Path = Path("results")
    data_dir: Path = DEFAULT_DATA_DIR
    addresses: ServiceAddresses = Field(default_factory=ServiceAddresses)
    max_steps: int = Field(default=MAX_NUM_STEPS, ge=1)
    max_episode_attempts: int = Field(default=3, ge=1)
    """Attempts at an episode that fails for infrastructure reasons before it is recorded as an error."""
    rpc_timeout: float = Field(default=60.0, gt=0)
    """Deadline of env and scorer calls, in seconds."""
    model_timeout: float = Field(default=900.0, gt=0)
    """Deadline of agent and user-sim calls, in seconds: longer than a model call's own retry budget
    (TAUMESH_LLM_MAX_ATTEMPTS x TAUMESH_LLM_TIMEOUT plus backoff, 5 x 120 s + waits by default)."""
    show_progress: bool = True
    verbose: bool = False
    """Print each episode's conversation (user, agent, tool calls and results) as it ends."""
    otlp_endpoint: str | None = None
    """OTLP/gRPC endpoint for telemetry; None: the OTEL_* environment decides (no exporter when unset)."""
    max_errors: int | None = None
    """Tool results that are errors an episode may have, cumulative (τ²'s rule); None: no limit."""
    tau2_trial_seeds: bool = False
    """Give each trial τ²'s seed: ``random.seed(seed)`` then ``randint(0, 1_000_000)`` per trial."""
    output_format: OutputFormat = "taubench"
    judge: ModelSettings = Field(default_factory=ModelSettings)
    """The model that judges τ²'s NL assertions (sent with every ScoreEpisode); empty: none, and a task that
    needs one fails with FAILED_PRECONDITION instead of being scored."""
