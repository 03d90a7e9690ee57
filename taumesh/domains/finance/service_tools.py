"""The desk's servicing tools: withdrawals, ISA payments, risk profiles, models, reports, alerts and referrals.

Each write records what it did, so a change made twice (a profile recorded over another, a model switched back)
leaves a trace the reward sees. The policy's limits (pension age, the ISA allowance, report start dates, alert
levels) are the agent's to keep; the tools refuse only what the books make impossible.
"""

from __future__ import annotations

from taumesh.domains import Data, Refusal, Tool
from taumesh.domains.finance.clock import PRICE_DATES, TODAY, cents, price
from taumesh.domains.finance.lookup_tools import ACCOUNT, CLIENT, TICKER
from taumesh.domains.finance.records import dump, holdings_of, next_id, number, params, record, text, world_tag

PROFILES = ["cautious", "balanced", "growth", "adventurous"]


def _positive(amount: float) -> float:
    if amount <= 0:
        raise Refusal("an amount is more than 0")
    return cents(amount)


class RequestWithdrawal(Tool):
    name = "request_withdrawal"
    writes = True
    description = "Pay cash from an account to the client's bank account on file. Returns the withdrawal."
    parameters = params(account_id=ACCOUNT, amount=number("The amount in pounds."))

    @staticmethod
    def invoke(data: Data, account_id: str, amount: float) -> str:
        account = record(data, "accounts", account_id, "account")
        amount = _positive(amount)
        if amount > account["cash"]:
            raise Refusal("the account's cash is less than that")
        account["cash"] = cents(account["cash"] - amount)
        withdrawal_id = next_id(data, "withdrawals", "wd", world_tag(account_id))
        withdrawal = {
            "withdrawal_id": withdrawal_id,
            "account_id": account_id,
            "amount": amount,
            "paid_to_last4": data["clients"][account["client_id"]]["bank_last4"],
            "requested_on": TODAY.isoformat(),
        }
        data["withdrawals"][withdrawal_id] = withdrawal
        return dump({**withdrawal, "cash_left": account["cash"]})


class TransferCash(Tool):
    name = "transfer_cash"
    writes = True
    description = (
        "Move cash between two accounts of the same client; a payment into an ISA counts towards this tax year's"
        " payments in. Returns both accounts."
    )
    parameters = params(
        from_account_id=text("The account the cash leaves."),
        to_account_id=text("The account the cash goes to."),
        amount=number("The amount in pounds."),
    )

    @staticmethod
    def invoke(data: Data, from_account_id: str, to_account_id: str, amount: float) -> str:
        source = record(data, "accounts", from_account_id, "account")
        target = record(data, "accounts", to_account_id, "account")
        amount = _positive(amount)
        if source["client_id"] != target["client_id"] or from_account_id == to_account_id:
            raise Refusal("cash moves only between two different accounts of one client")
        if target["kind"] == "pension":
            raise Refusal("the desk does not take pension contributions")
        if amount > source["cash"]:
            raise Refusal("the account's cash is less than that")
        source["cash"] = cents(source["cash"] - amount)
        target["cash"] = cents(target["cash"] + amount)
        if target["kind"] == "isa":
            target["isa_paid_in"] = cents(target["isa_paid_in"] + amount)
        transfer_id = next_id(data, "cash_transfers", "ct", world_tag(from_account_id))
        data["cash_transfers"][transfer_id] = {
            "transfer_id": transfer_id,
            "from_account_id": from_account_id,
            "to_account_id": to_account_id,
            "amount": amount,
            "made_on": TODAY.isoformat(),
        }
        return dump({"from": source, "to": target})


class RecordRiskProfile(Tool):
    name = "record_risk_profile"
    writes = True
    description = (
        "Record the client's risk profile as reviewed today: it joins their profile history with the score of the"
        " questionnaire they submitted, which is then cleared."
    )
    parameters = params(client_id=CLIENT, profile=text("The profile.", PROFILES))

    @staticmethod
    def invoke(data: Data, client_id: str, profile: str) -> str:
        client = record(data, "clients", client_id, "client")
        if profile not in PROFILES:
            raise Refusal(f"a profile is one of {', '.join(PROFILES)}")
        client["risk_profile"] = profile
        client["profile_reviewed"] = TODAY.isoformat()
        score = client["questionnaire_score"]
        client["profile_history"].append({"profile": profile, "recorded_on": TODAY.isoformat(), "score": score})
        client["questionnaire_score"] = None
        return dump({k: client[k] for k in ("client_id", "risk_profile", "profile_reviewed", "profile_history")})


