"""Run configuration: τ-bench v1's flags and defaults, plus where the services are."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Annotated, Any, Literal, Self, get_args

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    Field,
    SerializerFunctionWrapHandler,
    model_serializer,
    model_validator,
)

from taumesh.data import taubench_v1_dir
from taumesh.flags import Flag
from taumesh.gateway.signing import gateway_key, sign_rollout
from taumesh.llm.limiter import ProviderLimits
from taumesh.models import AgentSettings, ModelSettings, RunDefaults, UserSettings

Layout = Literal["taubench", "tau2", "mt"]
"""One results layout: τ-bench's file, τ²'s ``Results`` document, the MT-bench fork's ``data/`` folder."""
LAYOUTS: tuple[Layout, ...] = get_args(Layout)
"""Every layout, in the order a combination is written (``--output-format mt,taubench`` → ``taubench,mt``)."""
LAYOUT_ALIASES = {"both": ("taubench", "tau2")}
"""Names of combinations: ``both`` keeps the meaning it had before ``mt`` existed."""


def _join_list(value: object) -> object:
    """A list of layouts (YAML's ``[taubench, mt]``) in the comma form."""
    if isinstance(value, list | tuple):
        return ",".join(str(item) for item in value)
    return value


def normalize_output_format(value: str) -> str:
    """The canonical spelling of an output format: its layouts, comma-separated, in :data:`LAYOUTS`' order.

    Takes one layout (``mt``), a comma list (``taubench, mt``), the alias ``both`` (``taubench,tau2``), or a mix.
    """
    wanted: set[str] = set()
    for part in (p.strip() for p in value.split(",")):
        if part in LAYOUT_ALIASES:
            wanted.update(LAYOUT_ALIASES[part])
        elif part in LAYOUTS:
            wanted.add(part)
        else:
            names = ", ".join([*LAYOUTS, *LAYOUT_ALIASES])
            raise ValueError(f"unknown output format {part!r}: use {names}, or several joined by commas")
    return ",".join(layout for layout in LAYOUTS if layout in wanted)


OutputFormat = Annotated[str, BeforeValidator(_join_list), AfterValidator(normalize_output_format)]
"""Which results layouts a run writes: ``taubench``, ``tau2``, ``mt``, any of them joined by commas
(``taubench,mt``; a YAML list too), or ``both`` (= ``taubench,tau2``). Stored in the canonical comma form."""


def output_layouts(output_format: str) -> frozenset[Layout]:
    """The layouts an output format names (in any accepted spelling)."""
    names = normalize_output_format(output_format).split(",")
    return frozenset(layout for layout in LAYOUTS if layout in names)


SERVICE_NAMES = ("env", "user", "agent", "scorer")
"""The four services, as :class:`ServiceAddresses` names them."""


def _service_names(value: object) -> object:
    """``"agent, user"`` (commas or spaces; ``all`` for the four) as a set of service names, checked."""
    if not isinstance(value, str):
        return value
    names = {name for name in re.split(r"[,\s]+", value.strip().lower()) if name}
    if "all" in names:
        return frozenset(SERVICE_NAMES)
    unknown = names - set(SERVICE_NAMES)
    if unknown:
        raise ValueError(f"{sorted(unknown)} are not services: the services are {', '.join(SERVICE_NAMES)} (or all)")
    return frozenset(names)


ServiceNames = Annotated[frozenset[Literal["env", "user", "agent", "scorer"]], BeforeValidator(_service_names)]
"""Some of the four services: a set, or their names in one string (``"agent,user"``, ``"all"``)."""


class ServiceAddresses(BaseModel):
    """host:port of each service; None starts that service here, on loopback."""

    env: str | None = None
    user: str | None = None
    agent: str | None = None
    scorer: str | None = None
    processes: ServiceNames = frozenset()
    """Services started here that run in child processes of their own rather than in this process
    (:mod:`taumesh.orchestrator.run.service_processes`), so an embedded run uses more than one core."""

    def remote(self) -> dict[str, str]:
        """The services given by address (host:port), by name."""
        return {name: address for name in SERVICE_NAMES if (address := getattr(self, name))}


