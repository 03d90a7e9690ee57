"""The member's own tools (``side = "user"``): their browser, where they solve a CAPTCHA, and their authenticator.

The desk cannot see either: a CAPTCHA token or a sign-in code reaches the agent only when the member reads it out.
Neither tool writes, so a member who looks around changes no grade.
"""

from __future__ import annotations

from taumesh.domains import Data, Refusal, Tool
from taumesh.domains.web_automation.clock import captcha_token, login_code
from taumesh.domains.web_automation.records import fetch, params, text


class MemberTool(Tool):
    side = "user"


class SolveCaptcha(MemberTool):
    name = "solve_captcha"
    description = "Open a site's form in your own browser, solve its CAPTCHA, and see the token it gives."
    parameters = params(form_id=text("The form's id, as the agent gives it."))

    @staticmethod
    def invoke(data: Data, form_id: str) -> str:
        form = fetch(data, "forms", form_id.strip(), "form")
        if not form["captcha"]:
            raise Refusal("this form shows no CAPTCHA")
        return f"CAPTCHA solved. Token: {captcha_token(form['form_id'])}"


class ShowLoginCode(MemberTool):
    name = "show_login_code"
    description = "Open your authenticator app and see the one-time sign-in code for your account on a site."
    parameters = params(site_id=text("The site's id, as the agent gives it."))

    @staticmethod
    def invoke(data: Data, site_id: str) -> str:
        site = fetch(data, "sites", site_id.strip(), "site")
        return f"Sign-in code for {site['host']}: {login_code(site['site_id'])}"


USER_TOOLS: tuple[type[Tool], ...] = (SolveCaptcha, ShowLoginCode)
