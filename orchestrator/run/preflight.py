"""What every front door checks of a run before anything plays: strategies, models, data, prompts, services.

:func:`run_problems` is the one pre-flight of ``taumesh run``, the REST API, the A2A green agent and the Gym: the
strategies exist and have the models they call, the models' providers are known and their credentials present for
services started here (without importing litellm to say a key is missing), the embedded env has the domain's data,
the embedded user simulator has τ-bench's imported prompts when it plays τ-bench's users, and remote services
answer. It reports every problem it finds, each naming the setting at fault and the command or flag that fixes it.
Nothing here calls a model.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from taumesh.models import ModelSettings
from taumesh.orchestrator.config import RunConfig, ServiceAddresses
from taumesh.rpc.loop import run as run_loop


@dataclass(frozen=True)
class Problem:
    """One reason a run cannot start: the setting at fault, and what is wrong, worded for a person.

    ``setting`` is ``taumesh run``'s name for it, which the REST body and the YAML file share.
    """

    setting: str
    message: str


def run_problems(config: RunConfig, check_services: bool = True) -> list[Problem]:
    """Every reason ``config`` cannot run here, found before any episode starts; empty: it can.

    ``check_services``: also dial the remote services (a blocking wait of up to the connect timeout; a server that
    dials its own operator-configured services leaves it out).
    """
    problems = strategy_problems(config) + model_problems(config)
    if config.addresses.env is None:
        problem = domain_problem(config.env, config.data_dir)
        if problem:
            problems.append(Problem("env", problem))
    if config.addresses.user is None:  # the embedded user reads τ-bench's prompts from the data
        problem = user_prompts_problem(config.user.strategy, config.env, config.data_dir)
        if problem:
            problems.append(Problem("user_strategy", problem))
    if check_services and not problems:  # last, and only when nothing else is wrong: it may wait for an answer
        problem = services_problem(config.addresses)
        if problem:
            problems.append(Problem("env_addr", problem))
    return problems


def strategy_problems(config: RunConfig) -> list[Problem]:
    """Why the built-in services cannot run the chosen strategies.

    Only checked for services started here: a remote service knows its own strategies.
    """
    from taumesh.services.agent.strategies import STRATEGIES as AGENTS
    from taumesh.services.agent.strategies import calls_model as agent_calls_model
    from taumesh.services.user_sim.strategies import STRATEGIES as USERS

    agent, user = config.agent.strategy, config.user.strategy
    problems = []
    if config.addresses.agent is None:
        if agent not in AGENTS:
            problems.append(
                Problem("agent_strategy", f"unknown agent strategy {agent!r}; built-in: {', '.join(sorted(AGENTS))}")
            )
        elif agent_calls_model(agent) and not config.agent.model.model:
            problems.append(Problem("model", f"--agent-strategy {agent} needs --model"))
        elif agent == "a2a" and not config.agent.model.api_base.strip():  # its agent's URL is where it plays
            problems.append(Problem("api_base", "--agent-strategy a2a needs --api-base: the A2A agent's URL"))
    if config.addresses.user is None and user not in USERS:
        problems.append(
            Problem("user_strategy", f"unknown user strategy {user!r}; built-in: {', '.join(sorted(USERS))}")
        )
    return problems


def model_problems(config: RunConfig) -> list[Problem]:
    """Why the models of this run cannot be called: an unknown provider, few-shot without its file, no credentials.

    The agent's and the user's models where their strategies call one, and the scorer's judge where one is named.

    Credentials and files are checked only for services started here: a remote service uses its own environment.
    """
    from taumesh.services.agent.strategies import STRATEGIES as AGENTS
    from taumesh.services.agent.strategies import calls_model as agent_calls_model
    from taumesh.services.user_sim.strategies import STRATEGIES as USERS
    from taumesh.services.user_sim.strategies import calls_model as user_calls_model

    agent, user = config.agent, config.user
    checks: list[tuple[ModelSettings, str, bool]] = []  # the model, its role's setting prefix, served here
    if agent.strategy in AGENTS and agent_calls_model(agent.strategy):
        checks.append((agent.model, "model", config.addresses.agent is None))
    if user.strategy in USERS and user_calls_model(user.strategy):
        checks.append((user.model, "user_model", config.addresses.user is None))
    problems = []
    if agent.strategy == "few-shot":
        path = agent.few_shot_displays_path
        if not path:
            message = '--agent-strategy few-shot needs --few-shot-displays-path (a JSONL of {"messages_display": ...})'
            problems.append(Problem("few_shot_displays_path", message))
        elif config.addresses.agent is None and not Path(path).is_file():
            problems.append(Problem("few_shot_displays_path", f"--few-shot-displays-path {path}: no such file"))
    if config.judge.model:  # the scorer's judge of NL assertions, in litellm's provider/model form
        provider, _, name = config.judge.model.partition("/")
        judge = (
            config.judge.model_copy(update={"provider": provider})
            if name and not config.judge.provider
            else config.judge
        )
        checks.append((judge, "judge_model", config.addresses.scorer is None))
    if not any(settings.provider or embedded for settings, _, embedded in checks):
        return problems  # nothing litellm must vouch for here: it (seconds to import) stays off the start path
    from taumesh.llm.preflight import credentials_problem, provider_problem

    for settings, model_setting, embedded in checks:
        provider_setting = f"{model_setting}_provider" if model_setting != "judge_model" else model_setting
        problem = provider_problem(settings.provider, "--" + provider_setting.replace("_", "-"))
        if problem:
            problems.append(Problem(provider_setting, problem))
        elif embedded and settings.model:
            problem = credentials_problem(settings, "--" + model_setting.replace("_", "-"))
            if problem:
                problems.append(Problem(model_setting, problem))
    return problems


TAUBENCH_USERS = frozenset({"llm", "react", "verify", "reflection", "strict"})
"""User strategies playing τ-bench's own users (its prompts, imported) where the domain brings no prompt of its own."""

