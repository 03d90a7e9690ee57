"""The airline domain's database: flights by number and date, users, reservations."""

from __future__ import annotations

from typing import Literal

from taumesh.domains.tau2._models import Database, Record

FlightType = Literal["round_trip", "one_way"]
CabinClass = Literal["business", "economy", "basic_economy"]
Insurance = Literal["yes", "no"]
MembershipLevel = Literal["gold", "silver", "regular"]
SeatPrices = dict[CabinClass, int]
AvailableSeats = dict[CabinClass, int]


class AirportCode(Record):
    iata: str
    city: str


class Name(Record):
    first_name: str
    last_name: str


class Address(Record):
    address1: str
    address2: str | None = None
    city: str
    country: str
    state: str
    zip: str


class Payment(Record):
    payment_id: str
    amount: int


class PaymentMethodBase(Record):
    source: str
    id: str


class CreditCard(PaymentMethodBase):
    source: Literal["credit_card"]
    brand: str
    last_four: str


class GiftCard(PaymentMethodBase):
    source: Literal["gift_card"]
    amount: float


class Certificate(PaymentMethodBase):
    source: Literal["certificate"]
    amount: float


PaymentMethod = CreditCard | GiftCard | Certificate


class Passenger(Record):
    first_name: str
    last_name: str
    dob: str


class FlightDateStatusAvailable(Record):
    status: Literal["available"]
    available_seats: AvailableSeats
    prices: SeatPrices


class FlightDataStatusOnTime(Record):
    status: Literal["on time"]
    estimated_departure_time_est: str
    estimated_arrival_time_est: str


class FlightDataStatusFlying(Record):
    status: Literal["flying"]
    actual_departure_time_est: str
    estimated_arrival_time_est: str


class FlightDateStatusLanded(Record):
    status: Literal["landed"]
    actual_departure_time_est: str
    actual_arrival_time_est: str


class FlightDateStatusCancelled(Record):
    status: Literal["cancelled"]


class FlightDateStatusDelayed(Record):
    status: Literal["delayed"]
    estimated_departure_time_est: str
    estimated_arrival_time_est: str


FlightDateStatus = (
    FlightDateStatusAvailable
    | FlightDateStatusLanded
    | FlightDateStatusCancelled
    | FlightDateStatusDelayed
    | FlightDataStatusFlying
    | FlightDataStatusOnTime
)
"""A flight's state on one date; the union is tried in this order, as τ²'s is (smart mode: the exact match wins)."""


class FlightBase(Record):
    flight_number: str
    origin: str
    destination: str


class Flight(FlightBase):
    scheduled_departure_time_est: str
    scheduled_arrival_time_est: str
    dates: dict[str, FlightDateStatus]


class DirectFlight(FlightBase):
    status: Literal["available"]
    scheduled_departure_time_est: str
    scheduled_arrival_time_est: str
    date: str | None = None
    available_seats: AvailableSeats
    prices: SeatPrices


class ReservationFlight(FlightBase):
    date: str
    price: int


class FlightInfo(Record):
    flight_number: str
    date: str


class User(Record):
    user_id: str
    name: Name
    address: Address
    email: str
    dob: str
    payment_methods: dict[str, PaymentMethod]
    saved_passengers: list[Passenger]
    membership: MembershipLevel
    reservations: list[str]


class Reservation(Record):
    reservation_id: str
    user_id: str
    origin: str
    destination: str
    flight_type: FlightType
    cabin: CabinClass
    flights: list[ReservationFlight]
    passengers: list[Passenger]
    payment_history: list[Payment]
    created_at: str
    total_baggages: int
    nonfree_baggages: int
    insurance: Insurance
    status: Literal["cancelled"] | None = None


class FlightDB(Database):
    flights: dict[str, Flight]
    users: dict[str, User]
    reservations: dict[str, Reservation]