class SetAccountModel(Tool):
    name = "set_account_model"
    writes = True
    description = "Have an account follow a model portfolio from now on (its next rebalance moves it there)."
    parameters = params(account_id=ACCOUNT, model_id=text("The model portfolio's id, such as 'mp-balanced'."))

    @staticmethod
    def invoke(data: Data, account_id: str, model_id: str) -> str:
        account = record(data, "accounts", account_id, "account")
        record(data, "model_portfolios", model_id, "model portfolio")
        account["model_id"] = model_id
        account["model_changes"] += 1
        return dump(account)


class SendPerformanceReport(Tool):
    name = "send_performance_report"
    writes = True
    description = (
        "Email the client a report of how the account's current holdings performed from a price date to the latest"
        " close: start and end values and the return in percent. Returns the report."
    )
    parameters = params(
        account_id=ACCOUNT, start_date=text(f"A price date to start from: one of {', '.join(PRICE_DATES[:-1])}.")
    )

    @staticmethod
    def invoke(data: Data, account_id: str, start_date: str) -> str:
        account = record(data, "accounts", account_id, "account")
        if start_date not in PRICE_DATES[:-1]:
            raise Refusal(f"a report starts on a month-end price date: {', '.join(PRICE_DATES[:-1])}")
        holdings = holdings_of(data, account_id)
        start = cents(sum(h["units"] * price(data["securities"][h["ticker"]], start_date) for h in holdings))
        end = cents(sum(h["units"] * price(data["securities"][h["ticker"]]) for h in holdings))
        if not start:
            raise Refusal("the account holds nothing to report on")
        report_id = next_id(data, "reports", "rp", world_tag(account_id))
        report = {
            "report_id": report_id,
            "account_id": account_id,
            "start_date": start_date,
            "end_date": PRICE_DATES[-1],
            "start_value": start,
            "end_value": end,
            "return_percent": round((end / start - 1) * 100, 2),
            "emailed_to": data["clients"][account["client_id"]]["email"],
        }
        data["reports"][report_id] = report
        return dump(report)


class SetPriceAlert(Tool):
    name = "set_price_alert"
    writes = True
    description = "Alert the client when a security's close goes above or below a level. Returns the alert."
    parameters = params(
        client_id=CLIENT,
        ticker=TICKER,
        direction=text("Whether the alert fires above or below the level.", ["above", "below"]),
        level=number("The price level, in pounds."),
    )

    @staticmethod
    def invoke(data: Data, client_id: str, ticker: str, direction: str, level: float) -> str:
        record(data, "clients", client_id, "client")
        record(data, "securities", ticker, "security")
        if direction not in ("above", "below"):
            raise Refusal("direction is above or below")
        alert_id = next_id(data, "alerts", "al", world_tag(client_id))
        alert = {"alert_id": alert_id, "client_id": client_id, "ticker": ticker, "direction": direction}
        data["alerts"][alert_id] = {**alert, "level": _positive(level)}
        return dump(data["alerts"][alert_id])


class TransferToHumanAgents(Tool):
    name = "transfer_to_human_agents"
    writes = True
    description = "Refer the client to a wealth manager, with the reason; this ends the conversation."
    parameters = params(
        client_id=CLIENT,
        reason=text("Why.", ["large_withdrawal", "complaint", "other"]),
    )

    @staticmethod
    def invoke(data: Data, client_id: str, reason: str) -> str:
        record(data, "clients", client_id, "client")
        referral_id = next_id(data, "referrals", "rf", world_tag(client_id))
        data["referrals"][referral_id] = {
            "referral_id": referral_id,
            "client_id": client_id,
            "reason": reason,
            "raised_on": TODAY.isoformat(),
        }
        return "A wealth manager will take over. Transfer successful."


SERVICE_TOOLS = (
    RequestWithdrawal,
    TransferCash,
    RecordRiskProfile,
    SetAccountModel,
    SendPerformanceReport,
    SetPriceAlert,
    TransferToHumanAgents,
)
