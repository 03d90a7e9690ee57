"""Attribute, span and metric names: the GenAI semantic conventions we follow, and taumesh's own.

Our own constants rather than ``opentelemetry.semconv``'s: the GenAI names there live in an
``_incubating`` module and keep moving (``gen_ai.system`` became ``gen_ai.provider.name``).
Every name is registered in :data:`REGISTRY`, which ``docs/telemetry.md`` lists.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, Literal

Kind = Literal["resource", "span", "metric"]


@dataclass(frozen=True)
class AttributeSpec:
    """One registered name."""

    name: str
    type: str
    brief: str
    kind: Kind = "span"
    opt_in: bool = False
    """Recorded only when message content capture is on (it may hold personal data)."""


REGISTRY: list[AttributeSpec] = []


def _attr(name: str, type_: str, brief: str, kind: Kind = "span", *, opt_in: bool = False) -> str:
    REGISTRY.append(AttributeSpec(name, type_, brief, kind, opt_in))
    return name


# --- resource -----------------------------------------------------------------------------------------------

SERVICE_NAME: Final = _attr(
    "service.name",
    "string",
    "taumesh-env, taumesh-user-sim, taumesh-agent, taumesh-scorer, taumesh-orchestrator.",
    "resource",
)
SERVICE_NAMESPACE: Final = _attr("service.namespace", "string", "Always `taumesh`.", "resource")
SERVICE_VERSION: Final = _attr("service.version", "string", "The taumesh package version.", "resource")
SERVICE_INSTANCE_ID: Final = _attr("service.instance.id", "string", "Random id of one service instance.", "resource")
TAUMESH_EMBEDDED: Final = _attr(
    "taumesh.embedded", "boolean", "True for a service started in-process by `taumesh run`.", "resource"
)

# --- GenAI semantic conventions -----------------------------------------------------------------------------

GEN_AI_OPERATION_NAME: Final = _attr(
    "gen_ai.operation.name", "string", "`chat`, `invoke_agent` or `execute_tool` (GenAI semconv)."
)
GEN_AI_PROVIDER_NAME: Final = _attr(
    "gen_ai.provider.name", "string", "Model provider: `openai`, `anthropic`, … (GenAI semconv)."
)
GEN_AI_SYSTEM: Final = _attr(
    "gen_ai.system", "string", "Deprecated name of `gen_ai.provider.name`, still read by many backends; same value."
)
GEN_AI_REQUEST_MODEL: Final = _attr("gen_ai.request.model", "string", "Model asked for.")
GEN_AI_REQUEST_TEMPERATURE: Final = _attr("gen_ai.request.temperature", "double", "Sampling temperature.")
GEN_AI_REQUEST_SEED: Final = _attr("gen_ai.request.seed", "int", "Sampling seed.")
GEN_AI_REQUEST_MAX_TOKENS: Final = _attr("gen_ai.request.max_tokens", "int", "Output token limit, when set.")
GEN_AI_RESPONSE_MODEL: Final = _attr("gen_ai.response.model", "string", "Model that answered.")
GEN_AI_RESPONSE_ID: Final = _attr("gen_ai.response.id", "string", "Provider's id of the completion.")
GEN_AI_RESPONSE_FINISH_REASONS: Final = _attr(
    "gen_ai.response.finish_reasons", "string[]", "Why each choice stopped: `stop`, `tool_calls`, `length`, …"
)
GEN_AI_USAGE_INPUT_TOKENS: Final = _attr(
    "gen_ai.usage.input_tokens", "int", "Prompt tokens (of one LLM call; summed over the calls of an agent step)."
)
GEN_AI_USAGE_OUTPUT_TOKENS: Final = _attr("gen_ai.usage.output_tokens", "int", "Completion tokens.")
GEN_AI_TOOL_NAME: Final = _attr("gen_ai.tool.name", "string", "Tool the agent called.")
GEN_AI_TOOL_CALL_ID: Final = _attr("gen_ai.tool.call.id", "string", "Id the agent gave the call.")
GEN_AI_TOOL_TYPE: Final = _attr("gen_ai.tool.type", "string", "Always `function`.")
GEN_AI_TOOL_CALL_ARGUMENTS: Final = _attr(
    "gen_ai.tool.call.arguments", "string", "Arguments JSON as the model wrote it.", opt_in=True
)
GEN_AI_TOOL_CALL_RESULT: Final = _attr("gen_ai.tool.call.result", "string", "The tool's observation.", opt_in=True)
GEN_AI_AGENT_NAME: Final = _attr("gen_ai.agent.name", "string", "Agent strategy: `oracle`, `tool-calling`, `react`, …")
GEN_AI_CONVERSATION_ID: Final = _attr(
    "gen_ai.conversation.id", "string", "The episode attempt's id (same as `taumesh.episode.id`)."
)
GEN_AI_INPUT_MESSAGES: Final = _attr(
    "gen_ai.input.messages", "string (JSON)", "Messages sent to the model (GenAI semconv JSON form).", opt_in=True
)
GEN_AI_OUTPUT_MESSAGES: Final = _attr(
    "gen_ai.output.messages",
    "string (JSON)",
    "Messages the model, agent or simulated user produced (GenAI semconv JSON form).",
    opt_in=True,
)
GEN_AI_SYSTEM_INSTRUCTIONS: Final = _attr(
    "gen_ai.system_instructions", "string (JSON)", "System prompt (the domain policy) sent to the model.", opt_in=True
)
GEN_AI_TOOL_DEFINITIONS: Final = _attr(
    "gen_ai.tool.definitions", "string (JSON)", "Tool schemas offered to the model.", opt_in=True
)
GEN_AI_TOKEN_TYPE: Final = _attr("gen_ai.token.type", "string", "`input` or `output` (on token metrics).", "metric")

ERROR_TYPE: Final = _attr("error.type", "string", "Class of the error that ended the operation.")
SERVER_ADDRESS: Final = _attr("server.address", "string", "Host of the model API (never its credentials or path).")
SERVER_PORT: Final = _attr("server.port", "int", "Port of the model API, when the base URL names one.")

# Operation names (values of gen_ai.operation.name).
OP_CHAT: Final = "chat"
OP_INVOKE_AGENT: Final = "invoke_agent"
OP_EXECUTE_TOOL: Final = "execute_tool"

# --- taumesh --------------------------------------------------------------------------------------------------

TAUMESH_LLM_ATTEMPT: Final = _attr(
    "taumesh.llm.attempt", "int", "Attempt number of an LLM call (1; 2 and up are retries after transient faults)."
)
TAUMESH_TASK_ID: Final = _attr("taumesh.task.id", "int", "τ-bench task id (index in the split).")
TAUMESH_TASK_SPLIT: Final = _attr("taumesh.task.split", "string", "Task split: `test`, `train`, `dev`.")
TAUMESH_DOMAIN: Final = _attr("taumesh.domain", "string", "Domain: `retail`, `airline`.")
TAUMESH_TRIAL: Final = _attr("taumesh.trial", "int", "Trial number, from 0.")
TAUMESH_EPISODE_ID: Final = _attr("taumesh.episode.id", "string", "Id of the episode attempt that was scored.")
TAUMESH_EPISODE_ATTEMPTS: Final = _attr(
    "taumesh.episode.attempts", "int", "Attempts the episode took (more than 1 after infrastructure faults)."
)
TAUMESH_AGENT_STRATEGY: Final = _attr("taumesh.agent.strategy", "string", "Agent strategy of the run.")
TAUMESH_AGENT_MODEL: Final = _attr("taumesh.agent.model", "string", "Agent model of the run (empty: none).")
TAUMESH_USER_STRATEGY: Final = _attr("taumesh.user.strategy", "string", "User-simulator strategy.")
TAUMESH_USER_MODEL: Final = _attr("taumesh.user.model", "string", "User-simulator model (empty: none).")
TAUMESH_USER_PHASE: Final = _attr("taumesh.user.phase", "string", "`start` (opening message) or `reply`.")
TAUMESH_USER_STOP: Final = _attr("taumesh.user.stop", "boolean", "The simulated user ended the conversation.")
TAUMESH_TERMINATION: Final = _attr(
    "taumesh.termination", "string", "How the episode ended: `user_stop`, `terminate_tool`, `max_steps`, `env_abort`."
)
TAUMESH_STEPS: Final = _attr("taumesh.steps", "int", "Steps taken (tool calls plus messages to the user).")
TAUMESH_REWARD: Final = _attr("taumesh.reward", "double", "The episode's reward, 0.0 to 1.0.")
TAUMESH_REWARD_ACTIONS: Final = _attr(
    "taumesh.reward.r_actions", "double", "Reward from the final database state matching the gold one."
)
TAUMESH_REWARD_OUTPUTS: Final = _attr(
    "taumesh.reward.r_outputs", "double", "Reward from the required outputs appearing in the agent's answers."
)
TAUMESH_OUTCOME: Final = _attr(
    "taumesh.outcome", "string", "`success` (reward 1), `failure` (scored below 1) or `error` (infrastructure)."
)
TAUMESH_COST_USD: Final = _attr("taumesh.cost_usd", "double", "Model cost in US dollars (agent and user).")
TAUMESH_AGENT_COST_USD: Final = _attr("taumesh.agent.cost_usd", "double", "Agent model cost in US dollars.")
TAUMESH_USER_COST_USD: Final = _attr("taumesh.user.cost_usd", "double", "User-simulator model cost in US dollars.")
TAUMESH_ROLE: Final = _attr("taumesh.role", "string", "Whose model: `agent` or `user` (on token and cost metrics).")
TAUMESH_TURN_INDEX: Final = _attr("taumesh.turn.index", "int", "Turn number, from 1: one user message and its answer.")
TAUMESH_STEP_INDEX: Final = _attr("taumesh.step.index", "int", "Agent step within the episode, from 1.")
TAUMESH_AGENT_TOOL_CALLS: Final = _attr("taumesh.agent.tool_calls", "int", "Tool calls the agent asked for in a step.")
TAUMESH_TOOL_ERROR: Final = _attr("taumesh.tool.error", "boolean", "The tool reported an error to the agent.")
TAUMESH_TOOL_DONE: Final = _attr("taumesh.tool.done", "boolean", "The tool ended the episode (a terminate tool).")
TAUMESH_TOOL_ABORTED: Final = _attr("taumesh.tool.aborted", "boolean", "The tool crashed and the episode was aborted.")
TAUMESH_TOOL_REPLAYED: Final = _attr(
    "taumesh.tool.replayed", "boolean", "A retried call answered from the session's cache (not run twice)."
)
TAUMESH_SESSION_ID: Final = _attr("taumesh.session.id", "string", "Env session id.")
TAUMESH_FINAL_DATA_HASH: Final = _attr("taumesh.env.final_data_hash", "string", "Hash of the final database.")
TAUMESH_GOLD_DATA_HASH: Final = _attr("taumesh.scorer.gold_data_hash", "string", "Hash of the gold database.")
TAUMESH_ERROR_CAUSE: Final = _attr(
    "taumesh.error.cause", "string", "gRPC status and details of an infrastructure fault."
)
TAUMESH_ERROR_CODE: Final = _attr("taumesh.error.code", "string", "gRPC status code name of an infrastructure fault.")
TAUMESH_ERROR_FINAL: Final = _attr(
    "taumesh.error.final", "boolean", "The fault used up the episode's attempts (it is recorded as an error)."
)
TAUMESH_RUN_EPISODES: Final = _attr("taumesh.run.episodes", "int", "Episodes the run plans.")
TAUMESH_RUN_CONCURRENCY: Final = _attr("taumesh.run.max_concurrency", "int", "Episodes run at once.")
TAUMESH_RUN_AVERAGE_REWARD: Final = _attr("taumesh.run.average_reward", "double", "Average reward of the run.")
TAUMESH_RUN_ERRORS: Final = _attr("taumesh.run.errors", "int", "Episodes recorded as infrastructure errors.")
TAUMESH_RUN_RESULTS: Final = _attr("taumesh.run.results_path", "string", "Results file of the run.")

# --- span names -------------------------------------------------------------------------------------------------

SPAN_RUN: Final = "taumesh run"
SPAN_EPISODE: Final = "episode"
SPAN_TURN: Final = "turn"
SPAN_SIMULATE_USER: Final = "simulate_user"
SPAN_SCORE: Final = "score_episode"

# --- metrics ----------------------------------------------------------------------------------------------------

METRIC_EPISODES: Final = _attr(
    "taumesh.episodes", "counter {episode}", "Episodes finished, by domain, strategies and outcome.", "metric"
)
METRIC_REWARD: Final = _attr("taumesh.episode.reward", "histogram", "Reward of each scored episode.", "metric")
METRIC_EPISODE_DURATION: Final = _attr(
    "taumesh.episode.duration", "histogram s", "Wall time of each finished episode.", "metric"
)
METRIC_INFRA_ERRORS: Final = _attr(
    "taumesh.infrastructure.errors",
    "counter {error}",
    "Episode attempts lost to infrastructure faults, by status code and whether the episode was given up.",
    "metric",
)
METRIC_TURN_DURATION: Final = _attr(
    "taumesh.turn.duration", "histogram s", "Wall time of each turn: agent steps, tools and the user's reply.", "metric"
)
METRIC_TOKENS: Final = _attr(
    "taumesh.tokens", "counter {token}", "Model tokens, by role (agent/user) and token type (input/output).", "metric"
)
METRIC_COST: Final = _attr("taumesh.cost", "counter USD", "Model cost, by role.", "metric")
METRIC_GEN_AI_TOKEN_USAGE: Final = _attr(
    "gen_ai.client.token.usage", "histogram {token}", "Tokens of each LLM call (GenAI semconv).", "metric"
)
METRIC_GEN_AI_OPERATION_DURATION: Final = _attr(
    "gen_ai.client.operation.duration", "histogram s", "Duration of each LLM call (GenAI semconv).", "metric"
)

# Environment variables.
ENV_CAPTURE_CONTENT: Final = "OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT"
ENV_JAEGER_URL: Final = "TAUMESH_JAEGER_URL"
