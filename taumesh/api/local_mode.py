"""Local mode: the REST fork's keyless calls on one's own machine, and nowhere else.

The τ-bench REST fork had no API keys, so its README's ``curl`` lines and its client send none. taumesh requires a
key on every route but the public ones; local mode (``--local`` / ``TAUMESH_API_LOCAL=1``, never a default) lets a
request without a key through as one key, :data:`LOCAL_KEY_ID`, under two conditions checked independently:

* the server is configured to listen on loopback: the settings refuse local mode with any other host, so the
  server does not start;
* the request comes from a loopback address: a server bound wider anyway (``uvicorn --host 0.0.0.0`` with the
  settings' host left at its default), or a proxy that forwards the client's address, still gets 401 without a key.

The local key is a real row of ``api_keys`` (listed by ``taumesh api-keys list``; revoking it ends local mode's
keyless access), no token matches it, and it is not an admin key: keyless callers own and see the runs they create,
and the runs of other keys stay those keys' own, as with any two keys.
"""

from __future__ import annotations

import ipaddress
import socket

LOCAL_KEY_ID = "tmk_local"
"""The key a request without one acts as in local mode (``tmk_`` as every key id; no token can name it)."""
LOCAL_KEY_NAME = "local mode (requests without a key on loopback)"


def is_loopback_address(address: str) -> bool:
    """Whether an IP address (as a peer's, IPv4-mapped IPv6 too) is loopback; anything else (a name, ``None``): no."""
    try:
        ip = ipaddress.ip_address(address.strip("[]"))
    except ValueError:
        return False
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        return ip.ipv4_mapped.is_loopback
    return ip.is_loopback


def is_loopback_host(host: str) -> bool:
    """Whether listening on ``host`` listens on loopback only: an address, or a name all of whose addresses are.

    ``0.0.0.0``, ``::`` and ``""`` (every interface) are not; a name that does not resolve is not.
    """
    if not host.strip("[]"):
        return False
    if is_loopback_address(host):
        return True
    try:
        infos = socket.getaddrinfo(host, None)
    except (OSError, UnicodeError):
        return False
    addresses = {str(info[4][0]) for info in infos}
    return bool(addresses) and all(is_loopback_address(address) for address in addresses)


def local_mode_notice(host: str, port: int) -> str:
    """What the server says when it starts in local mode: that authentication is off, for whom, and as which key."""
    return (
        f"LOCAL MODE: authentication is off for this machine. A request without an API key from loopback acts as the "
        f"key {LOCAL_KEY_ID} (not an admin key); listening on {host}:{port} only. Requests with a key are checked "
        "as always; leave out --local (TAUMESH_API_LOCAL) to require a key from every client."
    )
