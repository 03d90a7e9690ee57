"""Running taumesh's services as separate processes, for the tests and the benchmarks alike."""
