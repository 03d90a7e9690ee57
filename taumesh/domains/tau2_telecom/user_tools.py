"""The user's side of telecom (the simulated phone), behaving as τ²'s ``TelecomUserTools``.

The tools the user simulator may call (``side = "user"``) and the toolkit's other methods that tasks
call to break the phone (``initialization_actions``) or to check it (``env_assertions``). Their texts
come from the fetched data. One deliberate difference: τ² shares one ``default_vpn_details`` object
between every phone of a process, so ``break_vpn`` degrades every later ``connect_vpn``; here each
connection gets its own details.
"""

from __future__ import annotations

from typing import Any

from taumesh.domains import Data, Tool
from taumesh.domains.tau2 import dump_json
from taumesh.domains.tau2._toolkit import Toolkit, read, read_function, write, write_function
from taumesh.domains.tau2_telecom import phone
from taumesh.domains.tau2_telecom.phone import device, surroundings, with_status_bar
from taumesh.domains.tau2_telecom.phone_models import APNSettings, NetworkModePreference, NetworkStatus, VpnDetails

_NETWORK_MODES = ("4g_5g_preferred", "4g_only", "3g_only", "2g_only")
_SIM_MESSAGES = {
    "active": "Your SIM card is active and working.",
    "missing": "No SIM card detected in the phone.",
    "locked_pin": "The SIM card is locked with a PIN code.",
    "locked_puk": "The SIM card is locked with a PUK code.",
}
_SPEED_ADVICE = {
    "Very Poor": "Connection is very slow. Basic web browsing might be difficult.",
    "Poor": "Connection is slow. Web browsing may be sluggish, streaming difficult.",
    "Fair": "Connection is okay for web browsing and some standard definition streaming.",
    "Good": "Connection is good for most activities, including HD streaming.",
    "Excellent": "Connection is very fast.",
}


def _on_off(state: Any) -> str:
    return "ON" if state else "OFF"


def _yes_no(state: Any) -> str:
    return "Yes" if state else "No"


def _set_network_mode(data: Data, mode: Any) -> str | None:
    """τ²'s ``_set_network_mode_preference``: the mode set, or None when a string names no mode.

    τ² assigns a mode that is not a string as it is, then fails to read its ``value``.
    """
    if isinstance(mode, str) and mode not in _NETWORK_MODES:
        return None
    device(data)["network_mode_preference"] = mode
    phone.simulate_network_search(data)
    if not isinstance(mode, str):
        raise AttributeError(f"'{type(mode).__name__}' object has no attribute 'value'")
    return mode


def _granted(permissions: Any) -> list[str]:
    return [name.replace("_", " ").lower() for name, allowed in permissions.items() if allowed]


def _force(data: Data, setting: str, wanted: bool) -> None:
    """τ²'s ``turn_X_on/off``: toggle, and toggle again when the first toggle gave the wrong state."""
    if phone.toggle_setting(data, setting, search=setting != "data_saver_mode") != wanted:
        phone.toggle_setting(data, setting, search=setting != "data_saver_mode")


