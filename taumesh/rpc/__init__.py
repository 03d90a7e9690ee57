"""gRPC plumbing shared by every service: server setup, status-code mapping, channels."""
