"""The airline domain's tools, behaving as τ²'s ``AirlineTools`` (their descriptions come from the fetched texts).

Records are plain dicts; where τ² builds a model we validate it with the domain's model
(:mod:`.models`), and where it assigns an attribute without validation we assign the raw value, in
τ²'s order of changes. The airports ``list_all_airports`` shows are τ²'s, written in its code: the
fetch extracts them into the texts file as data.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from pydantic import BaseModel

from taumesh.domains import Data, Tool
from taumesh.domains.tau2 import ModelDump, dump_json, to_json_str
from taumesh.domains.tau2._common_tools import Calculator, Transfer
from taumesh.domains.tau2._texts import domain_texts
from taumesh.domains.tau2._toolkit import read, write
from taumesh.domains.tau2_airline.models import (
    AirportCode,
    CabinClass,
    Certificate,
    DirectFlight,
    FlightInfo,
    FlightType,
    Insurance,
    Passenger,
    Payment,
    Reservation,
    ReservationFlight,
)

_NOW = "2024-05-15T15:00:00"
_NEW_RESERVATION_IDS = ("HATHAT", "HATHAU", "HATHAV")
_NEW_PAYMENT_IDS = (3221322, 3221323, 3221324)


def _new(model: type[BaseModel], **fields: Any) -> dict[str, Any]:
    """A record τ² would build as ``model(**fields)``: validated, with its defaults."""
    record: dict[str, Any] = dump_json(model.model_validate(fields))
    return record


def _models(items: Any, model: type[BaseModel], first_attribute: str) -> list[Any]:
    """τ²'s ``[Model(**item) for item in items]`` when every item is a dict; else the attribute error it meets."""
    if all(isinstance(item, dict) for item in items):
        return [_new(model, **item) for item in items]
    for item in items:
        if not isinstance(item, dict):
            raise AttributeError(f"'{type(item).__name__}' object has no attribute '{first_attribute}'")
    return []


def _user(data: Data, user_id: str) -> Any:
    if user_id not in data["users"]:
        raise ValueError(f"User {user_id} not found")
    return data["users"][user_id]


def _reservation(data: Data, reservation_id: str) -> Any:
    if reservation_id not in data["reservations"]:
        raise ValueError(f"Reservation {reservation_id} not found")
    return data["reservations"][reservation_id]


def _flight(data: Data, flight_number: str) -> Any:
    if flight_number not in data["flights"]:
        raise ValueError(f"Flight {flight_number} not found")
    return data["flights"][flight_number]


def _flight_instance(data: Data, flight_number: str, date: str) -> Any:
    flight = _flight(data, flight_number)
    if date not in flight["dates"]:
        raise ValueError(f"Flight {flight_number} not found on date {date}")
    return flight["dates"][date]


def _search_direct(
    data: Data, date: str, origin: str | None = None, destination: str | None = None, leave_after: str | None = None
) -> list[dict[str, Any]]:
    results = []
    for flight in data["flights"].values():
        if (
            (origin is None or flight["origin"] == origin)
            and (destination is None or flight["destination"] == destination)
            and (date in flight["dates"])
            and (flight["dates"][date]["status"] == "available")
            and (leave_after is None or flight["scheduled_departure_time_est"] >= leave_after)
        ):
            results.append(
                _new(
                    DirectFlight,
                    flight_number=flight["flight_number"],
                    origin=flight["origin"],
                    destination=flight["destination"],
                    status="available",
                    scheduled_departure_time_est=flight["scheduled_departure_time_est"],
                    scheduled_arrival_time_est=flight["scheduled_arrival_time_est"],
                    available_seats=flight["dates"][date]["available_seats"],
                    prices=flight["dates"][date]["prices"],
                )
            )
    return results


def _payment_for_update(user: Any, payment_id: str, total_price: Any) -> dict[str, Any] | None:
    if payment_id not in user["payment_methods"]:
        raise ValueError("Payment method not found")
    method = user["payment_methods"][payment_id]
    if method["source"] == "certificate":
        raise ValueError("Certificate cannot be used to update reservation")
    if method["source"] == "gift_card" and method["amount"] < total_price:
        raise ValueError("Gift card balance is not enough")
    if method["source"] == "gift_card":
        method["amount"] -= total_price
    if total_price != 0:
        return _new(Payment, payment_id=payment_id, amount=total_price)
    return None


@cache
def _airports() -> tuple[dict[str, Any], ...]:
    return tuple(_new(AirportCode, **row) for row in domain_texts("airline").airports)


