"""τ-bench v1 forks as taumesh domains: ``taumesh domain import-fork`` and the plugins it registers.

A fork's environments (``tau_bench/envs/<env>/``) run unchanged: their Python runs only in worker
processes (:mod:`taumesh.forks._worker`: one template per fork in each process that serves them, one process
per session forked from it), under bubblewrap or an unprivileged uid with a clean environment
(:mod:`taumesh.forks._sandbox`), answering in JSON only (:mod:`taumesh.forks._wire`); each imported
environment is the domain ``fork:<fork>/<env>``. Importing this package is cheap (standard
library only). The domain registry finds the imported environments through the domain source
:func:`taumesh.forks.registered.domains` (entry point ``forks`` of group ``taumesh.domain_sources``).
"""
