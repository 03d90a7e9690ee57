"""``taumesh play``: a person plays the agent in the terminal against a simulated user, and sees the reward.

It picks the domain and the task (from the flags, or by asking), shows the policy and the tools, then reads one
action a line: words for the user, or a tool call (``name(key="value")`` or ``{"name": ..., "arguments": {...}}``).
The episode runs over the real services through the Gym interface (``taumesh.orchestrator.gym.AgentEnv``), so the
user, the tools and the reward are exactly those of ``taumesh run``.
"""

from __future__ import annotations

import json
import sys
from typing import Annotated, Any

import grpc
import typer

from taumesh.commands._common import DataDir
from taumesh.models import ChatMessage, ModelSettings, UserSettings
from taumesh.orchestrator.episode.turn_loop import EpisodeInterrupted
from taumesh.orchestrator.gym import ActionError, AgentEnv, render_message
from taumesh.services.user_sim.strategies import calls_model as user_calls_model

HELP = """Type a message for the user, or call a tool:
  name(key="value", ...)                       e.g. get_user_details(user_id="mia_li_3668")
  {"name": "...", "arguments": {...}}          the same call as JSON
Commands: /tools, /policy, /help, /quit (the episode is then not scored)."""

TOOL_RESULT_CHARS = 4000
"""A tool's result is shown up to this length (the agent's observation keeps it whole)."""


class Abandoned(Exception):
    """The person quit (``/quit``, end of input, Ctrl-C): nothing is scored."""


def ask(prompt: str) -> str:
    """One line typed after ``prompt``, without its end; :class:`Abandoned` at end of input."""
    sys.stdout.write(prompt)
    sys.stdout.flush()
    line = sys.stdin.readline()
    if not line:
        sys.stdout.write("\n")
        raise Abandoned
    line = line.rstrip("\r\n")
    if not sys.stdin.isatty():  # piped: show what was read, as a terminal would have echoed it
        sys.stdout.write(f"{line}\n")
    return line


def choose_domain(env: AgentEnv) -> str:
    """Ask for one of the domains with data, by number or name."""
    domains = env.domains()
    names = sorted(domains)
    if not names:
        raise typer.BadParameter("no domain has data: taumesh data fetch tau2, or --data-dir", param_hint="--env")
    print("Domains with data:")
    for number, name in enumerate(names, 1):
        print(f"  {number}. {name} ({', '.join(domains[name])})")
    while True:
        answer = ask("Domain (number or name): ").strip()
        if answer in domains:
            return answer
        if answer.isdigit() and 1 <= int(answer) <= len(names):
            return names[int(answer) - 1]
        print(f"  no domain {answer!r}: type a number from 1 to {len(names)} or a name")


def choose_task(env: AgentEnv) -> str | None:
    """Ask for a task id of the configured split; None (an empty line): a random one."""
    ids = env.task_ids()
    print(f"{len(ids)} tasks: {', '.join(ids) if len(ids) <= 20 else f'{ids[0]} … {ids[-1]}'}")
    while True:
        answer = ask("Task id (Enter: a random one): ").strip()
        if not answer:
            return None
        if answer in ids:
            return answer
        print(f"  no task {answer!r} in this split")


def describe_tools(tools: list[dict[str, Any]]) -> str:
    """One line per tool: its name, its parameters (optional ones with ``?``) and its description's first line."""
    lines = []
    for tool in tools:
        function = tool["function"]
        parameters = function.get("parameters") or {}
        required = set(parameters.get("required") or [])
        names = [name if name in required else f"{name}?" for name in parameters.get("properties") or {}]
        summary = (function.get("description") or "").strip().splitlines()
        lines.append(f"  {function['name']}({', '.join(names)}){': ' + summary[0] if summary else ''}")
    return "\n".join(lines)


def show(messages: list[dict[str, Any]]) -> None:
    """Print what the agent has not seen yet: the user's words and its tools' results."""
    for raw in messages:
        message = ChatMessage.from_openai(raw)
        if message.role == "assistant":
            continue  # the person's own action, already on the screen
        if message.role == "tool":
            content = message.content
            cut = f" … ({len(content)} characters)" if len(content) > TOOL_RESULT_CHARS else ""
            print(f"tool {message.name}: {content[:TOOL_RESULT_CHARS]}{cut}")
        else:
            print(render_message(message))


