"""UserSimService: plays the customer of a task, statelessly."""

from services.user_sim.servicer import UserSimServicer, user_sim_service

__all__ = ["UserSimServicer", "user_sim_service"]
