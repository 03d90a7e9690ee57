"""AgentService: the agent under test (built-in strategies; external agents implement the same proto)."""

from taumesh.services.agent.servicer import AgentServicer, agent_service

__all__ = ["AgentServicer", "agent_service"]