def play_episode(env: AgentEnv, task_id: str | None) -> tuple[float, dict[str, Any]]:
    """Reset, then read actions until the episode ends: (reward, final info)."""
    observation, info = env.reset(options={} if task_id is None else {"task_id": task_id})
    print(f"\n== {info['domain']} {info['task_split']} task {info['task_id']}: you are the agent ==")
    print(f"\n== Policy ==\n{info['policy']}\n\n== Tools ==\n{describe_tools(info['tools'])}\n\n{HELP}\n")
    seen = 0
    while True:
        messages = json.loads(observation)["messages"]
        show(messages[seen:])
        seen = len(messages)
        action = ask("agent> ")
        command = action.strip()
        if command in ("/quit", "/exit"):
            raise Abandoned
        if command in ("/help", "/tools", "/policy"):
            print({"/help": HELP, "/tools": describe_tools(info["tools"]), "/policy": info["policy"]}[command])
            continue
        if not command:
            continue
        try:
            observation, reward, terminated, truncated, step_info = env.step(action)
        except ActionError as exc:
            print(f"  not sent: {exc}")
            continue
        if terminated or truncated:
            messages = json.loads(observation)["messages"]
            show(messages[seen:])
            return float(reward), step_info


def play(
    env_name: Annotated[
        str | None, typer.Option("--env", "--domain", help="Domain (retail, airline, tau2-mock, …). Asked if absent.")
    ] = None,
    task_split: Annotated[
        str | None, typer.Option("--task-split", "--task_split", help="Split (default: the domain's first).")
    ] = None,
    task_id: Annotated[str | None, typer.Option("--task-id", "--task_id", help="Task id. Asked if absent.")] = None,
    user_strategy: Annotated[
        str, typer.Option("--user-strategy", "--user_strategy", help="The simulated user: scripted, llm, …")
    ] = "scripted",
    user_model: Annotated[str, typer.Option("--user-model", "--user_model", help="Model of an LLM user.")] = "",
    user_model_provider: Annotated[
        str, typer.Option("--user-model-provider", "--user_model_provider", help="Its provider (litellm's name).")
    ] = "",
    user_api_base: Annotated[
        str, typer.Option("--user-api-base", "--user_api_base", help="OpenAI-compatible base URL of the user's model.")
    ] = "",
    *,
    data_dir: DataDir,
    max_steps: Annotated[
        int | None, typer.Option("--max-steps", "--max_steps", min=1, help="Default: 30 (τ-bench), 200 (τ²).")
    ] = None,
) -> None:
    """Play the agent yourself: pick a task, read the policy and tools, talk to the simulated user, get the reward."""
    if user_strategy == "human":
        raise typer.BadParameter("you play the agent here: the user must be simulated", param_hint="--user-strategy")
    if user_calls_model(user_strategy) and not user_model:
        raise typer.BadParameter(f"--user-strategy {user_strategy} needs --user-model", param_hint="--user-model")
    model = ModelSettings(model=user_model, provider=user_model_provider, api_base=user_api_base)
    env = AgentEnv(
        domain=env_name or "retail",
        task_split=task_split,
        data_dir=data_dir,
        user=UserSettings(strategy=user_strategy, model=model),
        max_steps=max_steps,
    )
    try:
        if env_name is None:
            env.config.domain = choose_domain(env)
        if task_id is None:
            task_id = choose_task(env)
        reward, info = play_episode(env, task_id)
    except Abandoned:
        print("Episode given up: not scored.")
        raise typer.Exit(1) from None
    except KeyboardInterrupt:
        print("\nInterrupted: not scored.")
        raise typer.Exit(130) from None
    except ValueError as exc:
        print(f"Error: {exc}", file=sys.stderr)
        raise typer.Exit(2) from None
    except (EpisodeInterrupted, grpc.aio.AioRpcError) as exc:
        print(f"Error: the episode cannot go on: {exc}", file=sys.stderr)
        raise typer.Exit(1) from None
    finally:
        env.close()
    print(f"\n== Episode over ({info['termination']}, {info['episode_steps']} steps) ==")
    for check in info["checks"]:
        print(f"  {'passed' if check['passed'] else 'FAILED'}: {check['basis']} {check['subject']}".rstrip())
    print(f"reward: {reward}")
