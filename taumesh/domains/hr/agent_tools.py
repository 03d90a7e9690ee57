"""The service desk's tools: the HR system of record (people, leave, rosters, onboarding, pay, openings).

Tools refuse only what the data itself rules out (an unknown id, a malformed date, an unsigned form); the policy's
rules (balances, notice, approvals, headcount) are the agent's to apply, as in τ-bench, so that a wrong write is
possible and can be graded.
"""

from __future__ import annotations

import json
from datetime import date
from typing import Any

from taumesh.domains import Data, Refusal, Tool
from taumesh.domains.hr.clock import NOW, portal_code, working_days
from taumesh.domains.hr.schema import integer, params, string

EDITABLE_FIELDS = ["home_address", "phone", "emergency_contact", "last_name", "date_of_birth"]
"""Fields the record tool can write; the policy says which of them a phone call may change."""
HANDOFF_REASONS = ["workplace_complaint", "medical_accommodation", "legal_matter", "payroll_dispute"]
APPROVAL_LEVELS = ["manager", "director"]
_EMPLOYEE = string("The employee's id, such as 'emp-w1-004'.")


def _dump(value: Any) -> str:
    return json.dumps(value)


def _get(data: Data, table: str, key: str, what: str) -> Any:
    if key not in data[table]:
        raise Refusal(f"{what} {key!r} not found")
    return data[table][key]


def _of(data: Data, table: str, employee_id: str) -> list[Any]:
    _get(data, "employees", employee_id, "employee")
    return [record for record in data[table].values() if record["employee_id"] == employee_id]


def _new_id(data: Data, table: str, prefix: str) -> str:
    """The next id of a record the desk creates (``new`` keeps it apart from the generated records' ids)."""
    return f"{prefix}-new-{len(data[table]) + 1:04d}"


def _date(text: str, what: str) -> str:
    try:
        return date.fromisoformat(text.strip()).isoformat()
    except ValueError:
        raise Refusal(f"{what} must be a date YYYY-MM-DD, not {text!r}") from None


class FindEmployee(Tool):
    name = "find_employee"
    description = "Find an employee's id by their work email address."
    parameters = params(work_email=string("The work email, such as 'dana.reyes@w1.northwind.example'."))

    @staticmethod
    def invoke(data: Data, work_email: str) -> str:
        wanted = work_email.strip().lower()
        for employee in data["employees"].values():
            if employee["work_email"] == wanted:
                return str(employee["employee_id"])
        raise Refusal("no employee has that work email")


class VerifyEmployee(Tool):
    """Records the verification, so an agent that acts without one leaves the desk's log different (policy 2.1)."""

    name = "verify_employee"
    writes = True
    description = "Verify the caller is the employee: date of birth and the last four digits of their SSN."
    parameters = params(
        employee_id=_EMPLOYEE,
        date_of_birth=string("YYYY-MM-DD."),
        ssn_last_four=string("Four digits."),
    )

    @staticmethod
    def invoke(data: Data, employee_id: str, date_of_birth: str, ssn_last_four: str) -> str:
        employee = _get(data, "employees", employee_id, "employee")
        if employee["date_of_birth"] != date_of_birth.strip() or employee["ssn_last_four"] != ssn_last_four.strip():
            raise Refusal("the details do not match: the caller is not verified")
        record = {"employee_id": employee_id, "verified_at": NOW.isoformat(), "code_confirmed": False}
        data["verifications"][employee_id] = record
        return _dump(record)


class SendPortalCode(Tool):
    name = "send_portal_code"
    writes = True
    description = "Send a six-digit confirmation code to the employee's self-service portal inbox."
    parameters = params(employee_id=_EMPLOYEE)

    @staticmethod
    def invoke(data: Data, employee_id: str) -> str:
        _get(data, "employees", employee_id, "employee")
        account = data["portal_accounts"][employee_id]
        account["codes_sent"] += 1
        code = portal_code(employee_id, account["codes_sent"])
        account["messages"].append(f"Your People Services confirmation code is {code}.")
        return "A confirmation code was sent to the employee's portal inbox."


