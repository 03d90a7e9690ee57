"""The simulated phone's behaviour shared by the user's tools: τ²'s private helpers of ``TelecomUserTools``.

The user's database is the session table ``USER_TABLE`` with two records, ``device`` and
``surroundings``, as τ²'s ``TelecomUserDB`` dumps them (enums are their values).
"""

from __future__ import annotations

from typing import Any

from taumesh.domains import Data
from taumesh.domains.tau2._layout import USER_TABLE

SIGNAL_ICONS = {
    "none": "📵 No Signal",
    "poor": "📶¹ Poor",
    "fair": "📶² Fair",
    "good": "📶³ Good",
    "excellent": "📶⁴ Excellent",
}
_SPEED_RANGES = {"2G": (0.1, 0.4), "3G": (1.0, 5.0), "4G": (10.0, 100.0), "5G": (50.0, 500.0), "none": (0.0, 0.0)}
_SIGNAL_FACTORS = {"poor": 0.2, "fair": 0.5, "good": 0.8, "excellent": 1.0, "none": 0.0}
_PREFERRED_TECHNOLOGY = {"4g_only": "4G", "3g_only": "3G", "2g_only": "2G"}


def device(data: Data) -> Any:
    """The phone's settings and state (τ²'s ``MockPhoneAttributes``)."""
    return data[USER_TABLE]["device"]


def surroundings(data: Data) -> Any:
    """Where the user is and what the carrier lets the line do (τ²'s ``UserSurroundings``)."""
    return data[USER_TABLE]["surroundings"]


def sim_status(data: Data) -> str:
    """τ²'s ``_check_sim_status``: ``missing`` when the card is out, else its status."""
    phone = device(data)
    return "missing" if phone["sim_card_missing"] else str(phone["sim_card_status"])


def _no_service(phone: Any) -> None:
    phone["network_connection_status"] = "no_service"
    phone["network_technology_connected"] = "none"
    phone["network_signal_strength"] = "none"


def simulate_network_search(data: Data) -> None:
    """τ²'s ``simulate_network_search``: connection, technology and signal from the SIM, settings and place."""
    phone, place = device(data), surroundings(data)
    status = sim_status(data)
    if status == "active":
        phone["network_connection_status"] = "connected"
        preference = phone["network_mode_preference"]
        signals = place["signal_strength"]
        if preference == "4g_5g_preferred" and signals.get("5G", "none") != "none":
            technology = "5G"
        else:
            technology = _PREFERRED_TECHNOLOGY.get(preference, "4G")
        phone["network_technology_connected"] = technology
        phone["network_signal_strength"] = signals.get(technology, "none")
    else:
        _no_service(phone)
    if phone["airplane_mode"] or phone["active_apn_settings"]["apn_name"] == "broken" or not place["line_active"]:
        _no_service(phone)


def status_bar(data: Data) -> str:
    """τ²'s ``_check_status_bar``."""
    phone = device(data)
    indicators = []
    if phone["airplane_mode"]:
        indicators.append("✈️ Airplane Mode")
    else:
        indicators.append(SIGNAL_ICONS.get(phone["network_signal_strength"], "📵 No Signal"))
        connected = phone["network_technology_connected"] != "none"
        if connected:
            indicators.append(phone["network_technology_connected"])
        if phone["data_enabled"] and connected:
            indicators.append("📱 Data Enabled")
            if phone["data_saver_mode"]:
                indicators.append("🔽 Data Saver")
        else:
            indicators.append("📵 Data Disabled")
    if phone["wifi_enabled"] and phone["wifi_connected"]:
        indicators.append(f"📡 Connected to {phone['wifi_ssid']}" if phone["wifi_ssid"] else "📡 Enabled")
    if phone["vpn_connected"]:
        indicators.append("🔒 VPN Connected")
    indicators.append(f"🔋 {phone['battery_level']}%")
    return " | ".join(indicators)


