"""τ-bench v1 forks as taumesh domains: ``taumesh domain import-fork`` and the plugins it registers.

A fork's environments (``tau_bench/envs/<env>/``) run unchanged: their Python runs only in worker
processes (:mod:`taumesh.forks._worker`), one per fork in each process that serves them, and each
imported environment is the domain ``fork:<fork>/<env>``. Importing this package is cheap (standard
library only): ``taumesh`` imports :mod:`taumesh.forks._finder`, which makes the imported forks'
domains visible to the domain registry as entry points.
"""