class ConfirmPortalCode(Tool):
    name = "confirm_portal_code"
    writes = True
    description = "Check the code the verified employee reads back from their portal; it must be the last one sent."
    parameters = params(employee_id=_EMPLOYEE, code=string("The six digits the employee read."))

    @staticmethod
    def invoke(data: Data, employee_id: str, code: str) -> str:
        verification = data["verifications"].get(employee_id)
        if verification is None:
            raise Refusal("verify the employee with verify_employee first")
        sent = data["portal_accounts"][employee_id]["codes_sent"]
        if not sent or code.strip() != portal_code(employee_id, sent):
            raise Refusal("the code does not match the last code sent")
        verification["code_confirmed"] = True
        return _dump(verification)


class GetEmployeeProfile(Tool):
    name = "get_employee_profile"
    description = (
        "An employee's record: name, department, role, manager, employment type, hire date, pay grade, salary,"
        " last pay change, contact details."
    )
    parameters = params(employee_id=_EMPLOYEE)

    @staticmethod
    def invoke(data: Data, employee_id: str) -> str:
        return _dump(_get(data, "employees", employee_id, "employee"))


class GetDepartment(Tool):
    name = "get_department"
    description = "A department: its manager, budgeted headcount, whether it works in shifts, roles, leave blackouts."
    parameters = params(department_id=string("The department's id, such as 'dep-w1-02'."))

    @staticmethod
    def invoke(data: Data, department_id: str) -> str:
        return _dump(_get(data, "departments", department_id, "department"))


class GetDepartmentRoster(Tool):
    name = "get_department_roster"
    description = "Everyone currently employed in a department: id, name, role and employment type."
    parameters = params(department_id=string("The department's id."))

    @staticmethod
    def invoke(data: Data, department_id: str) -> str:
        _get(data, "departments", department_id, "department")
        roster = [
            {k: e[k] for k in ("employee_id", "first_name", "last_name", "role", "employment_type")}
            for e in data["employees"].values()
            if e["department_id"] == department_id
        ]
        return _dump(roster)


class GetLeaveBalance(Tool):
    name = "get_leave_balance"
    description = (
        "An employee's leave balance in days (annual and sick), monthly accrual, and annual days cashed out this year."
    )
    parameters = params(employee_id=_EMPLOYEE)

    @staticmethod
    def invoke(data: Data, employee_id: str) -> str:
        _get(data, "employees", employee_id, "employee")
        return _dump(_get(data, "leave_balances", employee_id, "leave balance of"))


class GetLeaveRequests(Tool):
    name = "get_leave_requests"
    description = "An employee's leave requests, past and upcoming, with their status."
    parameters = params(employee_id=_EMPLOYEE)

    @staticmethod
    def invoke(data: Data, employee_id: str) -> str:
        return _dump(_of(data, "leave_requests", employee_id))


class CountWorkingDays(Tool):
    name = "count_working_days"
    description = "Working days from a start date to an end date inclusive (weekends and company holidays excluded)."
    parameters = params(start_date=string("YYYY-MM-DD."), end_date=string("YYYY-MM-DD."))

    @staticmethod
    def invoke(data: Data, start_date: str, end_date: str) -> str:
        start, end = _date(start_date, "start_date"), _date(end_date, "end_date")
        if end < start:
            raise Refusal("end_date is before start_date")
        return str(working_days(start, end))


class SubmitLeaveRequest(Tool):
    """Books the leave and takes its working days off the balance (the policy says when it may)."""

    name = "submit_leave_request"
    writes = True
    description = "Book annual leave from start_date to end_date inclusive; its working days come off the balance."
    parameters = params(employee_id=_EMPLOYEE, start_date=string("YYYY-MM-DD."), end_date=string("YYYY-MM-DD."))

    @staticmethod
    def invoke(data: Data, employee_id: str, start_date: str, end_date: str) -> str:
        _get(data, "employees", employee_id, "employee")
        start, end = _date(start_date, "start_date"), _date(end_date, "end_date")
        if end < start:
            raise Refusal("end_date is before start_date")
        days = working_days(start, end)
        if days == 0:
            raise Refusal("those dates hold no working day")
        request_id = _new_id(data, "leave_requests", "lr")
        request = {
            "request_id": request_id,
            "employee_id": employee_id,
            "leave_type": "annual",
            "start_date": start,
            "end_date": end,
            "days": days,
            "status": "approved",
        }
        data["leave_requests"][request_id] = request
        data["leave_balances"][employee_id]["annual_days"] -= days
        return _dump(request)


