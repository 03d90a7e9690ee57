"""τ³'s ``banking_knowledge`` domain (the knowledge track), as ``tau2-banking-knowledge``.

Its knowledge base, retrieval configurations, offline search tools and policy composition; its tools, sessions
and reward (:mod:`.plugin`). The retrieval tools are not yet offered to the agent: the plugin serves
``no_knowledge``, the configuration upstream's reference replays use.
"""

from taumesh.domains.tau2_banking_knowledge.plugin import banking_plugin

plugin = banking_plugin("tau2-banking-knowledge", "no_knowledge")
