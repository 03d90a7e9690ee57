"""Pagination of listings (AIP-158): page sizes, and opaque page tokens bound to the listing they came from."""

from __future__ import annotations

import base64
import json
from dataclasses import dataclass

from taumesh.rpc.errors import InvalidArgument

DEFAULT_PAGE_SIZE = 100
MAX_PAGE_SIZE = 1000


@dataclass(frozen=True)
class Page:
    """Items ``start``..``stop`` of a listing, and the token of the page after it ("" when this is the last)."""

    start: int
    stop: int
    next_token: str


def _encode(scope: str, offset: int) -> str:
    return base64.urlsafe_b64encode(json.dumps([scope, offset]).encode("utf-8")).decode("ascii")


def _decode(token: str, scope: str) -> int:
    try:
        found_scope, offset = json.loads(base64.urlsafe_b64decode(token.encode("ascii")))
    except (ValueError, TypeError, UnicodeError) as exc:
        raise InvalidArgument("page_token is not a token this service issued", reason="INVALID_PAGE_TOKEN") from exc
    if found_scope != scope or not isinstance(offset, int) or offset < 0:
        raise InvalidArgument(
            "page_token belongs to another listing; repeat the request that returned it",
            reason="INVALID_PAGE_TOKEN",
            fields=[("page_token", "issued for another listing")],
        )
    return offset


def page_of(total: int, page_size: int, page_token: str, scope: str) -> Page:
    """The page a request asks for in a listing of ``total`` items named ``scope``."""
    if page_size < 0:
        raise InvalidArgument("page_size must be >= 0", fields=[("page_size", "must be >= 0")])
    size = min(page_size or DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE)
    start = _decode(page_token, scope) if page_token else 0
    stop = min(start + size, total)
    return Page(start=start, stop=stop, next_token=_encode(scope, stop) if stop < total else "")
