"""The orchestrator: drives episodes turn by turn across the services and writes results."""