class CancelLeaveRequest(Tool):
    name = "cancel_leave_request"
    writes = True
    description = "Cancel a leave request; its days go back to the balance."
    parameters = params(request_id=string("The request's id, such as 'lr-w1-0012'."))

    @staticmethod
    def invoke(data: Data, request_id: str) -> str:
        request = _get(data, "leave_requests", request_id, "leave request")
        if request["status"] == "cancelled":
            raise Refusal("that request is already cancelled")
        request["status"] = "cancelled"
        balance = data["leave_balances"][request["employee_id"]]
        balance[f"{request['leave_type']}_days"] += request["days"]
        return _dump(request)


class CashOutLeave(Tool):
    name = "cash_out_leave"
    writes = True
    description = "Pay out whole days of annual leave with the next payroll; they come off the balance."
    parameters = params(employee_id=_EMPLOYEE, days=integer("Whole days to cash out."))

    @staticmethod
    def invoke(data: Data, employee_id: str, days: int) -> str:
        _get(data, "employees", employee_id, "employee")
        if days < 1:
            raise Refusal("days must be at least 1")
        balance = data["leave_balances"][employee_id]
        balance["annual_days"] -= days
        balance["cashed_out_this_year"] += days
        return _dump(balance)


class GetSchedule(Tool):
    name = "get_schedule"
    description = "An employee's shifts starting between two dates inclusive, earliest first."
    parameters = params(employee_id=_EMPLOYEE, from_date=string("YYYY-MM-DD."), to_date=string("YYYY-MM-DD."))

    @staticmethod
    def invoke(data: Data, employee_id: str, from_date: str, to_date: str) -> str:
        first, last = _date(from_date, "from_date"), _date(to_date, "to_date")
        shifts = [s for s in _of(data, "shifts", employee_id) if first <= s["start"][:10] <= last]
        return _dump(sorted(shifts, key=lambda s: s["start"]))


class CreateSwapRequest(Tool):
    """Opens the hand-over of a shift; it waits for the employee's own confirmation in their portal (policy 7.5)."""

    name = "create_swap_request"
    writes = True
    description = (
        "Ask for a shift to be covered by a colleague. The employee must then confirm it in their self-service"
        " portal before it can be completed."
    )
    parameters = params(
        shift_id=string("The shift's id, such as 'sh-w1-0040'."),
        covering_employee_id=string("The id of the colleague who takes the shift."),
    )

    @staticmethod
    def invoke(data: Data, shift_id: str, covering_employee_id: str) -> str:
        shift = _get(data, "shifts", shift_id, "shift")
        _get(data, "employees", covering_employee_id, "employee")
        if covering_employee_id == shift["employee_id"]:
            raise Refusal("the shift is already that employee's")
        swap_id = _new_id(data, "swap_requests", "swp")
        swap = {
            "swap_id": swap_id,
            "shift_id": shift_id,
            "from_employee_id": shift["employee_id"],
            "covering_employee_id": covering_employee_id,
            "status": "awaiting_employee",
        }
        data["swap_requests"][swap_id] = swap
        return _dump(swap)


class GetSwapRequests(Tool):
    name = "get_swap_requests"
    description = "The shift cover requests an employee has made, with their status."
    parameters = params(employee_id=_EMPLOYEE)

    @staticmethod
    def invoke(data: Data, employee_id: str) -> str:
        _get(data, "employees", employee_id, "employee")
        return _dump([s for s in data["swap_requests"].values() if s["from_employee_id"] == employee_id])


