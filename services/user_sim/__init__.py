"""UserSimService: plays the customer of a task, statelessly."""

from taumesh.services.user_sim.servicer import UserSimServicer, user_sim_service

__all__ = ["UserSimServicer", "user_sim_service"]
