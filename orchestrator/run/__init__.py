"""One run in this process: tasks × trials with bounded concurrency, its services, its progress and its report."""