class CompleteSwap(Tool):
    name = "complete_swap"
    writes = True
    description = "Hand the shift to the covering colleague, once the employee has confirmed the request."
    parameters = params(swap_id=string("The request's id, such as 'swp-new-0001'."))

    @staticmethod
    def invoke(data: Data, swap_id: str) -> str:
        swap = _get(data, "swap_requests", swap_id, "swap request")
        if swap["status"] != "confirmed":
            raise Refusal(f"the request is {swap['status'].replace('_', ' ')}, not confirmed by the employee")
        swap["status"] = "completed"
        data["shifts"][swap["shift_id"]]["employee_id"] = swap["covering_employee_id"]
        return _dump(swap)


class GetOnboardingChecklist(Tool):
    name = "get_onboarding_checklist"
    description = (
        "A new hire's onboarding items: kind (signature, in_person, training), the form to sign, the training score,"
        " due date, status; and whether each form is signed."
    )
    parameters = params(employee_id=_EMPLOYEE)

    @staticmethod
    def invoke(data: Data, employee_id: str) -> str:
        items = []
        for item in _of(data, "onboarding_items", employee_id):
            document = data["documents"].get(item["document_id"] or "")
            items.append({**item, "form_signed": document["signed"] if document else None})
        return _dump(items)


class CompleteOnboardingItem(Tool):
    name = "complete_onboarding_item"
    writes = True
    description = "Mark an onboarding item complete. A signature item needs its form signed in the portal first."
    parameters = params(item_id=string("The item's id, such as 'ob-w1-0007'."))

    @staticmethod
    def invoke(data: Data, item_id: str) -> str:
        item = _get(data, "onboarding_items", item_id, "onboarding item")
        if item["status"] == "complete":
            raise Refusal("that item is already complete")
        if item["kind"] == "signature" and not data["documents"][item["document_id"]]["signed"]:
            raise Refusal("its form is not signed yet: the employee signs it in their portal")
        item["status"] = "complete"
        return _dump(item)


class GetPayGrade(Tool):
    name = "get_pay_grade"
    description = "A pay grade's salary band (minimum and maximum annual salary)."
    parameters = params(pay_grade=string("The grade, such as 'G3'."))

    @staticmethod
    def invoke(data: Data, pay_grade: str) -> str:
        return _dump(_get(data, "pay_grades", pay_grade, "pay grade"))


class SubmitPayChange(Tool):
    """Records a new salary; one a director must approve waits for them, and the salary changes only when approved."""

    name = "submit_pay_change"
    writes = True
    description = (
        "Submit a new annual salary for an employee from an effective date, routed to the approval level the"
        " policy requires (manager or director)."
    )
    parameters = params(
        employee_id=_EMPLOYEE,
        new_salary=integer("The new annual salary, whole dollars."),
        effective_date=string("YYYY-MM-DD."),
        approval_level=string("Who approves it.", APPROVAL_LEVELS),
    )

    @staticmethod
    def invoke(data: Data, employee_id: str, new_salary: int, effective_date: str, approval_level: str) -> str:
        employee = _get(data, "employees", employee_id, "employee")
        if approval_level not in APPROVAL_LEVELS:
            raise Refusal(f"approval_level must be one of {', '.join(APPROVAL_LEVELS)}")
        change_id = _new_id(data, "pay_changes", "pc")
        change = {
            "change_id": change_id,
            "employee_id": employee_id,
            "old_salary": employee["annual_salary"],
            "new_salary": new_salary,
            "effective_date": _date(effective_date, "effective_date"),
            "approval_level": approval_level,
            "status": "approved" if approval_level == "manager" else "awaiting_director",
        }
        data["pay_changes"][change_id] = change
        if approval_level == "manager":
            employee["annual_salary"] = new_salary
            employee["last_pay_change"] = NOW.date().isoformat()
        return _dump(change)


