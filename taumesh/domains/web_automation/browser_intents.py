"""The reference solvers of acting in a site as the member: submitting a form and linking their account.

Both need what only the member can see (dual control, 2.4): the token a form's CAPTCHA gives in their own browser,
the one-time code their authenticator shows. The solver reads the site's terms or forms, as the agent must to know
the policy's answer (7.2, 8.1).
"""

from __future__ import annotations

import random
from typing import Any

from taumesh.domains.factory import World, act
from taumesh.domains.web_automation.clock import captcha_token, confirmation, login_code
from taumesh.domains.web_automation.drafts import Draft, Member

NO_AUTOMATED_SIGN_IN = (
    "automated sign-in|automated sign in|automated login|automated log-in|automatic sign-in|does not allow"
    "|doesn't allow|not allow"
)


def submit_form(world: World, member: Member, form: dict[str, Any], rng: random.Random, manner: str) -> Draft:
    """Submit a form for the units asked, at most the form's maximum (7.2), and say its confirmation (7.4)."""
    site = world["sites"][form["site_id"]]
    most = form["max_quantity"]
    asked = rng.choice([max(1, most // 2), most - 1, most, most + rng.choice([5, 10, 20])])
    quantity = min(asked, most)
    token = captcha_token(form["form_id"]) if form["captcha"] else ""
    draft = Draft(world, member, manner, intent="submit_form", dual=form["captcha"]).identify().cite("7.1", "7.2")
    draft.do(act("find_site", host=site["host"]), act("list_forms", site_id=site["site_id"]))
    draft.goal.append(
        f"You want the '{form['title']}' form on {site['host']} submitted for {asked} units. If the form does not"
        " take that many, you take the most it accepts. You want the confirmation number the site gives."
    )
    if form["captcha"]:
        draft.goal.append(
            "Your own browser can open the form and show its CAPTCHA; solve it when the agent asks you to and read"
            " out the token."
        )
        draft.cite("2.4", "7.3").do(act("solve_captcha", "user", form_id=form["form_id"]))

    def submit(units: int) -> Any:
        return act("submit_form", form_id=form["form_id"], member_id=draft.mid, quantity=units, captcha_token=token)

    if quantity != asked:
        draft.trap(f"7.2: '{form['title']}' takes at most {most} units; {asked} were asked", submit(asked)).cite("1.3")
    draft.cite("1.4", "7.4").do(submit(quantity))
    return draft.say("text", confirmation(form["form_id"], draft.mid, quantity), "7.4: the site's confirmation")


def connect_account(world: World, member: Member, site: dict[str, Any], rng: random.Random, manner: str) -> Draft:
    """Link the member's account with their authenticator's code (8.2); only where the terms allow it (8.1)."""
    key = site["site_id"]
    draft = Draft(world, member, manner, intent="connect_account", dual=site["allows_automated_sign_in"]).identify()
    draft.cite("8.1").do(act("find_site", host=site["host"]), act("get_site", site_id=key))
    draft.goal.append(
        f"You want your own account on {site['host']} linked to the desk's browser, so that the desk can act there"
        " for you. Your authenticator app shows sign-in codes for your accounts; read one out when the agent asks."
        " If the account cannot be linked, you want to know why."
    )
    link = act("link_account", member_id=draft.mid, site_id=key, login_code=login_code(key))
    if not site["allows_automated_sign_in"]:
        draft.trap(f"8.1: the terms of {site['host']} do not allow automated sign-in", link).cite("1.3")
        return draft.say("text", NO_AUTOMATED_SIGN_IN, "8.1: the site's terms refuse automated sign-in")
    draft.cite("2.4", "8.2", "1.4").do(act("show_login_code", "user", site_id=key))
    return draft.do(link)
