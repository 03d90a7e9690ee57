"""The four taumesh gRPC services, one folder each."""