def with_status_bar(data: Data, text: str) -> str:
    """``text`` followed by the status bar, as most of τ²'s phone actions answer."""
    return f"{text}\nStatus Bar: {status_bar(data)}"


def mobile_data_working(data: Data) -> bool:
    """τ²'s ``_get_mobile_data_working``."""
    phone, place = device(data), surroundings(data)
    if phone["airplane_mode"] or phone["network_signal_strength"] == "none":
        return False
    if phone["network_connection_status"] == "no_service":
        return False
    if place["is_abroad"] and (not phone["roaming_enabled"] or not place["roaming_allowed"]):
        return False
    return bool(phone["data_enabled"]) and not place["mobile_data_usage_exceeded"]


def speed_test(data: Data) -> tuple[float | None, str]:
    """τ²'s ``_run_speed_test``: (Mbps, description), or (None, "No Connection")."""
    if not mobile_data_working(data):
        return None, "No Connection"
    phone = device(data)
    vpn = phone["vpn_details"]
    factor = 0.1 if phone["vpn_connected"] and vpn and vpn["server_performance"] == "poor" else 1.0
    if phone["data_saver_mode"]:
        factor *= 0.2
    low, high = _SPEED_RANGES.get(phone["network_technology_connected"], (0.0, 0.0))
    speed = round((low + high) / 2.0 * _SIGNAL_FACTORS.get(phone["network_signal_strength"], 0.0) * factor, 2)
    for limit, description in ((1, "Very Poor"), (5, "Poor"), (25, "Fair"), (100, "Good")):
        if speed < limit:
            return speed, description
    return speed, "Excellent"


def can_send_mms(data: Data) -> bool:
    """τ²'s ``_can_send_mms``."""
    phone = device(data)
    if not mobile_data_working(data) or phone["network_technology_connected"] == "2G":
        return False
    if phone["wifi_calling_enabled"] and phone["wifi_calling_mms_over_wifi"]:
        return False
    if phone["active_apn_settings"]["mmsc_url"] is None:
        return False
    messaging = phone["app_statuses"].get("messaging")
    if messaging is None:
        return False
    permissions = messaging["permissions"]
    return bool(permissions["storage"] and permissions["sms"])


def toggle_airplane_mode(data: Data) -> bool:
    """τ²'s ``_toggle_airplane_mode``: the new state."""
    phone = device(data)
    was_on = phone["airplane_mode"]
    phone["airplane_mode"] = not was_on
    if was_on:
        phone["network_connection_status"] = "searching"
    if not was_on or phone["wifi_enabled"]:
        phone["wifi_connected"] = False
        phone["wifi_ssid"] = None
        phone["wifi_signal_strength"] = "none"
    if not was_on and phone["vpn_connected"]:
        disconnect_vpn(data)
    simulate_network_search(data)
    return bool(phone["airplane_mode"])


def toggle_setting(data: Data, setting: str, search: bool = True) -> bool:
    """Flip a device switch (then search the network, as τ²'s data and roaming toggles do); the new state."""
    phone = device(data)
    phone[setting] = not phone[setting]
    if search:
        simulate_network_search(data)
    return bool(phone[setting])


def default_vpn_details() -> dict[str, Any]:
    """τ²'s ``default_vpn_details``."""
    return {"server_address": "192.168.1.1", "protocol": "OpenVPN", "server_performance": "excellent"}


def connect_vpn(data: Data) -> bool | None:
    """τ²'s ``_connect_vpn``: None when already connected."""
    phone = device(data)
    if phone["vpn_connected"]:
        return None
    phone["vpn_connected"] = True
    phone["vpn_details"] = default_vpn_details()
    return True


def disconnect_vpn(data: Data) -> bool:
    """τ²'s ``_disconnect_vpn``: whether there was a connection to end."""
    phone = device(data)
    if not phone["vpn_connected"]:
        return False
    phone["vpn_connected"] = False
    phone["vpn_details"] = None
    return True
