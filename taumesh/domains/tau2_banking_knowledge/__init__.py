"""τ³'s ``banking_knowledge`` domain (the knowledge track), as ``tau2-banking-knowledge``.

Its knowledge base, retrieval configurations, search tools and policy composition; its tools (the 48 discoverable
ones in :mod:`.discoverable_tools`), sessions and reward (:mod:`.plugin`). The plain name serves ``no_knowledge``,
the configuration upstream's reference replays use; ``tau2-banking-knowledge:<config>`` serves any other.
"""

from taumesh.domains.tau2_banking_knowledge.plugin import banking_plugin

plugin = banking_plugin("tau2-banking-knowledge", "no_knowledge")