ADDRESS_FLAGS = {"env": "--env-addr", "user": "--user-addr", "agent": "--agent-addr", "scorer": "--scorer-addr"}


def services_problem(addresses: ServiceAddresses) -> str | None:
    """Which given service addresses accept no connection within the connect timeout, or None."""
    from taumesh.orchestrator.clients import CONNECT_TIMEOUT_ENV, connect_timeout, unreachable_services
    from taumesh.rpc.security import SecurityError

    targets = addresses.remote()
    if not targets:
        return None
    timeout = connect_timeout()
    refused = [name for name, address in targets.items() if connection_refused(address, timeout)]
    if refused:  # nothing listens there: say so now, not after the whole wait
        named = ", ".join(f"{ADDRESS_FLAGS[name]} {targets[name]}" for name in refused)
        return f"no connection to {named} within {timeout:g}s (refused at once): is the service running there?"
    try:
        down = run_loop(unreachable_services(targets, timeout))
    except SecurityError as exc:
        return str(exc)
    if not down:
        return None
    named = ", ".join(f"{ADDRESS_FLAGS[name]} {targets[name]}" for name in down)
    return (
        f"no connection to {named} within {timeout:g}s: is the service running there, and do its TLS settings "
        f"match TAUMESH_TLS_*? ({CONNECT_TIMEOUT_ENV} sets the wait)"
    )


def connection_refused(address: str, timeout: float) -> bool:
    """Whether a plain ``host:port`` address refuses a TCP connection (nothing listens); False when unsure.

    gRPC's own dial retries a refused connection with backoff until the connect timeout (10 s by default). Names in
    gRPC's other forms (``dns:///``, ``ipv4:`` lists, ``unix:``) are left to it, and so is any answer but a refusal.
    """
    import socket

    host, _, port = address.rpartition(":")
    host = host.removeprefix("[").removesuffix("]")
    if not host or not port.isdigit() or "/" in host or host.startswith(("dns:", "ipv4:", "ipv6:", "unix:")):
        return False
    try:
        socket.create_connection((host, int(port)), timeout=timeout).close()
    except ConnectionRefusedError:
        return True
    except OSError:
        return False
    return False


def domain_problem(env: str, data_dir: Path) -> str | None:
    """Why the embedded env cannot serve domain ``env`` from ``data_dir``, naming the command that provides it."""
    from taumesh.domains import DataError, Registry

    registry = Registry.discover()
    try:
        plugin = registry.get(env)  # a variant (<domain>:<variant>) too
    except DataError as exc:  # a plugin that failed to load
        return str(exc)
    except KeyError:
        return f"unknown domain {env!r}; domains: {', '.join(sorted(registry.plugins)) or 'none loaded'}"
    if plugin.data_dir(data_dir).is_dir():
        return plugin.run_problem()  # what this machine lacks to run it (a model, a sandbox), as loading it says
    return plugin.missing_data(data_dir)


def user_prompts_problem(strategy: str, env: str, data_dir: Path) -> str | None:
    """Why the embedded user simulator cannot play ``strategy`` on ``env``: τ-bench's prompts were never imported.

    τ-bench's ``llm``, ``react``, ``verify`` and ``reflection`` users send τ-bench's own prompts, which taumesh
    does not ship; without them every episode would fail, one by one, after the run started. A domain that prompts
    its user itself (τ²'s) or gives the user tools (healthcare's dual control) is left to its own checks.
    """
    if strategy not in TAUBENCH_USERS:
        return None
    from taumesh.domains import DataError, Registry
    from taumesh.rpc.errors import FailedPrecondition
    from taumesh.services.user_sim.strategies.taubench_prompts import taubench_user_prompts

    try:
        plugin = Registry.discover().get(env)
    except (KeyError, DataError):
        return None  # domain_problem says so
    if plugin.own_user_prompt or any(tool.side == "user" for tool in plugin.tools):
        return None
    try:
        taubench_user_prompts(data_dir)
    except FailedPrecondition as exc:
        return f"--user-strategy {strategy} plays τ-bench's user, whose prompts are not imported: {exc}"
    return None
