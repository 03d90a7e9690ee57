"""τ³'s ``banking_knowledge`` domain (the knowledge track), as ``tau2-banking-knowledge``.

Its knowledge base, retrieval configurations, search tools and policy composition; its tools (the 48 discoverable
ones in :mod:`.discoverable_tools`), sessions and reward (:mod:`.plugin`). The plain name serves upstream's default
configuration, ``alltools`` (an embedding model and bubblewrap needed: loading it without them is refused, saying
which); ``tau2-banking-knowledge:<config>`` serves any other, ``:no_knowledge`` the one upstream's reference replays
use.
"""

from taumesh.domains.tau2_banking_knowledge.configs import DEFAULT_CONFIG
from taumesh.domains.tau2_banking_knowledge.plugin import banking_plugin

plugin = banking_plugin("tau2-banking-knowledge", DEFAULT_CONFIG)
