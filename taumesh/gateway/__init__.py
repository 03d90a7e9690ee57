"""The model gateway (issue 48): an OpenAI-compatible proxy that records token-faithful traces per rollout.

Importing this package is cheap (the orchestrator and the agents import it to sign and forward rollout ids); the
HTTP app lives in :mod:`taumesh.gateway.app`. See docs/gateway.md.
"""

from taumesh.gateway.records import ModelCallTrace
from taumesh.gateway.signing import (
    GATEWAY_KEY_ENV,
    ROLLOUT_HEADER,
    UNATTRIBUTED,
    WEIGHT_VERSION_HEADER,
    GatewayKeyError,
    gateway_key,
    sign_rollout,
    valid_rollout_id,
    verified_rollout,
)

__all__ = [
    "GATEWAY_KEY_ENV",
    "ROLLOUT_HEADER",
    "UNATTRIBUTED",
    "WEIGHT_VERSION_HEADER",
    "GatewayKeyError",
    "ModelCallTrace",
    "gateway_key",
    "sign_rollout",
    "valid_rollout_id",
    "verified_rollout",
]
