"""One run over several processes and machines: a coordinator, its workers and their shared work store."""
