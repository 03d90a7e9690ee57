"""The airline database's data model: validates ``flights.json``, ``reservations.json`` and ``users.json``."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict


class Record(BaseModel):
    """A record: unknown fields are errors, so a misspelled field in the data is caught at load."""

    model_config = ConfigDict(extra="forbid")


class Cabins(Record):
    basic_economy: int
    economy: int
    business: int


class FlightDate(Record):
    status: str
    actual_departure_time_est: str | None = None
    actual_arrival_time_est: str | None = None
    estimated_departure_time_est: str | None = None
    estimated_arrival_time_est: str | None = None
    available_seats: Cabins | None = None
    prices: Cabins | None = None


class Flight(Record):
    flight_number: str
    origin: str
    destination: str
    scheduled_departure_time_est: str
    scheduled_arrival_time_est: str
    dates: dict[str, FlightDate]


class ReservationFlight(Record):
    origin: str
    destination: str
    flight_number: str
    date: str
    price: int


class Passenger(Record):
    first_name: str
    last_name: str
    dob: str


class Payment(Record):
    payment_id: str
    amount: int


class Reservation(Record):
    reservation_id: str
    user_id: str
    origin: str
    destination: str
    flight_type: str
    cabin: str
    flights: list[ReservationFlight]
    passengers: list[Passenger]
    payment_history: list[Payment]
    created_at: str
    total_baggages: int
    nonfree_baggages: int
    insurance: str
    status: str | None = None


class Name(Record):
    first_name: str
    last_name: str


class Address(Record):
    address1: str
    address2: str
    city: str
    country: str
    state: str
    zip: str


class PaymentMethod(Record):
    source: str
    id: str
    brand: str | None = None
    last_four: str | None = None
    amount: float | None = None


class User(Record):
    name: Name
    address: Address
    email: str
    dob: str
    payment_methods: dict[str, PaymentMethod]
    saved_passengers: list[Passenger]
    membership: str
    reservations: list[str]


class AirlineDatabase(BaseModel):
    """The airline tables, by record id."""

    flights: dict[str, Flight]
    reservations: dict[str, Reservation]
    users: dict[str, User]
