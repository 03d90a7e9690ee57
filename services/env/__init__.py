"""EnvService: stateful tool environments, one isolated copy-on-write session per episode."""

from taumesh.services.env.servicer import EnvServicer, env_service

__all__ = ["EnvServicer", "env_service"]
