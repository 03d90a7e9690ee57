"""Airline tools, one module each."""

from __future__ import annotations

from taumesh.domains import Tool
from taumesh.domains.v1.airline.tools.book_reservation import BookReservation
from taumesh.domains.v1.airline.tools.cancel_reservation import CancelReservation
from taumesh.domains.v1.airline.tools.get_reservation_details import GetReservationDetails
from taumesh.domains.v1.airline.tools.get_user_details import GetUserDetails
from taumesh.domains.v1.airline.tools.list_all_airports import ListAllAirports
from taumesh.domains.v1.airline.tools.search_direct_flight import SearchDirectFlight
from taumesh.domains.v1.airline.tools.search_onestop_flight import SearchOnestopFlight
from taumesh.domains.v1.airline.tools.send_certificate import SendCertificate
from taumesh.domains.v1.airline.tools.update_reservation_baggages import UpdateReservationBaggages
from taumesh.domains.v1.airline.tools.update_reservation_flights import UpdateReservationFlights
from taumesh.domains.v1.airline.tools.update_reservation_passengers import UpdateReservationPassengers

AIRLINE_TOOLS: tuple[type[Tool], ...] = (
    BookReservation,
    CancelReservation,
    GetReservationDetails,
    GetUserDetails,
    ListAllAirports,
    SearchDirectFlight,
    SearchOnestopFlight,
    SendCertificate,
    UpdateReservationBaggages,
    UpdateReservationFlights,
    UpdateReservationPassengers,
)