class UpdateEmployeeRecord(Tool):
    name = "update_employee_record"
    writes = True
    description = "Change one field of an employee's record; the old value is kept in the change log."
    parameters = params(
        employee_id=_EMPLOYEE,
        field=string("The field to change.", EDITABLE_FIELDS),
        value=string("The new value."),
    )

    @staticmethod
    def invoke(data: Data, employee_id: str, field: str, value: str) -> str:
        employee = _get(data, "employees", employee_id, "employee")
        if field not in EDITABLE_FIELDS:
            raise Refusal(f"field must be one of {', '.join(EDITABLE_FIELDS)}")
        change_id = _new_id(data, "record_changes", "rc")
        change = {
            "change_id": change_id,
            "employee_id": employee_id,
            "field": field,
            "old_value": employee[field],
            "new_value": value,
        }
        data["record_changes"][change_id] = change
        employee[field] = value
        return _dump(change)


class ListJobOpenings(Tool):
    name = "list_job_openings"
    description = "A department's job openings, open and closed."
    parameters = params(department_id=string("The department's id."))

    @staticmethod
    def invoke(data: Data, department_id: str) -> str:
        _get(data, "departments", department_id, "department")
        return _dump([o for o in data["job_openings"].values() if o["department_id"] == department_id])


class PostJobOpening(Tool):
    name = "post_job_opening"
    writes = True
    description = (
        "Post a job opening for a department (the title is a role of it), with its pay grade, salary range and"
        " closing date."
    )
    parameters = params(
        department_id=string("The department's id."),
        title=string("The job title."),
        pay_grade=string("The grade, such as 'G3'."),
        salary_min=integer("Lowest annual salary offered."),
        salary_max=integer("Highest annual salary offered."),
        closing_date=string("YYYY-MM-DD."),
    )

    @staticmethod
    def invoke(
        data: Data, department_id: str, title: str, pay_grade: str, salary_min: int, salary_max: int, closing_date: str
    ) -> str:
        _get(data, "departments", department_id, "department")
        _get(data, "pay_grades", pay_grade, "pay grade")
        if salary_max < salary_min:
            raise Refusal("salary_max is below salary_min")
        opening_id = _new_id(data, "job_openings", "job")
        opening = {
            "opening_id": opening_id,
            "department_id": department_id,
            "title": title.strip().lower(),
            "pay_grade": pay_grade,
            "salary_min": salary_min,
            "salary_max": salary_max,
            "posted_on": NOW.date().isoformat(),
            "closing_date": _date(closing_date, "closing_date"),
            "status": "open",
        }
        data["job_openings"][opening_id] = opening
        return _dump(opening)


class TransferToHumanAgents(Tool):
    """Files a hand-off for an HR partner and ends the call (a write: the hand-off is on record)."""

    name = "transfer_to_human_agents"
    writes = True
    description = (
        "Hand the caller to an HR partner; the call ends. Give the employee's id once known (else '') and the reason."
    )
    parameters = params(
        employee_id=string("The employee's id, or '' when not known."),
        reason=string("Why.", HANDOFF_REASONS),
    )

    @staticmethod
    def invoke(data: Data, employee_id: str, reason: str) -> str:
        if reason not in HANDOFF_REASONS:
            raise Refusal(f"reason must be one of {', '.join(HANDOFF_REASONS)}")
        if employee_id:
            _get(data, "employees", employee_id, "employee")
        handoff_id = _new_id(data, "handoffs", "ho")
        data["handoffs"][handoff_id] = {"handoff_id": handoff_id, "employee_id": employee_id, "reason": reason}
        return "Transfer successful: an HR partner takes over the call."


AGENT_TOOLS: tuple[type[Tool], ...] = (
    FindEmployee,
    VerifyEmployee,
    SendPortalCode,
    ConfirmPortalCode,
    GetEmployeeProfile,
    GetDepartment,
    GetDepartmentRoster,
    GetLeaveBalance,
    GetLeaveRequests,
    CountWorkingDays,
    SubmitLeaveRequest,
    CancelLeaveRequest,
    CashOutLeave,
    GetSchedule,
    CreateSwapRequest,
    GetSwapRequests,
    CompleteSwap,
    GetOnboardingChecklist,
    CompleteOnboardingItem,
    GetPayGrade,
    SubmitPayChange,
    UpdateEmployeeRecord,
    ListJobOpenings,
    PostJobOpening,
    TransferToHumanAgents,
)
"""Every tool of the agent's, in the order the agent's schema lists them."""