class AirlineTools(Calculator, Transfer):
    """τ²'s ``AirlineTools``: flights, users and their reservations."""

    @write
    def book_reservation(
        self,
        user_id: str,
        origin: str,
        destination: str,
        flight_type: FlightType,
        cabin: CabinClass,
        flights: list[FlightInfo | dict[str, Any]],
        passengers: list[Passenger | dict[str, Any]],
        payment_methods: list[Payment | dict[str, Any]],
        total_baggages: int,
        nonfree_baggages: int,
        insurance: Insurance,
    ) -> str:
        data = self.data
        flight_rows = _models(flights, FlightInfo, "flight_number")
        passenger_rows = _models(passengers, Passenger, "first_name")
        payment_rows = _models(payment_methods, Payment, "payment_id")
        user = _user(data, user_id)
        reservation_id = next((rid for rid in _NEW_RESERVATION_IDS if rid not in data["reservations"]), None)
        if reservation_id is None:
            raise ValueError("Too many reservations")
        reservation = _new(
            Reservation,
            reservation_id=reservation_id,
            user_id=user_id,
            origin=origin,
            destination=destination,
            flight_type=flight_type,
            cabin=cabin,
            flights=[],
            passengers=passenger_rows,
            payment_history=payment_rows,
            created_at=_NOW,
            total_baggages=total_baggages,
            nonfree_baggages=nonfree_baggages,
            insurance=insurance,
        )
        total_price: Any = 0
        booked = []
        for flight_info in flight_rows:
            flight_number = flight_info["flight_number"]
            flight = _flight(data, flight_number)
            date_data = _flight_instance(data, flight_number, flight_info["date"])
            if date_data["status"] != "available":
                raise ValueError(f"Flight {flight_number} not available on date {flight_info['date']}")
            if date_data["available_seats"][cabin] < len(passenger_rows):
                raise ValueError(f"Not enough seats on flight {flight_number}")
            price = date_data["prices"][cabin]
            reservation["flights"].append(
                _new(
                    ReservationFlight,
                    origin=flight["origin"],
                    destination=flight["destination"],
                    flight_number=flight_number,
                    date=flight_info["date"],
                    price=price,
                )
            )
            booked.append(date_data)
            total_price += price * len(passenger_rows)
        if insurance == "yes":
            total_price += 30 * len(passenger_rows)
        total_price += 50 * nonfree_baggages
        for payment in payment_rows:
            payment_id, amount = payment["payment_id"], payment["amount"]
            if payment_id not in user["payment_methods"]:
                raise ValueError(f"Payment method {payment_id} not found")
            method = user["payment_methods"][payment_id]
            if method["source"] in {"gift_card", "certificate"} and method["amount"] < amount:
                raise ValueError(f"Not enough balance in payment method {payment_id}")
        total_payment = sum(payment["amount"] for payment in payment_rows)
        if total_payment != total_price:
            raise ValueError(f"Payment amount does not add up, total price is {total_price}, but paid {total_payment}")
        for payment in payment_rows:
            payment_id, amount = payment["payment_id"], payment["amount"]
            method = user["payment_methods"][payment_id]
            if method["source"] == "gift_card":
                method["amount"] -= amount
            elif method["source"] == "certificate":
                user["payment_methods"].pop(payment_id)
        for date_data in booked:
            date_data["available_seats"][cabin] -= len(passenger_rows)
        data["reservations"][reservation_id] = reservation
        data["users"][user_id]["reservations"].append(reservation_id)
        return to_json_str(ModelDump(reservation))

    @write
    def cancel_reservation(self, reservation_id: str) -> str:
        data = self.data
        reservation = _reservation(data, reservation_id)
        refunds = [
            _new(Payment, payment_id=payment["payment_id"], amount=-payment["amount"])
            for payment in reservation["payment_history"]
        ]
        reservation["payment_history"].extend(refunds)
        reservation["status"] = "cancelled"
        return to_json_str(ModelDump(reservation))

    @read
    def get_reservation_details(self, reservation_id: str) -> str:
        data = self.data
        return to_json_str(ModelDump(_reservation(data, reservation_id)))

    @read
    def get_user_details(self, user_id: str) -> str:
        data = self.data
        return to_json_str(ModelDump(_user(data, user_id)))

    @read
    def list_all_airports(self) -> str:
        return to_json_str([ModelDump(airport) for airport in _airports()])

    @read
    def search_direct_flight(self, origin: str, destination: str, date: str) -> str:
        data = self.data
        return to_json_str([ModelDump(flight) for flight in _search_direct(data, date, origin, destination)])

    @read
    def search_onestop_flight(self, origin: str, destination: str, date: str) -> str:
        data = self.data
        results = []
        for first in _search_direct(data, date, origin, None):
            first["date"] = date
            date2 = f"2024-05-{int(date[-2:]) + 1}" if "+1" in first["scheduled_arrival_time_est"] else date
            for second in _search_direct(
                data, date2, first["destination"], destination, first["scheduled_arrival_time_est"]
            ):
                second["date"] = date2
                results.append([ModelDump(first), ModelDump(second)])
        return to_json_str(results)

    @write
    def send_certificate(self, user_id: str, amount: int) -> str:
        data = self.data
        user = _user(data, user_id)
        for payment_id in [f"certificate_{number}" for number in _NEW_PAYMENT_IDS]:
            if payment_id not in user["payment_methods"]:
                user["payment_methods"][payment_id] = _new(
                    Certificate, id=payment_id, amount=amount, source="certificate"
                )
                return f"Certificate {payment_id} added to user {user_id} with amount {amount}."
        raise ValueError("Too many certificates")

    @write
    def update_reservation_baggages(
        self, reservation_id: str, total_baggages: int, nonfree_baggages: int, payment_id: str
    ) -> str:
        data = self.data
        reservation = _reservation(data, reservation_id)
        user = _user(data, reservation["user_id"])
        total_price = 50 * max(0, nonfree_baggages - reservation["nonfree_baggages"])
        payment = _payment_for_update(user, payment_id, total_price)
        if payment is not None:
            reservation["payment_history"].append(payment)
        reservation["total_baggages"] = total_baggages
        reservation["nonfree_baggages"] = nonfree_baggages
        return to_json_str(ModelDump(reservation))

    @write
    def update_reservation_flights(
        self, reservation_id: str, cabin: CabinClass, flights: list[FlightInfo | dict[str, Any]], payment_id: str
    ) -> str:
        data = self.data
        flight_rows = _models(flights, FlightInfo, "flight_number")
        reservation = _reservation(data, reservation_id)
        user = _user(data, reservation["user_id"])
        passengers = len(reservation["passengers"])
        total_price: Any = 0
        chosen = []
        for flight_info in flight_rows:
            kept = next(
                (
                    booked
                    for booked in reservation["flights"]
                    if booked["flight_number"] == flight_info["flight_number"]
                    and booked["date"] == flight_info["date"]
                    and cabin == reservation["cabin"]
                ),
                None,
            )
            if kept:
                total_price += kept["price"] * passengers
                chosen.append(kept)
                continue
            flight = _flight(data, flight_info["flight_number"])
            date_data = _flight_instance(data, flight_info["flight_number"], flight_info["date"])
            if date_data["status"] != "available":
                raise ValueError(f"Flight {flight_info['flight_number']} not available on date {flight_info['date']}")
            if date_data["available_seats"][cabin] < passengers:
                raise ValueError(f"Not enough seats on flight {flight_info['flight_number']}")
            new_flight = _new(
                ReservationFlight,
                flight_number=flight_info["flight_number"],
                date=flight_info["date"],
                price=date_data["prices"][cabin],
                origin=flight["origin"],
                destination=flight["destination"],
            )
            total_price += new_flight["price"] * passengers
            chosen.append(new_flight)
        total_price -= sum(booked["price"] for booked in reservation["flights"]) * passengers
        payment = _payment_for_update(user, payment_id, total_price)
        if payment is not None:
            reservation["payment_history"].append(payment)
        reservation["flights"] = chosen
        reservation["cabin"] = cabin
        return to_json_str(ModelDump(reservation))

    @write
    def update_reservation_passengers(self, reservation_id: str, passengers: list[Passenger | dict[str, Any]]) -> str:
        data = self.data
        passenger_rows = _models(passengers, Passenger, "first_name")
        reservation = _reservation(data, reservation_id)
        if len(passenger_rows) != len(reservation["passengers"]):
            raise ValueError("Number of passengers does not match")
        reservation["passengers"] = passenger_rows
        return to_json_str(ModelDump(reservation))

    @read
    def get_flight_status(self, flight_number: str, date: str) -> str:
        data = self.data
        return str(_flight_instance(data, flight_number, date)["status"])


TOOLS: tuple[type[Tool], ...] = AirlineTools.tools()
