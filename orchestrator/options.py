"""``RunOptions``: the one model of a run, flat, that every front door fills, and the one place ``RunConfig`` is built.

``taumesh run`` reads it from flags, ``TAUMESH_*`` variables and a ``--config`` file (``taumesh.settings.RunSettings``,
which also takes the file's grouped form); the REST API from its body's fields of the same names, the A2A green agent
from its config, the Gym from its own. Its fields are τ-bench's flags' names; ``run --help``'s panels group them.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Self

from pydantic import ConfigDict, Field, model_validator
from pydantic_settings import NoDecode

from taumesh.data import taubench_v1_dir
from taumesh.domains import VARIANT_SEPARATOR
from taumesh.flags import Flag
from taumesh.gateway.signing import gateway_key
from taumesh.llm.knowledge_models import KnowledgeModels
from taumesh.llm.limiter import ProviderLimits
from taumesh.models import AgentSettings, DialogflowCxAgent, ModelSettings, UserSettings
from taumesh.orchestrator.config import RunConfig, RunScope, ServiceAddresses, ServiceNames
from taumesh.simulators import simulator

RUN_GROUPS: dict[str, tuple[str, ...]] = {
    "Tasks": (
        "env", "domain", "retrieval_config", "task_split", "task_ids", "start_index", "end_index", "num_tasks",
        "num_trials", "seed", "shuffle", "tasks", "grader", "judge_model", "judge_api_base", "data_dir",
        "allow_release_change",
    ),
    "Agent": (
        "agent_strategy", "model", "model_provider", "api_base", "gateway", "temperature",
        "few_shot_displays_path", "agent_tools", "agent_id", "project_id", "location",
    ),
    "User": ("user_sim", "user_strategy", "user_model", "user_model_provider", "user_api_base"),
    "Limits": ("max_steps", "max_errors", "max_concurrency", "provider_limit"),
    "Services": ("env_addr", "user_addr", "agent_addr", "scorer_addr", "embedded_processes", "otlp_endpoint"),
    "Outputs": (
        "log_dir", "output_format", "dataset_name", "mt_fork_folder", "resume", "retry_errors", "quiet",
        "verbose",
    ),
    "Scale": ("workers", "work_store"),
    "Knowledge (τ³ banking_knowledge's retrieval models)": (
        "embedding_model", "embedding_api_base", "reranker_model", "reranker_api_base",
    ),
}  # fmt: skip
"""A run's settings in their groups, each with its settings in order: ``run --help``'s panels, and the groups a
settings file may nest them in (``agent: {strategy: …}``). Every field of :class:`RunOptions` is in exactly one."""

JUDGE_SETTINGS = ("judge_model", "judge_api_base")
"""The judge's settings: ``run --help`` lists them with the tasks; a spec gives them their own group."""


def group_members() -> dict[str, tuple[str, ...]]:
    """Each group's settings (flat names), in ``run --help``'s order: :mod:`~taumesh.orchestrator.run_spec`'s groups.

    Here, not in run_spec, so ``taumesh run`` reads a settings file's groups without building RunSpec's models.
    """
    groups = {
        title.split()[0].lower(): tuple(name for name in names if name not in JUDGE_SETTINGS)
        for title, names in RUN_GROUPS.items()
    }
    return {**groups, "judge": JUDGE_SETTINGS}


def domain_named(name: str, benchmark: str | None = None) -> str:
    """The domain ``--env`` (or ``benchmark``'s own flag: τ²'s ``--domain``) names, as the registry's plugins declare.

    ``--domain airline`` is τ²'s airline (``tau2-airline``); ``--env telecom`` is τ²'s too, v1 having none. A name
    no plugin declares is kept, and the env refuses it with the domains it has.
    """
    from taumesh.domains import Registry

    registry = Registry.discover()
    if benchmark is not None:
        found = registry.named_by(benchmark, name)
        if found is None:
            known = sorted(
                foreign for p in registry.plugins.values() if (foreign := p.foreign_names.get(benchmark)) is not None
            )
            raise ValueError(f"--domain {name!r} names no domain of {benchmark}'s; known: {', '.join(known)}")
        return found
    return registry.canonical(name)