class TelecomUserTools(Toolkit):
    """τ²'s ``TelecomUserTools``: the user's phone, and the functions tasks break and check it with."""

    side = "user"

    @read
    def check_status_bar(self) -> str:
        data = self.data
        return f"Status Bar: {phone.status_bar(data)}"

    @read
    def check_network_status(self) -> str:
        data = self.data
        state = device(data)
        lines = [
            f"Airplane Mode: {_on_off(state['airplane_mode'])}",
            f"SIM Card Status: {phone.sim_status(data)}",
            f"Cellular Connection: {state['network_connection_status']}",
            f"Cellular Signal: {state['network_signal_strength']}",
            f"Cellular Network Type: {state['network_technology_connected']}",
            f"Mobile Data Enabled: {_yes_no(state['data_enabled'])}",
            f"Data Roaming Enabled: {_yes_no(state['roaming_enabled'])}",
            f"Wi-Fi Radio: {_on_off(state['wifi_enabled'])}",
            f"Wi-Fi Connected: {_yes_no(state['wifi_connected'])}",
        ]
        if state["wifi_connected"]:
            lines.append(f"Connected Wi-Fi Network: {state['wifi_ssid']}")
        return "\n".join(lines)

    @read
    def check_network_mode_preference(self) -> str:
        data = self.data
        return f"Network Mode Preference: {device(data)['network_mode_preference']}"

    @write
    def set_network_mode_preference(self, mode: NetworkModePreference | str) -> str:
        data = self.data
        chosen = _set_network_mode(data, mode)
        if chosen is None:
            return with_status_bar(
                data,
                f"Failed to set network mode: '{mode}' is not a valid option. "
                f"Please use one of: {', '.join(_NETWORK_MODES)}",
            )
        return with_status_bar(data, f"Preferred Network Mode set to: {chosen}")

    @read
    def run_speed_test(self) -> str:
        data = self.data
        speed, description = phone.speed_test(data)
        if speed is None:
            return f"Speed test failed: {description or 'Could not determine speed'}."
        return f"Speed Test Result: {speed:.2f} Mbps ({description}). {_SPEED_ADVICE.get(description, '')}"

    @write
    def toggle_airplane_mode(self) -> str:
        data = self.data
        return with_status_bar(data, f"Airplane Mode is now {_on_off(phone.toggle_airplane_mode(data))}.")

    @read
    def check_sim_status(self) -> str:
        data = self.data
        status = phone.sim_status(data)
        return _SIM_MESSAGES.get(status, f"Unknown SIM status: {status}")

    @write
    def reseat_sim_card(self) -> str:
        data = self.data
        device(data)["sim_card_missing"] = False
        phone.simulate_network_search(data)
        return with_status_bar(data, "SIM card re-seated successfully.")

    @write
    def toggle_data(self) -> str:
        data = self.data
        return with_status_bar(data, f"Mobile Data is now {_on_off(phone.toggle_setting(data, 'data_enabled'))}.")

    @write
    def toggle_roaming(self) -> str:
        data = self.data
        state = phone.toggle_setting(data, "roaming_enabled")
        return with_status_bar(data, f"Data Roaming is now {_on_off(state)}.")

    @read
    def check_data_restriction_status(self) -> str:
        data = self.data
        if device(data)["data_saver_mode"]:
            return "Data Saver mode is ON (limits data usage)."
        return "Data Saver mode is OFF."

    @write
    def toggle_data_saver_mode(self) -> str:
        data = self.data
        state = phone.toggle_setting(data, "data_saver_mode", search=False)
        return with_status_bar(data, f"Data Saver Mode is now {_on_off(state)}.")

    @read
    def check_apn_settings(self) -> str:
        data = self.data
        settings = device(data)["active_apn_settings"]
        return (
            f"Current APN Name: {settings['apn_name'] or 'Not Set'}\n"
            f"MMSC URL (for picture messages): {settings['mmsc_url'] or 'Not Set'}\n"
            "(These are technical settings, usually best left unchanged.)"
        )

    @write
    def set_apn_settings(self, apn_settings: APNSettings | dict[str, Any]) -> str:
        data = self.data
        if isinstance(apn_settings, dict):
            apn_settings = dump_json(APNSettings(**apn_settings))
        device(data)["active_apn_settings"] = apn_settings
        if not isinstance(apn_settings, dict):  # τ² sets it, then fails to read its name
            raise AttributeError(f"'{type(apn_settings).__name__}' object has no attribute 'apn_name'")
        phone.simulate_network_search(data)
        return with_status_bar(data, f"APN settings set to: {apn_settings['apn_name']}")

    @write
    def reset_apn_settings(self) -> str:
        data = self.data
        device(data)["active_apn_settings"]["reset_at_reboot"] = True
        phone.simulate_network_search(data)
        return with_status_bar(data, "APN settings will reset at reboot.")

    @read
    def check_wifi_status(self) -> str:
        data = self.data
        state = device(data)
        if not state["wifi_enabled"]:
            return "Wi-Fi is turned OFF."
        if state["wifi_connected"]:
            return (
                f"Wi-Fi is ON and connected to '{state['wifi_ssid']}'. "
                f"Signal strength: {state['wifi_signal_strength']}."
            )
        return "Wi-Fi is ON but not connected to any network."

    @write
    def toggle_wifi(self) -> str:
        data = self.data
        state = device(data)
        if state["airplane_mode"]:
            return with_status_bar(data, "Cannot change Wi-Fi settings while Airplane Mode is ON.")
        state["wifi_enabled"] = not state["wifi_enabled"]
        if not state["wifi_enabled"]:
            state["wifi_connected"] = False
            state["wifi_ssid"] = None
            state["wifi_signal_strength"] = "none"
        return with_status_bar(data, f"Wi-Fi is now {_on_off(state['wifi_enabled'])}.")

    @read
    def check_wifi_calling_status(self) -> str:
        data = self.data
        return f"Wi-Fi Calling is currently turned {_on_off(device(data)['wifi_calling_enabled'])}."

    @write
    def toggle_wifi_calling(self) -> str:
        data = self.data
        state = phone.toggle_setting(data, "wifi_calling_enabled", search=False)
        return with_status_bar(data, f"Wi-Fi Calling is now {_on_off(state)}.")

    @read
    def check_vpn_status(self) -> str:
        data = self.data
        state = device(data)
        if state["vpn_connected"]:
            if state["vpn_details"]:  # shown as τ² shows a model dump: enums by their repr
                details = VpnDetails.model_validate(state["vpn_details"]).model_dump()
                return f"VPN is ON and connected. Details: {details}"
            return "VPN is ON and connected (no specific details available)."
        if state["vpn_enabled_setting"]:
            return "VPN is turned ON in settings, but currently not connected."
        return "VPN is turned OFF."

    @write
    def connect_vpn(self) -> str:
        data = self.data
        if phone.connect_vpn(data) is None:
            return "VPN already connected."
        return with_status_bar(data, "VPN connected successfully.")

    @write
    def disconnect_vpn(self) -> str:
        data = self.data
        done = phone.disconnect_vpn(data)
        return with_status_bar(
            data, "VPN disconnected successfully." if done else "No active VPN connection to disconnect."
        )

    @read
    def check_installed_apps(self) -> str:
        data = self.data
        return f"The following apps are installed on the phone: {', '.join(device(data)['app_statuses'])}"

    @read
    def check_app_status(self, app_name: str) -> str:
        data = self.data
        app = device(data)["app_statuses"].get(app_name)
        if not app:
            return f"App '{app_name}' not found on this phone."
        lines = [f"Status for App: {app_name}"]
        granted = _granted(app["permissions"])
        if not granted:
            lines.append(" - Permissions: None granted.")
        else:
            lines.append(" - Permissions Granted:")
            lines += [f"   - {permission}" for permission in granted]
        return "\n".join(lines)

    @read
    def check_app_permissions(self, app_name: str) -> str:
        data = self.data
        app = device(data)["app_statuses"].get(app_name)
        if not app:
            return f"App '{app_name}' not found on this phone."
        granted = _granted(app["permissions"])
        if not granted:
            return f"App '{app_name}' currently has no permissions granted."
        return f"App '{app_name}' has permission for: {', '.join(granted)}."

    @write
    def grant_app_permission(self, app_name: str, permission: str) -> str:
        data = self.data
        app = device(data)["app_statuses"].get(app_name)
        permission = permission.lower()
        if not app:
            message = f"Error. App '{app_name}' not found. Cannot grant permission."
        elif permission not in app["permissions"]:
            available = list(app["permissions"])
            message = (
                f"Error. Permission '{permission}' not tracked for app '{app_name}', available permissions: {available}"
            )
        else:
            app["permissions"][permission] = True
            message = f"Success. Permission '{permission}' granted to app '{app_name}'."
        return with_status_bar(data, message)

    @read
    def can_send_mms(self) -> str:
        data = self.data
        if phone.can_send_mms(data):
            return "Your messaging app can send MMS messages."
        return "Your messaging app cannot send MMS messages."

    @write
    def reboot_device(self) -> str:
        data = self.data
        state = device(data)
        lines = []
        if state["active_apn_settings"]["reset_at_reboot"]:
            lines.append("Resetting APN settings...")
            state["active_apn_settings"] = dump_json(APNSettings())
        lines.append("Restarting network services...")
        state["network_connection_status"] = "searching"
        phone.simulate_network_search(data)
        return with_status_bar(data, "\n".join(lines))

    @read
    def check_payment_request(self) -> str:
        data = self.data
        request = surroundings(data)["payment_request"]
        if request is None:
            return "No payment request has been made."
        return f"You have a payment request for bill {request['bill_id']} of {request['amount_due']} USD."

    @write
    def make_payment(self) -> str:
        data = self.data
        request = surroundings(data)["payment_request"]
        if request is None:
            return "You do not have a payment request."
        request["paid"] = True
        return f"Payment of {request['amount_due']} USD has been made for bill {request['bill_id']}."

    @write_function
    def set_user_info(self, name: str, phone_number: str) -> None:
        data = self.data
        place = surroundings(data)
        place["name"] = name
        place["phone_number"] = phone_number

    @write_function
    def set_user_location(self, abroad: bool) -> None:
        data = self.data
        surroundings(data)["is_abroad"] = abroad

    @write_function
    def turn_data_on(self) -> str:
        data = self.data
        device(data)["data_enabled"] = True
        return "Data connection restored."

    @write_function
    def turn_airplane_mode_on(self) -> str:
        data = self.data
        if not phone.toggle_airplane_mode(data):
            phone.toggle_airplane_mode(data)
        return "Airplane Mode is now ON."

    @write_function
    def turn_airplane_mode_off(self) -> str:
        data = self.data
        if phone.toggle_airplane_mode(data):
            phone.toggle_airplane_mode(data)
        return "Airplane Mode is now OFF."

    @write_function
    def unseat_sim_card(self) -> str:
        data = self.data
        device(data)["sim_card_missing"] = True
        phone.simulate_network_search(data)
        return "SIM card un-seated successfully."

    @write_function
    def lock_sim_card(self, mode: str) -> str:
        data = self.data
        if mode in ("pin", "puk"):
            device(data)["sim_card_status"] = f"locked_{mode}"
        phone.simulate_network_search(data)
        return f"SIM card locked successfully in {mode} mode."

    @write_function
    def simulate_network_search(self) -> None:
        data = self.data
        phone.simulate_network_search(data)

    @write_function
    def break_apn_settings(self) -> str:
        data = self.data
        device(data)["active_apn_settings"]["apn_name"] = "broken"
        phone.simulate_network_search(data)
        return "APN settings broken. Please call reset_apn_settings() to fix."

    @write_function
    def break_apn_mms_setting(self) -> str:
        data = self.data
        device(data)["active_apn_settings"]["mmsc_url"] = None
        return "APN MMS setting broken. Please call reset_apn_settings() to fix."

    @write_function
    def set_wifi_calling(self, enabled: bool, mms_over_wifi: bool | None = None) -> str:
        data = self.data
        state = device(data)
        if state["wifi_calling_enabled"] != enabled:
            state["wifi_calling_enabled"] = not state["wifi_calling_enabled"]
        message = f"Wi-Fi Calling is now {_on_off(enabled)}."
        if mms_over_wifi is not None:
            state["wifi_calling_mms_over_wifi"] = mms_over_wifi
            message += f"\nMMS over Wi-Fi is now {_on_off(mms_over_wifi)}."
        return message

    @write_function
    def break_vpn(self) -> str:
        data = self.data
        phone.connect_vpn(data)
        device(data)["vpn_details"]["server_performance"] = "poor"
        return "VPN connection broken."

    @write_function
    def remove_app_permission(self, app_name: str, permission: str) -> tuple[bool, str]:
        data = self.data
        app = device(data)["app_statuses"].get(app_name)
        permission = permission.lower()
        if not app:
            return False, f"App '{app_name}' not found. Cannot remove permission."
        if permission not in app["permissions"]:
            return False, f"Permission '{permission}' not tracked for app '{app_name}'."
        app["permissions"][permission] = False
        return True, f"Permission '{permission}' removed from app '{app_name}'."

    @read_function
    def assert_service_status(self, expected_status: str) -> bool:
        data = self.data
        expected = NetworkStatus(expected_status).value  # an unknown status fails as τ²'s enum does
        return bool(device(data)["network_connection_status"] == expected)

    @read_function
    def assert_internet_speed(self, expected_speed: float, expected_desc: str | None = None) -> bool:
        data = self.data
        speed, description = phone.speed_test(data)
        speed = speed or 0.0
        if expected_desc is None:
            return speed >= expected_speed
        return speed >= expected_speed and description.lower() == expected_desc.lower()

    @read_function
    def assert_internet_not_excellent(self) -> bool:
        data = self.data
        return phone.speed_test(data)[1].lower() != "excellent"

    @write_function
    def turn_roaming_on(self) -> str:
        _force(self.data, "roaming_enabled", True)
        return "Data Roaming is now ON."

    @write_function
    def turn_roaming_off(self) -> str:
        _force(self.data, "roaming_enabled", False)
        return "Data Roaming is now OFF."

    @write_function
    def turn_data_off(self) -> str:
        _force(self.data, "data_enabled", False)
        return "Data connection broken."

    @write_function
    def turn_data_saver_mode_on(self) -> str:
        _force(self.data, "data_saver_mode", True)
        return "Data Saver Mode is now ON."

    @write_function
    def turn_data_saver_mode_off(self) -> str:
        _force(self.data, "data_saver_mode", False)
        return "Data Saver Mode is now OFF."

    @read_function
    def assert_airplane_mode_status(self, expected_status: Any) -> bool:
        return bool(device(self.data)["airplane_mode"] == expected_status)

    @read_function
    def assert_mobile_data_status(self, expected_status: Any) -> bool:
        return bool(phone.mobile_data_working(self.data) == expected_status)

    @read_function
    def assert_mobile_roaming_status(self, expected_status: Any) -> bool:
        return bool(device(self.data)["roaming_enabled"] == expected_status)

    @read_function
    def assert_mobile_data_saver_mode_status(self, expected_status: Any) -> bool:
        return bool(device(self.data)["data_saver_mode"] == expected_status)

    @read_function
    def assert_can_send_mms(self, expected_status: Any) -> bool:
        return bool(phone.can_send_mms(self.data) == expected_status)

    @read_function
    def assert_mobile_data_usage_exceeded(self, expected_status: Any) -> bool:
        return bool(surroundings(self.data)["mobile_data_usage_exceeded"] == expected_status)


USER_TOOLS: tuple[type[Tool], ...] = TelecomUserTools.tools()
USER_FUNCTIONS: tuple[type[Tool], ...] = TelecomUserTools.functions()
