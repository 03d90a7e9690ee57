"""Compatibility names for code written against the τ-bench API fork (``tau_bench.api.client``).

Shipped by taumesh: installing taumesh makes this ``tau_bench`` importable, and it shadows (or is shadowed by) a real
τ-bench install, whichever comes first on ``sys.path``. Only ``tau_bench.api.client`` is provided.
"""
