"""τ-bench v1's domains, ``retail`` and ``airline``: plugins written against the public ``taumesh.domains`` API."""
