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
from taumesh.domains.tau2 import dump_json, tau2_tool
from taumesh.domains.tau2_telecom import phone
from taumesh.domains.tau2_telecom.phone import device, surroundings, with_status_bar
from taumesh.domains.tau2_telecom.phone_models import APNSettings, NetworkModePreference, NetworkStatus, VpnDetails

_TOOLKIT = "TelecomUserTools"
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


class UserTool(Tool):
    side = "user"


# --- the user's tools, in τ²'s order ---


@tau2_tool(_TOOLKIT)
class CheckStatusBar(UserTool):
    name = "check_status_bar"

    @staticmethod
    def invoke(data: Data) -> str:
        return f"Status Bar: {phone.status_bar(data)}"


@tau2_tool(_TOOLKIT)
class CheckNetworkStatus(UserTool):
    name = "check_network_status"

    @staticmethod
    def invoke(data: Data) -> str:
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


@tau2_tool(_TOOLKIT)
class CheckNetworkModePreference(UserTool):
    name = "check_network_mode_preference"

    @staticmethod
    def invoke(data: Data) -> str:
        return f"Network Mode Preference: {device(data)['network_mode_preference']}"


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


@tau2_tool(_TOOLKIT)
class SetNetworkModePreference(UserTool):
    name = "set_network_mode_preference"
    writes = True

    @staticmethod
    def invoke(data: Data, mode: NetworkModePreference | str) -> str:
        chosen = _set_network_mode(data, mode)
        if chosen is None:
            return with_status_bar(
                data,
                f"Failed to set network mode: '{mode}' is not a valid option. "
                f"Please use one of: {', '.join(_NETWORK_MODES)}",
            )
        return with_status_bar(data, f"Preferred Network Mode set to: {chosen}")


@tau2_tool(_TOOLKIT)
class RunSpeedTest(UserTool):
    name = "run_speed_test"

    @staticmethod
    def invoke(data: Data) -> str:
        speed, description = phone.speed_test(data)
        if speed is None:
            return f"Speed test failed: {description or 'Could not determine speed'}."
        return f"Speed Test Result: {speed:.2f} Mbps ({description}). {_SPEED_ADVICE.get(description, '')}"


@tau2_tool(_TOOLKIT)
class ToggleAirplaneMode(UserTool):
    name = "toggle_airplane_mode"
    writes = True

    @staticmethod
    def invoke(data: Data) -> str:
        return with_status_bar(data, f"Airplane Mode is now {_on_off(phone.toggle_airplane_mode(data))}.")


@tau2_tool(_TOOLKIT)
class CheckSimStatus(UserTool):
    name = "check_sim_status"

    @staticmethod
    def invoke(data: Data) -> str:
        status = phone.sim_status(data)
        return _SIM_MESSAGES.get(status, f"Unknown SIM status: {status}")


@tau2_tool(_TOOLKIT)
class ReseatSimCard(UserTool):
    name = "reseat_sim_card"
    writes = True

    @staticmethod
    def invoke(data: Data) -> str:
        device(data)["sim_card_missing"] = False
        phone.simulate_network_search(data)
        return with_status_bar(data, "SIM card re-seated successfully.")


@tau2_tool(_TOOLKIT)
class ToggleData(UserTool):
    name = "toggle_data"
    writes = True

    @staticmethod
    def invoke(data: Data) -> str:
        return with_status_bar(data, f"Mobile Data is now {_on_off(phone.toggle_setting(data, 'data_enabled'))}.")


@tau2_tool(_TOOLKIT)
class ToggleRoaming(UserTool):
    name = "toggle_roaming"
    writes = True

    @staticmethod
    def invoke(data: Data) -> str:
        state = phone.toggle_setting(data, "roaming_enabled")
        return with_status_bar(data, f"Data Roaming is now {_on_off(state)}.")


@tau2_tool(_TOOLKIT)
class CheckDataRestrictionStatus(UserTool):
    name = "check_data_restriction_status"

    @staticmethod
    def invoke(data: Data) -> str:
        if device(data)["data_saver_mode"]:
            return "Data Saver mode is ON (limits data usage)."
        return "Data Saver mode is OFF."


@tau2_tool(_TOOLKIT)
class ToggleDataSaverMode(UserTool):
    name = "toggle_data_saver_mode"
    writes = True

    @staticmethod
    def invoke(data: Data) -> str:
        state = phone.toggle_setting(data, "data_saver_mode", search=False)
        return with_status_bar(data, f"Data Saver Mode is now {_on_off(state)}.")