class RunScope(BaseModel, use_attribute_docstrings=True):
    """What a run plays and writes, declared once for ``taumesh run`` (flags, environment, YAML) and RunConfig.

    Each docstring is the flag's help; :class:`taumesh.flags.Flag` adds spellings the name does not give.
    """

    env: str = "retail"
    """Domain: {domains}, or one added as a folder plugin (see docs/adding-a-domain.md)."""
    task_split: Annotated[str | None, Flag("--task-split-name")] = None
    """Task split (default: the domain's first: test for τ-bench's, base for τ²'s)."""
    task_ids: Annotated[list[int | str] | None, Flag(parse_as=list[str] | None)] = None
    """Run only these tasks (repeatable, or several after one flag: --task-ids 1 2 3): τ-bench's indexes, τ²'s ids
    of the split (task_001; a number no task is named is its index)."""
    start_index: int = 0
    """First task index of the range."""
    end_index: int = -1
    """End of the range (exclusive); -1: to the end."""
    num_trials: int = Field(default=1, ge=1)
    """Trials of each task."""
    max_concurrency: int = Field(default=1, ge=1)
    """Episodes in flight at once."""
    allow_release_change: bool = False
    """Continue (--resume) or re-grade (rescore) results recorded on another release of the domain's data."""
    tasks: Literal["all", "certified"] = "all"
    """all: every selected task; certified: only those the stored audit of the data flags nothing on (made by
    `taumesh domain audit NAME --write`; docs/validity.md)."""
    grader: Literal["faithful", "strict"] = "faithful"
    """faithful: the benchmark's own grading, bit for bit; strict: a task whose gold errors is excluded, and lists
    the domain declares sets are compared in any order (docs/validity.md)."""
    shuffle: Annotated[bool, Flag(parse_as=int)] = False
    """Shuffle task order within each trial (τ-bench's --shuffle 1)."""
    log_dir: Path = Path("results")
    """Where the results files are written."""
    output_format: OutputFormat = "taubench"
    """taubench: τ-bench's list; tau2: τ²'s Results document; mt: the MT-bench fork's data/ folder; several joined
    by commas (taubench,mt); both = taubench,tau2."""
    dataset_name: str = Field(default="tau_bench", min_length=1)
    """The MT layout's folder: data/{dataset_name}_{env}_{timestamp}."""
    mt_fork_folder: bool = False
    """The MT folder where the fork writes it: ./data/{dataset_name}_{timestamp} in the working directory (no env
    added, not under --log-dir)."""
    agent_tools: Literal["inline", "mcp"] = "inline"
    """inline, or mcp: the agent under test takes its tools over MCP (NextMessageRequest.mcp_url)."""
    otlp_endpoint: str | None = None
    """OTLP/gRPC endpoint for traces and metrics (or OTEL_EXPORTER_OTLP_*)."""
    verbose: Annotated[bool, Flag("-v")] = False
    """Print each episode's conversation as it ends."""
    workers: int = Field(default=1, ge=0)
    """Orchestrator processes sharing the run, --max-concurrency split among them (1: this process alone), for
    very wide runs whose orchestrator CPU is the bottleneck; 0 (only with --work-store): none here, the workers
    join by the store's URL."""
    work_store: str | None = None
    """The run's work store, a SQLAlchemy URL (postgresql+psycopg://…): workers on other machines join the run with
    `taumesh worker --work-store URL`. Default: a SQLite file beside the results."""

    @model_validator(mode="after")
    def _workers_need_a_store(self) -> Self:
        """``--workers 0`` coordinates only: the workers join by the store's URL, so there must be one."""
        if self.workers == 0 and self.work_store is None:
            raise ValueError("--workers 0 (coordinate only) needs --work-store, where the workers join the run")
        return self


