"""The desk's read tools: clients, shipments with their claims and incidents, depots, carriers and stock.

They change nothing; what the policy decides (a region, a weight limit, a deadline) is read from what they answer.
"""

from __future__ import annotations

from taumesh.domains import Data, Refusal, Tool
from taumesh.domains.logistics.clock import carrier_price
from taumesh.domains.logistics.identity_tools import CLIENT
from taumesh.domains.logistics.records import dump, fetch
from taumesh.domains.logistics.schema import number, params, text

SHIPMENT = text("The tracking number, such as 'shp-w1-0042'.")
_SUMMARY = ("shipment_id", "status", "service", "delivery", "origin_depot", "destination_depot")
"""What list_client_shipments shows of each shipment; get_shipment shows the rest."""


class GetClient(Tool):
    name = "get_client"
    description = "A client's record: name, company, email, region and postal code."
    parameters = params(client_id=CLIENT)

    @staticmethod
    def invoke(data: Data, client_id: str) -> str:
        client = dict(fetch(data, "clients", client_id, "client"))
        client.pop("account_number")
        return dump(client)


class ListClientShipments(Tool):
    name = "list_client_shipments"
    description = (
        "The shipments a client sends or receives, each with the client's role (shipper or consignee), status,"
        " service, delivery window and depots."
    )
    parameters = params(client_id=CLIENT)

    @staticmethod
    def invoke(data: Data, client_id: str) -> str:
        fetch(data, "clients", client_id, "client")
        found = []
        for shipment in data["shipments"].values():
            roles = [r for r in ("shipper", "consignee") if shipment[f"{r}_id"] == client_id]
            if roles:
                found.append({**{k: shipment[k] for k in _SUMMARY}, "role": roles[0]})
        return dump(found)


class GetShipment(Tool):
    name = "get_shipment"
    description = (
        "Everything about one shipment: shipper, consignee, depots, carrier, service, weight, declared value,"
        " handling flags, status, delivery window and its history, bookings, charges, claims and incidents."
    )
    parameters = params(shipment_id=SHIPMENT)

    @staticmethod
    def invoke(data: Data, shipment_id: str) -> str:
        shipment = fetch(data, "shipments", shipment_id, "shipment")
        claims = [c for c in data["claims"].values() if c["shipment_id"] == shipment_id]
        incidents = [i for i in data["incidents"].values() if i["shipment_id"] == shipment_id]
        return dump({**shipment, "claims": claims, "incidents": incidents})


class ListDepots(Tool):
    name = "list_depots"
    description = "Every depot: id, name, city, region and the heaviest parcel it stores."
    parameters = params()

    @staticmethod
    def invoke(data: Data) -> str:
        return dump(list(data["depots"].values()))


class ListCarriers(Tool):
    name = "list_carriers"
    description = (
        "The carriers the desk books: tariff (base fee, rate per kg, express surcharge), heaviest parcel, whether"
        " they take hazardous goods, their liability per kg, and the regions they collect in."
    )
    parameters = params()

    @staticmethod
    def invoke(data: Data) -> str:
        return dump(list(data["carriers"].values()))


class QuoteCarrier(Tool):
    name = "quote_carrier"
    description = "What a carrier charges for a parcel of a weight and service, to the cent (eligibility not checked)."
    parameters = params(
        carrier_id=text("The carrier's id."),
        weight_kg=number("The parcel's weight in kilograms."),
        service=text("The service.", ["standard", "express"]),
    )

    @staticmethod
    def invoke(data: Data, carrier_id: str, weight_kg: float, service: str) -> str:
        carrier = fetch(data, "carriers", carrier_id, "carrier")
        if weight_kg <= 0 or service not in ("standard", "express"):
            raise Refusal("the weight must be positive and the service standard or express")
        price = carrier_price(
            carrier["base_fee"], carrier["per_kg"], carrier["express_surcharge"], weight_kg, service == "express"
        )
        return str(price)


class GetStockItem(Tool):
    name = "get_stock_item"
    description = "One stock item: the depot holding it, its owner, SKU, recorded quantity and earlier adjustments."
    parameters = params(stock_id=text("The stock item's id, such as 'stk-w1-012'."))

    @staticmethod
    def invoke(data: Data, stock_id: str) -> str:
        return dump(fetch(data, "stock", stock_id, "stock item"))


class ListDepotStock(Tool):
    name = "list_depot_stock"
    description = "The stock items a depot holds, with their recorded quantities."
    parameters = params(depot_id=text("The depot's id, such as 'dep-w1-04'."))

    @staticmethod
    def invoke(data: Data, depot_id: str) -> str:
        fetch(data, "depots", depot_id, "depot")
        return dump([item for item in data["stock"].values() if item["depot_id"] == depot_id])


LOOKUP_TOOLS: tuple[type[Tool], ...] = (
    GetClient,
    ListClientShipments,
    GetShipment,
    ListDepots,
    ListCarriers,
    QuoteCarrier,
    GetStockItem,
    ListDepotStock,
)