@tau2_tool(_TOOLKIT)
class CheckApnSettings(UserTool):
    name = "check_apn_settings"

    @staticmethod
    def invoke(data: Data) -> str:
        settings = device(data)["active_apn_settings"]
        return (
            f"Current APN Name: {settings['apn_name'] or 'Not Set'}\n"
            f"MMSC URL (for picture messages): {settings['mmsc_url'] or 'Not Set'}\n"
            "(These are technical settings, usually best left unchanged.)"
        )


@tau2_tool(_TOOLKIT)
class SetApnSettings(UserTool):
    name = "set_apn_settings"
    writes = True

    @staticmethod
    def invoke(data: Data, apn_settings: APNSettings | dict[str, Any]) -> str:
        if isinstance(apn_settings, dict):
            apn_settings = dump_json(APNSettings(**apn_settings))
        device(data)["active_apn_settings"] = apn_settings
        if not isinstance(apn_settings, dict):  # τ² sets it, then fails to read its name
            raise AttributeError(f"'{type(apn_settings).__name__}' object has no attribute 'apn_name'")
        phone.simulate_network_search(data)
        return with_status_bar(data, f"APN settings set to: {apn_settings['apn_name']}")


@tau2_tool(_TOOLKIT)
class ResetApnSettings(UserTool):
    name = "reset_apn_settings"
    writes = True

    @staticmethod
    def invoke(data: Data) -> str:
        device(data)["active_apn_settings"]["reset_at_reboot"] = True
        phone.simulate_network_search(data)
        return with_status_bar(data, "APN settings will reset at reboot.")


@tau2_tool(_TOOLKIT)
class CheckWifiStatus(UserTool):
    name = "check_wifi_status"

    @staticmethod
    def invoke(data: Data) -> str:
        state = device(data)
        if not state["wifi_enabled"]:
            return "Wi-Fi is turned OFF."
        if state["wifi_connected"]:
            return (
                f"Wi-Fi is ON and connected to '{state['wifi_ssid']}'. "
                f"Signal strength: {state['wifi_signal_strength']}."
            )
        return "Wi-Fi is ON but not connected to any network."


@tau2_tool(_TOOLKIT)
class ToggleWifi(UserTool):
    name = "toggle_wifi"
    writes = True

    @staticmethod
    def invoke(data: Data) -> str:
        state = device(data)
        if state["airplane_mode"]:
            return with_status_bar(data, "Cannot change Wi-Fi settings while Airplane Mode is ON.")
        state["wifi_enabled"] = not state["wifi_enabled"]
        if not state["wifi_enabled"]:
            state["wifi_connected"] = False
            state["wifi_ssid"] = None
            state["wifi_signal_strength"] = "none"
        return with_status_bar(data, f"Wi-Fi is now {_on_off(state['wifi_enabled'])}.")


@tau2_tool(_TOOLKIT)
class CheckWifiCallingStatus(UserTool):
    name = "check_wifi_calling_status"

    @staticmethod
    def invoke(data: Data) -> str:
        return f"Wi-Fi Calling is currently turned {_on_off(device(data)['wifi_calling_enabled'])}."


@tau2_tool(_TOOLKIT)
class ToggleWifiCalling(UserTool):
    name = "toggle_wifi_calling"
    writes = True

    @staticmethod
    def invoke(data: Data) -> str:
        state = phone.toggle_setting(data, "wifi_calling_enabled", search=False)
        return with_status_bar(data, f"Wi-Fi Calling is now {_on_off(state)}.")


@tau2_tool(_TOOLKIT)
class CheckVpnStatus(UserTool):
    name = "check_vpn_status"

    @staticmethod
    def invoke(data: Data) -> str:
        state = device(data)
        if state["vpn_connected"]:
            if state["vpn_details"]:  # shown as τ² shows a model dump: enums by their repr
                details = VpnDetails.model_validate(state["vpn_details"]).model_dump()
                return f"VPN is ON and connected. Details: {details}"
            return "VPN is ON and connected (no specific details available)."
        if state["vpn_enabled_setting"]:
            return "VPN is turned ON in settings, but currently not connected."
        return "VPN is turned OFF."


@tau2_tool(_TOOLKIT)
class ConnectVpn(UserTool):
    name = "connect_vpn"
    writes = True

    @staticmethod
    def invoke(data: Data) -> str:
        if phone.connect_vpn(data) is None:
            return "VPN already connected."
        return with_status_bar(data, "VPN connected successfully.")