class RunOptions(RunScope, KnowledgeModels):
    """Every option of a run, flat: τ-bench v1's flags and defaults, and τ²'s where they differ.

    The one model of a run every front door fills: ``taumesh run`` (:class:`RunSettings`: flags, environment,
    YAML), the REST API's body, the A2A green agent's config. :meth:`run_config` is the one place the orchestrator's
    :class:`RunConfig` is built from it. Values a domain declares for itself (seed, step and error limits, per-trial
    seeds, split) are None here: the run takes them from the env's ``DomainInfo.run_defaults`` before it plays.
    """

    model_config = ConfigDict(extra="forbid", use_attribute_docstrings=True)

    domain: str | None = None
    """τ²'s spelling of a τ² domain: airline, retail, telecom, mock (= --env tau2-…)."""
    retrieval_config: str | None = None
    """A configuration of a domain that offers several: τ³'s knowledge track (tau2-banking-knowledge) takes its
    retrieval configurations (bm25, grep_only, full_kb, openai_embeddings, …; see docs/data.md). The same as
    --env DOMAIN:CONFIG; default: the domain's own."""
    agent_strategy: str = "tool-calling"
    """Built-in: {agent_strategies} (any the agent knows with --agent-addr)."""
    model: Annotated[str, Flag("--agent-llm")] = ""
    """The agent's model (litellm's provider/model form too)."""
    model_provider: str = ""
    """litellm provider of the agent's model (default: from the model's name)."""
    user_sim: str = ""
    """A registered user-simulator version (tau-bench-v1, tau2-v1.0, taumesh-v1: taumesh.simulators): sets the
    user's strategy and model. Every result records the version played (info.user_sim_version; custom:… if none)."""
    user_strategy: str = "llm"
    """Built-in: {user_strategies}."""
    user_model: Annotated[str, Flag("--user-llm")] = "gpt-4o"
    """The simulated user's model."""
    user_model_provider: str = ""
    """litellm provider of the user's model."""
    temperature: float = 0.0
    """The agent model's temperature (the user's is 0)."""
    provider_limit: Annotated[ProviderLimits, NoDecode] = Field(default_factory=dict)
    """PROVIDER=N (repeatable): at most N model calls in flight to that provider over the whole run, workers
    included; a provider's 429s narrow it for a while."""
    seed: int | None = None
    """Seeds the task order and both models. Default: the domain's (τ-bench v1: 10; τ²: 300, with a seed per
    trial as τ² derives them)."""
    few_shot_displays_path: str = ""
    """few-shot: a JSONL of {"messages_display": ...} examples."""
    agent_id: str = ""
    """dialogflow-cx (alias decibel): the CX agent's id."""
    project_id: str = ""
    """dialogflow-cx: its project."""
    location: str = "global"
    """dialogflow-cx: its location."""
    data_dir: Path = Field(default_factory=taubench_v1_dir)
    """τ-bench data: a folder per domain."""
    env_addr: str | None = None
    """host:port of EnvService (default: started in this process)."""
    user_addr: str | None = None
    """host:port of UserSimService (default: started in this process)."""
    agent_addr: str | None = None
    """host:port of any AgentService (external)."""
    scorer_addr: str | None = None
    """host:port of ScorerService (default: started in this process)."""
    embedded_processes: Annotated[ServiceNames, NoDecode, Flag(parse_as=str)] = Field(default_factory=frozenset)
    """Services started here to run in child processes of their own, so the run uses more than one core: env,
    user, agent, scorer (comma-separated), or all."""
    api_base: str = ""
    """OpenAI-compatible base URL of the agent's model."""
    gateway: str = ""
    """The model gateway's base URL (taumesh serve gateway: http://HOST:PORT/v1): the agent's model calls go
    through it (instead of --api-base), each carrying its episode's rollout id signed with $TAUMESH_GATEWAY_KEY, and
    each result records info.rollout_id; the user simulator's calls do not (docs/gateway.md)."""
    user_api_base: str = ""
    """OpenAI-compatible base URL of the user model."""
    retry_errors: Path | None = None
    """Rerun only the episodes this results file records as errors."""
    resume: Path | None = None
    """Continue this results file: rerun what it lacks or errored."""
    max_steps: int | None = Field(default=None, ge=1)
    """Steps an episode may take. Default: the domain's (τ-bench v1: 30; τ²: 200)."""
    max_errors: int | None = Field(default=None, ge=1)
    """End an episode at this many tool errors. Default: the domain's (τ²: 10; τ-bench v1: no limit)."""
    num_tasks: int | None = Field(default=None, ge=1)
    """Only the first N selected tasks (τ²'s --num-tasks)."""
    judge_model: str = ""
    """Model judging τ²'s NL assertions (litellm's provider/model form); empty: no judge."""
    judge_api_base: str = ""
    """OpenAI-compatible base URL of the judge model."""
    quiet: bool = False
    """No live progress display."""

    @model_validator(mode="after")
    def dialogflow_cx_agent(self) -> Self:
        """The CX strategy without its agent could only fail every episode: refused before the run."""
        if self.agent_strategy in ("dialogflow-cx", "decibel") and not (self.agent_id and self.project_id):
            raise ValueError(f"--agent-strategy {self.agent_strategy} needs --agent-id and --project-id")
        return self

    @model_validator(mode="after")
    def gateway_with_its_key(self) -> Self:
        """--gateway replaces the agent's --api-base and signs with a key that must be set: else refused at once."""
        if self.gateway:
            if self.api_base:
                raise ValueError("--gateway is where the agent's model calls go: give it or --api-base, not both")
            gateway_key()  # GatewayKeyError (a ValueError) naming the variable to set
        return self

    @model_validator(mode="after")
    def registered_user_sim(self) -> Self:
        """--user-sim names a registered simulator, and no other strategy or model beside it."""
        if self.user_sim:
            version = simulator(self.user_sim)  # ValueError naming the known ones
            for name, value in (("user_strategy", version.strategy), ("user_model", version.model)):
                if name in self.model_fields_set and getattr(self, name) != value:
                    flag = "--" + name.replace("_", "-")
                    raise ValueError(f"--user-sim {self.user_sim} plays {value}; {flag} {getattr(self, name)} too")
        return self

    @model_validator(mode="after")
    def resolve_domain(self) -> Self:
        """τ²'s ``--domain`` and an alias of ``--env`` name the domain; the limits not given stay the domain's own.

        Which seed, step and error limits a domain takes it declares itself (``DomainPlugin.run_defaults``); the run
        asks the env for them before it plays (:func:`taumesh.orchestrator.run.runner.resolve_domain`).
        """
        if self.domain is not None:
            variant = f"{VARIANT_SEPARATOR}{self.retrieval_config}" if self.retrieval_config is not None else ""
            wanted = domain_named(self.domain, "tau2")
            if "env" in self.model_fields_set and self.env not in (wanted, f"{wanted}{variant}"):
                raise ValueError(f"--domain {self.domain} and --env {self.env} name different domains")
            self.env = wanted
        else:
            self.env = domain_named(self.env)
        if self.retrieval_config is not None and VARIANT_SEPARATOR not in self.env:
            self.env = f"{self.env}{VARIANT_SEPARATOR}{self.retrieval_config}"
        return self

    def run_config(self) -> RunConfig:
        """The orchestrator's view of these settings."""
        # as typed: ids of the split (a number no task is named is its index), the same from flags, env and YAML
        task_ids, end_index = [str(given) for given in self.task_ids or ()] or None, self.end_index
        if self.num_tasks is not None:  # τ² takes the first N of the tasks it would run
            if task_ids:
                task_ids = task_ids[: self.num_tasks]
            else:
                last = self.start_index + self.num_tasks
                end_index = last if end_index == -1 else min(end_index, last)
        scope = {name: getattr(self, name) for name in RunScope.model_fields}
        return RunConfig(
            **scope | {"task_ids": task_ids, "end_index": end_index},
            agent=AgentSettings(
                strategy=self.agent_strategy,
                model=ModelSettings(
                    model=self.model,
                    provider=self.model_provider,
                    temperature=self.temperature,
                    api_base=self.gateway or self.api_base,
                ),
                few_shot_displays_path=self.few_shot_displays_path,
                dialogflow_cx=(
                    DialogflowCxAgent(project_id=self.project_id, location=self.location, agent_id=self.agent_id)
                    if self.agent_id or self.project_id
                    else None
                ),
            ),
            user=UserSettings(
                strategy=simulator(self.user_sim).strategy if self.user_sim else self.user_strategy,
                model=ModelSettings(
                    model=simulator(self.user_sim).model if self.user_sim else self.user_model,
                    provider=self.user_model_provider,
                    temperature=0.0,
                    api_base=self.user_api_base,
                ),
            ),
            provider_limits=self.provider_limit,
            seed=self.seed,
            data_dir=self.data_dir,
            addresses=ServiceAddresses(
                env=self.env_addr,
                user=self.user_addr,
                agent=self.agent_addr,
                scorer=self.scorer_addr,
                processes=self.embedded_processes,
            ),
            max_steps=self.max_steps,
            # a live progress bar would garble what a person playing the user types
            show_progress=not self.quiet and self.user_strategy != "human",
            max_errors=self.max_errors,
            judge=ModelSettings(model=self.judge_model, api_base=self.judge_api_base, temperature=0.0),
            gateway=self.gateway,
        )
