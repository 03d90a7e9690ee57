"""What tests share besides fixtures: paths, servers started as processes, the CLI, checks (conftest files keep
the fixtures only)."""