@tau2_tool(_TOOLKIT)
class DisconnectVpn(UserTool):
    name = "disconnect_vpn"
    writes = True

    @staticmethod
    def invoke(data: Data) -> str:
        done = phone.disconnect_vpn(data)
        return with_status_bar(
            data, "VPN disconnected successfully." if done else "No active VPN connection to disconnect."
        )


@tau2_tool(_TOOLKIT)
class CheckInstalledApps(UserTool):
    name = "check_installed_apps"

    @staticmethod
    def invoke(data: Data) -> str:
        return f"The following apps are installed on the phone: {', '.join(device(data)['app_statuses'])}"


def _granted(permissions: Any) -> list[str]:
    return [name.replace("_", " ").lower() for name, allowed in permissions.items() if allowed]


@tau2_tool(_TOOLKIT)
class CheckAppStatus(UserTool):
    name = "check_app_status"

    @staticmethod
    def invoke(data: Data, app_name: str) -> str:
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


@tau2_tool(_TOOLKIT)
class CheckAppPermissions(UserTool):
    name = "check_app_permissions"

    @staticmethod
    def invoke(data: Data, app_name: str) -> str:
        app = device(data)["app_statuses"].get(app_name)
        if not app:
            return f"App '{app_name}' not found on this phone."
        granted = _granted(app["permissions"])
        if not granted:
            return f"App '{app_name}' currently has no permissions granted."
        return f"App '{app_name}' has permission for: {', '.join(granted)}."


@tau2_tool(_TOOLKIT)
class GrantAppPermission(UserTool):
    name = "grant_app_permission"
    writes = True

    @staticmethod
    def invoke(data: Data, app_name: str, permission: str) -> str:
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


@tau2_tool(_TOOLKIT)
class CanSendMms(UserTool):
    name = "can_send_mms"

    @staticmethod
    def invoke(data: Data) -> str:
        if phone.can_send_mms(data):
            return "Your messaging app can send MMS messages."
        return "Your messaging app cannot send MMS messages."


@tau2_tool(_TOOLKIT)
class RebootDevice(UserTool):
    name = "reboot_device"
    writes = True

    @staticmethod
    def invoke(data: Data) -> str:
        state = device(data)
        lines = []
        if state["active_apn_settings"]["reset_at_reboot"]:
            lines.append("Resetting APN settings...")
            state["active_apn_settings"] = dump_json(APNSettings())
        lines.append("Restarting network services...")
        state["network_connection_status"] = "searching"
        phone.simulate_network_search(data)
        return with_status_bar(data, "\n".join(lines))


@tau2_tool(_TOOLKIT)
class CheckPaymentRequest(UserTool):
    name = "check_payment_request"

    @staticmethod
    def invoke(data: Data) -> str:
        request = surroundings(data)["payment_request"]
        if request is None:
            return "No payment request has been made."
        return f"You have a payment request for bill {request['bill_id']} of {request['amount_due']} USD."


@tau2_tool(_TOOLKIT)
class MakePayment(UserTool):
    name = "make_payment"
    writes = True

    @staticmethod
    def invoke(data: Data) -> str:
        request = surroundings(data)["payment_request"]
        if request is None:
            return "You do not have a payment request."
        request["paid"] = True
        return f"Payment of {request['amount_due']} USD has been made for bill {request['bill_id']}."


# --- set-up functions (initialization_actions) ---


@tau2_tool(_TOOLKIT)
class SetUserInfo(UserTool):
    name = "set_user_info"
    writes = True

    @staticmethod
    def invoke(data: Data, name: str, phone_number: str) -> None:
        place = surroundings(data)
        place["name"] = name
        place["phone_number"] = phone_number


@tau2_tool(_TOOLKIT)
class SetUserLocation(UserTool):
    name = "set_user_location"
    writes = True

    @staticmethod
    def invoke(data: Data, abroad: bool) -> None:
        surroundings(data)["is_abroad"] = abroad


def _force(data: Data, setting: str, wanted: bool) -> None:
    """τ²'s ``turn_X_on/off``: toggle, and toggle again when the first toggle gave the wrong state."""
    if phone.toggle_setting(data, setting, search=setting != "data_saver_mode") != wanted:
        phone.toggle_setting(data, setting, search=setting != "data_saver_mode")


def _switch(name: str, setting: str, wanted: bool, message: str) -> type[Tool]:
    class Switch(UserTool):
        writes = True

        @staticmethod
        def invoke(data: Data) -> str:
            _force(data, setting, wanted)
            return message

    Switch.name = name
    Switch.__name__ = Switch.__qualname__ = "".join(part.title() for part in name.split("_"))
    return tau2_tool(_TOOLKIT)(Switch)


