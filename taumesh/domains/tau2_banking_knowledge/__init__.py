"""τ³'s ``banking_knowledge`` domain (the knowledge track), as ``tau2-banking-knowledge``.

Its knowledge base, retrieval configurations, offline search tools and policy composition.
"""
