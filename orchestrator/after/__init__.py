"""The commands that read a run's results after it: rescore, verify, analyze, and what changed in a task."""
