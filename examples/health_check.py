"""Whether the server is up, which domains it runs, and which model providers have credentials (no key needed).

TAUMESH_API_URL=http://127.0.0.1:8000 python examples/health_check.py
"""

from taumesh.client import TaumeshClient


def main() -> None:
    """Print the server's health."""
    with TaumeshClient() as client:  # TAUMESH_API_URL, TAUMESH_API_KEY
        health = client.health_check()
    print(f"{health.status}, taumesh {health.version}")
    print("domains:", ", ".join(health.supported_environments))
    for provider in health.providers:
        print(f"  {provider.provider}: {'configured' if provider.configured else 'no credentials'}")


if __name__ == "__main__":
    main()