TurnRoamingOn = _switch("turn_roaming_on", "roaming_enabled", True, "Data Roaming is now ON.")
TurnRoamingOff = _switch("turn_roaming_off", "roaming_enabled", False, "Data Roaming is now OFF.")
TurnDataOff = _switch("turn_data_off", "data_enabled", False, "Data connection broken.")
TurnDataSaverModeOn = _switch("turn_data_saver_mode_on", "data_saver_mode", True, "Data Saver Mode is now ON.")
TurnDataSaverModeOff = _switch("turn_data_saver_mode_off", "data_saver_mode", False, "Data Saver Mode is now OFF.")


@tau2_tool(_TOOLKIT)
class TurnDataOn(UserTool):
    name = "turn_data_on"
    writes = True

    @staticmethod
    def invoke(data: Data) -> str:
        device(data)["data_enabled"] = True
        return "Data connection restored."


@tau2_tool(_TOOLKIT)
class TurnAirplaneModeOn(UserTool):
    name = "turn_airplane_mode_on"
    writes = True

    @staticmethod
    def invoke(data: Data) -> str:
        if not phone.toggle_airplane_mode(data):
            phone.toggle_airplane_mode(data)
        return "Airplane Mode is now ON."


@tau2_tool(_TOOLKIT)
class TurnAirplaneModeOff(UserTool):
    name = "turn_airplane_mode_off"
    writes = True

    @staticmethod
    def invoke(data: Data) -> str:
        if phone.toggle_airplane_mode(data):
            phone.toggle_airplane_mode(data)
        return "Airplane Mode is now OFF."


@tau2_tool(_TOOLKIT)
class UnseatSimCard(UserTool):
    name = "unseat_sim_card"
    writes = True

    @staticmethod
    def invoke(data: Data) -> str:
        device(data)["sim_card_missing"] = True
        phone.simulate_network_search(data)
        return "SIM card un-seated successfully."


@tau2_tool(_TOOLKIT)
class LockSimCard(UserTool):
    name = "lock_sim_card"
    writes = True

    @staticmethod
    def invoke(data: Data, mode: str) -> str:
        if mode in ("pin", "puk"):
            device(data)["sim_card_status"] = f"locked_{mode}"
        phone.simulate_network_search(data)
        return f"SIM card locked successfully in {mode} mode."


@tau2_tool(_TOOLKIT)
class SimulateNetworkSearch(UserTool):
    name = "simulate_network_search"
    writes = True

    @staticmethod
    def invoke(data: Data) -> None:
        phone.simulate_network_search(data)


@tau2_tool(_TOOLKIT)
class BreakApnSettings(UserTool):
    name = "break_apn_settings"
    writes = True

    @staticmethod
    def invoke(data: Data) -> str:
        device(data)["active_apn_settings"]["apn_name"] = "broken"
        phone.simulate_network_search(data)
        return "APN settings broken. Please call reset_apn_settings() to fix."


@tau2_tool(_TOOLKIT)
class BreakApnMmsSetting(UserTool):
    name = "break_apn_mms_setting"
    writes = True

    @staticmethod
    def invoke(data: Data) -> str:
        device(data)["active_apn_settings"]["mmsc_url"] = None
        return "APN MMS setting broken. Please call reset_apn_settings() to fix."


@tau2_tool(_TOOLKIT)
class SetWifiCalling(UserTool):
    name = "set_wifi_calling"
    writes = True

    @staticmethod
    def invoke(data: Data, enabled: bool, mms_over_wifi: bool | None = None) -> str:
        state = device(data)
        if state["wifi_calling_enabled"] != enabled:
            state["wifi_calling_enabled"] = not state["wifi_calling_enabled"]
        message = f"Wi-Fi Calling is now {_on_off(enabled)}."
        if mms_over_wifi is not None:
            state["wifi_calling_mms_over_wifi"] = mms_over_wifi
            message += f"\nMMS over Wi-Fi is now {_on_off(mms_over_wifi)}."
        return message


@tau2_tool(_TOOLKIT)
class BreakVpn(UserTool):
    name = "break_vpn"
    writes = True

    @staticmethod
    def invoke(data: Data) -> str:
        phone.connect_vpn(data)
        device(data)["vpn_details"]["server_performance"] = "poor"
        return "VPN connection broken."