class RunConfig(RunScope):
    """One benchmark run: which tasks, how many trials, which agent and user."""

    agent: AgentSettings = Field(default_factory=lambda: AgentSettings(strategy="tool-calling"))
    user: UserSettings = Field(
        default_factory=lambda: UserSettings(strategy="llm", model=ModelSettings(model="gpt-4o"))
    )
    provider_limits: ProviderLimits = Field(default_factory=dict)
    """Model calls in flight per provider over the whole run (``--provider-limit openai=20``); a provider not
    named here is held to ``max_concurrency`` (:mod:`taumesh.orchestrator.provider_limits`)."""
    seed: int | None = None
    """Seeds the task order (``--shuffle``) and both models; per trial where the domain derives trial seeds (τ²).
    None: the domain's (:meth:`with_defaults`)."""
    data_dir: Path = Field(default_factory=taubench_v1_dir)
    """Not given: :func:`taumesh.data.taubench_v1_dir`, resolved when the config is made (``TAUMESH_DATA_DIR``, else
    ``<TAUMESH_CACHE_DIR>/taubench_v1``)."""
    addresses: ServiceAddresses = Field(default_factory=ServiceAddresses)
    max_steps: int | None = Field(default=None, ge=1)
    """Steps an episode may take. None: the domain's (:meth:`with_defaults`)."""
    max_episode_attempts: int = Field(default=3, ge=1)
    """Attempts at an episode that fails for infrastructure reasons before it is recorded as an error."""
    rpc_timeout: float = Field(default=60.0, gt=0)
    """Deadline of env and scorer calls, in seconds."""
    model_timeout: float = Field(default=900.0, gt=0)
    """Deadline of agent and user-sim calls, in seconds: longer than a model call's own retry budget
    (TAUMESH_LLM_MAX_ATTEMPTS x TAUMESH_LLM_TIMEOUT plus backoff, 5 x 120 s + waits by default)."""
    show_progress: bool = True
    max_errors: int | None = Field(default=None, ge=1)
    """Tool results that are errors an episode may have, cumulative (τ²'s rule). None: the domain's, which may be
    no limit (τ-bench v1's)."""
    per_trial_seeds: bool | None = None
    """Give each trial its own seed, τ²'s: ``random.seed(seed)`` then ``randint(0, 1_000_000)`` per trial. None: as
    the domain does."""
    episode_seeds: Literal["benchmark", "sha256"] = "benchmark"
    """How each episode's seed is derived from the run's: ``benchmark``, as the domain's own benchmark does (see
    ``per_trial_seeds``); ``sha256``, per (run, task, trial) by :func:`taumesh.orchestrator.run.runner.seed_for`,
    given to both models. Only the Python rollout API (:mod:`taumesh.rollout`) sets it: ``taumesh run`` has no flag.
    Dumped only when not the default, so a run of ``taumesh run`` dumps as it did before it existed."""
    run_defaults: RunDefaults | None = None
    """The domain's run defaults as the env sent them (``DomainInfo.run_defaults``), once :meth:`with_defaults`
    has applied them; None before. Results record them (``info.run.run_defaults``)."""
    judge: ModelSettings = Field(default_factory=ModelSettings)
    """The model that judges τ²'s NL assertions (sent with every ScoreEpisode); empty: none, and a task that
    needs one fails with FAILED_PRECONDITION instead of being scored."""
    gateway: str = ""
    """The model gateway the agent's model calls go through (``taumesh serve gateway``, its ``/v1`` base URL, also
    the agent's ``api_base``); empty: none. With one, each episode's id is signed with ``TAUMESH_GATEWAY_KEY``
    (:meth:`rollout_token`) and recorded as ``info.rollout_id``. Dumped only when set, as ``episode_seeds``."""

    @model_serializer(mode="wrap")
    def _episode_seeds_when_not_the_default(self, dump: SerializerFunctionWrapHandler) -> dict[str, Any]:
        """The run's fields, ``episode_seeds`` and ``gateway`` left out at their defaults (read back, restored)."""
        fields: dict[str, Any] = dump(self)
        if self.episode_seeds == "benchmark":
            fields.pop("episode_seeds", None)
        if not self.gateway:
            fields.pop("gateway", None)
        return fields

    def rollout_token(self, episode_id: str) -> str:
        """The episode's signed rollout id for the gateway (``EpisodeContext.rollout_token``); "" without a gateway.

        Raises :class:`~taumesh.gateway.GatewayKeyError` when the run has a gateway but ``TAUMESH_GATEWAY_KEY`` is
        unset (:class:`~taumesh.orchestrator.options.RunOptions` refuses such a run before it starts).
        """
        if not self.gateway:
            return ""
        key = gateway_key()
        assert key is not None  # required: GatewayKeyError otherwise
        return sign_rollout(key, episode_id)

    def with_defaults(self, defaults: RunDefaults) -> RunConfig:
        """The run with each value it leaves unset taken from its domain's ``defaults``, as the env sent them.

        Every front door's run comes here (the runner, the API, the Gym), so a domain's limits are declared once, by
        the domain. The run's seed seeds both models' strategies too, and goes with their requests where the domain's
        benchmark sends it (``defaults.model_seed``: τ² does, τ-bench v1 does not).
        """
        seed = defaults.seed if self.seed is None else self.seed
        seeded = {"seed": seed, "send_seed": defaults.model_seed}
        agent_model = self.agent.model.model_copy(update=seeded)
        user_model = self.user.model.model_copy(update=seeded)
        return self.model_copy(
            update={
                "run_defaults": defaults,
                "seed": seed,
                "max_steps": defaults.max_steps if self.max_steps is None else self.max_steps,
                "max_errors": defaults.max_errors if self.max_errors is None else self.max_errors,
                "per_trial_seeds": defaults.per_trial_seeds if self.per_trial_seeds is None else self.per_trial_seeds,
                "agent": self.agent.model_copy(update={"model": agent_model}),
                "user": self.user.model_copy(update={"model": user_model}),
            }
        )

    @property
    def limits(self) -> RunDefaults:
        """What this run plays by: its own seed and limits where given, else its domain's, once resolved.

        Raises RuntimeError before :meth:`with_defaults`: nothing plays a run whose domain has not been asked.
        """
        if self.run_defaults is None:
            raise RuntimeError(f"the run of {self.env!r} has not taken its domain's run defaults (with_defaults)")
        return self.run_defaults.model_copy(
            update={
                "seed": self.seed,
                "max_steps": self.max_steps,
                "max_errors": self.max_errors,
                "per_trial_seeds": self.per_trial_seeds,
            }
        )

    @property
    def layouts(self) -> frozenset[Layout]:
        """The results layouts this run writes."""
        return output_layouts(self.output_format)
