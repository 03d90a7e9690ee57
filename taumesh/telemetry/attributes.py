"""Attribute, span and metric names taumesh records; ``docs/telemetry.md`` describes each one.

The GenAI names are written out rather than taken from ``opentelemetry.semconv``'s ``_incubating``
module, whose names still move (``gen_ai.system`` became ``gen_ai.provider.name``; taumesh sends both).
"""

from typing import Final

# resource
SERVICE_NAME: Final = "service.name"
SERVICE_NAMESPACE: Final = "service.namespace"
SERVICE_VERSION: Final = "service.version"
SERVICE_INSTANCE_ID: Final = "service.instance.id"
TAUMESH_EMBEDDED: Final = "taumesh.embedded"

# GenAI semantic conventions (on taumesh's own spans; the GenAI utility writes its spans' own)
GEN_AI_OPERATION_NAME: Final = "gen_ai.operation.name"
GEN_AI_PROVIDER_NAME: Final = "gen_ai.provider.name"
GEN_AI_SYSTEM: Final = "gen_ai.system"
GEN_AI_REQUEST_MODEL: Final = "gen_ai.request.model"
GEN_AI_REQUEST_TEMPERATURE: Final = "gen_ai.request.temperature"
GEN_AI_REQUEST_SEED: Final = "gen_ai.request.seed"
GEN_AI_USAGE_INPUT_TOKENS: Final = "gen_ai.usage.input_tokens"
GEN_AI_USAGE_OUTPUT_TOKENS: Final = "gen_ai.usage.output_tokens"
GEN_AI_AGENT_NAME: Final = "gen_ai.agent.name"
GEN_AI_CONVERSATION_ID: Final = "gen_ai.conversation.id"
GEN_AI_OUTPUT_MESSAGES: Final = "gen_ai.output.messages"
GEN_AI_TOKEN_TYPE: Final = "gen_ai.token.type"  # noqa: S105 - a token count's type, not a secret
ERROR_TYPE: Final = "error.type"
SERVER_ADDRESS: Final = "server.address"
SERVER_PORT: Final = "server.port"
OP_INVOKE_AGENT: Final = "invoke_agent"

# taumesh
TAUMESH_LLM_ATTEMPT: Final = "taumesh.llm.attempt"
TAUMESH_TASK_ID: Final = "taumesh.task.id"
TAUMESH_TASK_SPLIT: Final = "taumesh.task.split"
TAUMESH_DOMAIN: Final = "taumesh.domain"
TAUMESH_TRIAL: Final = "taumesh.trial"
TAUMESH_EPISODE_ID: Final = "taumesh.episode.id"
TAUMESH_EPISODE_ATTEMPTS: Final = "taumesh.episode.attempts"
TAUMESH_AGENT_STRATEGY: Final = "taumesh.agent.strategy"
TAUMESH_AGENT_MODEL: Final = "taumesh.agent.model"
TAUMESH_USER_STRATEGY: Final = "taumesh.user.strategy"
TAUMESH_USER_MODEL: Final = "taumesh.user.model"
TAUMESH_USER_PHASE: Final = "taumesh.user.phase"
TAUMESH_USER_STOP: Final = "taumesh.user.stop"
TAUMESH_TERMINATION: Final = "taumesh.termination"
TAUMESH_STEPS: Final = "taumesh.steps"
TAUMESH_REWARD: Final = "taumesh.reward"
TAUMESH_REWARD_ACTIONS: Final = "taumesh.reward.r_actions"
TAUMESH_REWARD_OUTPUTS: Final = "taumesh.reward.r_outputs"
TAUMESH_OUTCOME: Final = "taumesh.outcome"
TAUMESH_COST_USD: Final = "taumesh.cost_usd"
TAUMESH_AGENT_COST_USD: Final = "taumesh.agent.cost_usd"
TAUMESH_USER_COST_USD: Final = "taumesh.user.cost_usd"
TAUMESH_ROLE: Final = "taumesh.role"
TAUMESH_TURN_INDEX: Final = "taumesh.turn.index"
TAUMESH_STEP_INDEX: Final = "taumesh.step.index"
TAUMESH_AGENT_TOOL_CALLS: Final = "taumesh.agent.tool_calls"
TAUMESH_TOOL_ERROR: Final = "taumesh.tool.error"
TAUMESH_TOOL_DONE: Final = "taumesh.tool.done"
TAUMESH_TOOL_ABORTED: Final = "taumesh.tool.aborted"
TAUMESH_TOOL_REPLAYED: Final = "taumesh.tool.replayed"
TAUMESH_SESSION_REF: Final = "taumesh.session.ref"
"""A digest of the env session id (:func:`taumesh.telemetry.genai.session_ref`): the id itself is a bearer token."""
TAUMESH_FINAL_DATA_HASH: Final = "taumesh.env.final_data_hash"
TAUMESH_GOLD_DATA_HASH: Final = "taumesh.scorer.gold_data_hash"
TAUMESH_ERROR_CAUSE: Final = "taumesh.error.cause"
TAUMESH_ERROR_CODE: Final = "taumesh.error.code"
TAUMESH_ERROR_FINAL: Final = "taumesh.error.final"
TAUMESH_RUN_EPISODES: Final = "taumesh.run.episodes"
TAUMESH_RUN_CONCURRENCY: Final = "taumesh.run.max_concurrency"
TAUMESH_RUN_AVERAGE_REWARD: Final = "taumesh.run.average_reward"
TAUMESH_RUN_ERRORS: Final = "taumesh.run.errors"
TAUMESH_RUN_RESULTS: Final = "taumesh.run.results_path"

# span names
SPAN_RUN: Final = "taumesh run"
SPAN_EPISODE: Final = "episode"
SPAN_TURN: Final = "turn"
SPAN_SIMULATE_USER: Final = "simulate_user"
SPAN_SCORE: Final = "score_episode"

# metrics
METRIC_EPISODES: Final = "taumesh.episodes"
METRIC_REWARD: Final = "taumesh.episode.reward"
METRIC_EPISODE_DURATION: Final = "taumesh.episode.duration"
METRIC_INFRA_ERRORS: Final = "taumesh.infrastructure.errors"
METRIC_TURN_DURATION: Final = "taumesh.turn.duration"
METRIC_TOKENS: Final = "taumesh.tokens"
METRIC_COST: Final = "taumesh.cost"

# environment variables
ENV_CAPTURE_CONTENT: Final = "OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT"
ENV_JAEGER_URL: Final = "TAUMESH_JAEGER_URL"