@tau2_tool(_TOOLKIT)
class RemoveAppPermission(UserTool):
    name = "remove_app_permission"
    writes = True

    @staticmethod
    def invoke(data: Data, app_name: str, permission: str) -> tuple[bool, str]:
        app = device(data)["app_statuses"].get(app_name)
        permission = permission.lower()
        if not app:
            return False, f"App '{app_name}' not found. Cannot remove permission."
        if permission not in app["permissions"]:
            return False, f"Permission '{permission}' not tracked for app '{app_name}'."
        app["permissions"][permission] = False
        return True, f"Permission '{permission}' removed from app '{app_name}'."


# --- assertions (env_assertions) ---


def _assertion(name: str, check: Any) -> type[Tool]:
    class Assertion(UserTool):
        @staticmethod
        def invoke(data: Data, expected_status: Any) -> bool:
            return bool(check(data) == expected_status)

    Assertion.name = name
    Assertion.__name__ = Assertion.__qualname__ = "".join(part.title() for part in name.split("_"))
    return tau2_tool(_TOOLKIT)(Assertion)


AssertAirplaneModeStatus = _assertion("assert_airplane_mode_status", lambda data: device(data)["airplane_mode"])
AssertMobileDataStatus = _assertion("assert_mobile_data_status", phone.mobile_data_working)
AssertMobileRoamingStatus = _assertion("assert_mobile_roaming_status", lambda data: device(data)["roaming_enabled"])
AssertMobileDataSaverModeStatus = _assertion(
    "assert_mobile_data_saver_mode_status", lambda data: device(data)["data_saver_mode"]
)
AssertCanSendMms = _assertion("assert_can_send_mms", phone.can_send_mms)
AssertMobileDataUsageExceeded = _assertion(
    "assert_mobile_data_usage_exceeded", lambda data: surroundings(data)["mobile_data_usage_exceeded"]
)


@tau2_tool(_TOOLKIT)
class AssertServiceStatus(UserTool):
    name = "assert_service_status"

    @staticmethod
    def invoke(data: Data, expected_status: str) -> bool:
        expected = NetworkStatus(expected_status).value  # an unknown status fails as τ²'s enum does
        return bool(device(data)["network_connection_status"] == expected)


@tau2_tool(_TOOLKIT)
class AssertInternetSpeed(UserTool):
    name = "assert_internet_speed"

    @staticmethod
    def invoke(data: Data, expected_speed: float, expected_desc: str | None = None) -> bool:
        speed, description = phone.speed_test(data)
        speed = speed or 0.0
        if expected_desc is None:
            return speed >= expected_speed
        return speed >= expected_speed and description.lower() == expected_desc.lower()


@tau2_tool(_TOOLKIT)
class AssertInternetNotExcellent(UserTool):
    name = "assert_internet_not_excellent"

    @staticmethod
    def invoke(data: Data) -> bool:
        return phone.speed_test(data)[1].lower() != "excellent"


USER_TOOLS: tuple[type[Tool], ...] = (
    CheckStatusBar,
    CheckNetworkStatus,
    CheckNetworkModePreference,
    SetNetworkModePreference,
    RunSpeedTest,
    ToggleAirplaneMode,
    CheckSimStatus,
    ReseatSimCard,
    ToggleData,
    ToggleRoaming,
    CheckDataRestrictionStatus,
    ToggleDataSaverMode,
    CheckApnSettings,
    SetApnSettings,
    ResetApnSettings,
    CheckWifiStatus,
    ToggleWifi,
    CheckWifiCallingStatus,
    ToggleWifiCalling,
    CheckVpnStatus,
    ConnectVpn,
    DisconnectVpn,
    CheckInstalledApps,
    CheckAppStatus,
    CheckAppPermissions,
    GrantAppPermission,
    CanSendMms,
    RebootDevice,
    CheckPaymentRequest,
    MakePayment,
)
USER_FUNCTIONS: tuple[type[Tool], ...] = (
    SetUserInfo,
    SetUserLocation,
    TurnRoamingOn,
    TurnRoamingOff,
    TurnDataOn,
    TurnDataOff,
    TurnDataSaverModeOn,
    TurnDataSaverModeOff,
    TurnAirplaneModeOn,
    TurnAirplaneModeOff,
    UnseatSimCard,
    LockSimCard,
    SimulateNetworkSearch,
    BreakApnSettings,
    BreakApnMmsSetting,
    SetWifiCalling,
    BreakVpn,
    RemoveAppPermission,
    AssertAirplaneModeStatus,
    AssertServiceStatus,
    AssertMobileDataStatus,
    AssertMobileRoamingStatus,
    AssertMobileDataSaverModeStatus,
    AssertInternetSpeed,
    AssertInternetNotExcellent,
    AssertCanSendMms,
    AssertMobileDataUsageExceeded,
)
