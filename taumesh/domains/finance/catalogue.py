"""The desk's shared reference data: the securities it deals in (with their closing prices) and its model portfolios.

Prices are drawn once from a fixed seed, the same in every world: a walk from each security's starting price, wider
for riskier securities, over the month ends of :data:`~taumesh.domains.finance.clock.PRICE_DATES`.
"""

from __future__ import annotations

import random
from typing import Any

from taumesh.domains.finance.clock import PRICE_DATES, cents

_SECURITIES = [
    # ticker, name, asset class, instrument, risk rating, starting price
    ("HGLT", "Harrowgate Gilt Tracker Fund", "bond", "fund", 1, 1.12),
    ("HSTB", "Harrowgate Sterling Bond Fund", "bond", "fund", 2, 2.35),
    ("HGEQ", "Harrowgate Global Equity Fund", "equity", "fund", 4, 4.8),
    ("HPRP", "Harrowgate Property Income Fund", "property", "fund", 3, 1.64),
    ("CMMF", "Calder Money Market Fund", "money_market", "fund", 1, 1.01),
    ("CCBF", "Calder Corporate Bond Fund", "bond", "fund", 2, 1.87),
    ("FUKI", "Fenwick UK Equity Income Fund", "equity", "fund", 3, 3.42),
    ("FEMF", "Fenwick Emerging Markets Fund", "equity", "fund", 5, 2.76),
    ("FSCF", "Fenwick Smaller Companies Fund", "equity", "fund", 4, 6.15),
    ("PGLD", "Pellam Gold Tracker", "commodity", "fund", 4, 18.4),
    ("PINF", "Pellam Global Infrastructure Fund", "equity", "fund", 3, 2.19),
    ("OTEC", "Ostrava Technology Trust", "equity", "fund", 5, 9.65),
    ("BRKW", "Brackley Water plc", "equity", "share", 3, 11.3),
    ("TPHM", "Tamsin Pharmaceuticals plc", "equity", "share", 4, 27.9),
    ("MRLB", "Marlowe Bank plc", "equity", "share", 4, 4.42),
    ("KMIN", "Kestrel Mining plc", "equity", "share", 5, 14.6),
    ("NGRC", "Northgate Grocers plc", "equity", "share", 3, 3.18),
    ("RDAE", "Ridley Aerospace plc", "equity", "share", 4, 8.74),
    ("QSFT", "Quillon Software plc", "equity", "share", 5, 36.2),
    ("ASHU", "Ashby Utilities plc", "equity", "share", 3, 7.05),
]
MODEL_FUNDS = ("HGLT", "HSTB", "HGEQ", "HPRP")
"""The funds every model portfolio mixes."""
MODELS: list[dict[str, Any]] = [
    {
        "model_id": "mp-cautious",
        "name": "Harrowgate Cautious Mix",
        "risk_rating": 2,
        "weights": {"HGLT": 40, "HSTB": 35, "HGEQ": 15, "HPRP": 10},
    },
    {
        "model_id": "mp-balanced",
        "name": "Harrowgate Balanced Mix",
        "risk_rating": 3,
        "weights": {"HGLT": 20, "HSTB": 25, "HGEQ": 40, "HPRP": 15},
    },
    {
        "model_id": "mp-growth",
        "name": "Harrowgate Growth Mix",
        "risk_rating": 4,
        "weights": {"HGLT": 5, "HSTB": 15, "HGEQ": 65, "HPRP": 15},
    },
    {
        "model_id": "mp-adventurous",
        "name": "Harrowgate Adventurous Mix",
        "risk_rating": 5,
        "weights": {"HGLT": 2, "HSTB": 5, "HGEQ": 83, "HPRP": 10},
    },
]
SHARES = tuple(row[0] for row in _SECURITIES if row[3] == "share")
OTHER_FUNDS = tuple(row[0] for row in _SECURITIES if row[3] == "fund" and row[0] not in MODEL_FUNDS)


def securities() -> dict[str, dict[str, Any]]:
    """Every security, with a closing price on each price date."""
    rng = random.Random(4405)
    table = {}
    for ticker, name, asset_class, instrument, rating, start in _SECURITIES:
        prices, level = {}, start
        for when in PRICE_DATES:
            level *= 1 + rng.uniform(-0.018, 0.024) * rating
            prices[when] = cents(level)
        table[ticker] = {
            "ticker": ticker,
            "name": name,
            "asset_class": asset_class,
            "instrument": instrument,
            "risk_rating": rating,
            "prices": prices,
        }
    return table


def model_portfolios() -> dict[str, dict[str, Any]]:
    """Every model portfolio, by id (a fresh copy for each world)."""
    return {m["model_id"]: {**m, "weights": dict(m["weights"])} for m in MODELS}
