from taumesh.forks import _finder as _forks  # noqa: F401 - imported τ-bench forks' domains, found by the registry
