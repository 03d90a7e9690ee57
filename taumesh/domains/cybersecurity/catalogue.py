"""The words the desk's worlds are made of: business units, people, host names, vulnerabilities, detection rules.

Names are dealt out so that no two worlds share a person or a unit: a caller is found by their email, and the desk's
lookups span every world's records.
"""

from __future__ import annotations

UNITS = [
    "Treasury", "Claims Processing", "Retail Lending", "Group Marketing", "Actuarial Modelling", "Facilities",
    "Procurement", "Wealth Advisory", "Legal Counsel",
]  # fmt: skip
FIRST = [
    "Adaeze", "Bastian", "Corentin", "Delphine", "Elodie", "Florian", "Gunnhild", "Hamza", "Isolde", "Jarek",
    "Keziah", "Leander", "Marisol", "Nnamdi", "Ottilie", "Priya", "Radovan", "Saoirse", "Tobias", "Ulla",
    "Vikram", "Wilhelmina", "Xavier", "Yara",
]  # fmt: skip
LAST = [
    "Achterberg", "Brennan", "Cavanagh", "Draskovic", "Engstrom", "Fairweather", "Gallardo", "Holmqvist",
    "Iwasaki", "Jablonski", "Kettering", "Lachance", "Moreau", "Nwachukwu", "Okonkwo", "Pellegrini",
    "Quinlan", "Ravensworth", "Stavros", "Tremblay",
]  # fmt: skip
HOST_WORDS = [
    "alder", "birch", "cedar", "dogwood", "elm", "fir", "ginkgo", "hazel", "ironwood", "juniper", "larch",
    "maple", "oak", "pine", "rowan", "sequoia", "spruce", "tamarack", "walnut", "yew",
]  # fmt: skip
WEAKNESSES = [
    "OpenSSL certificate parsing overflow", "Remote desktop pre-authentication flaw", "Browser sandbox escape",
    "PDF reader heap corruption", "VPN client privilege escalation", "Print spooler code execution",
    "SMB signing not enforced", "Outdated TLS protocol enabled", "Database listener information leak",
    "Web server directory traversal", "Java deserialisation flaw", "Kernel race condition",
]  # fmt: skip
CVSS_SCORES = [2.4, 3.1, 3.7, 4.3, 5.0, 5.4, 6.1, 6.5, 7.2, 7.5, 8.1, 8.8, 9.1, 9.8]
RULES = [
    "impossible travel sign-in", "beaconing to known command server", "mass file rename", "credential dumping tool",
    "suspicious PowerShell download", "outbound transfer over quota", "new admin account created",
    "macro spawned a shell",
]  # fmt: skip
PLAYBOOKS = {
    "phishing": [
        "Collect the reported message and its headers.",
        "Run an endpoint check on the reporter's device.",
        "Reset the reporter's sessions if credentials were entered.",
        "Isolate the device only when the incident is rated high or above.",
    ],
    "malware": [
        "Confirm the detection on the endpoint.",
        "Isolate every affected asset rated high or above.",
        "Reimage or clean the asset, then run a clean endpoint check.",
        "Release the asset once the incident is closed.",
    ],
    "unauthorised_access": [
        "Suspend the affected account.",
        "Review sign-in alerts for the account's devices.",
        "Isolate affected assets when the incident is rated high or above.",
        "Re-bind the authenticator only after the incident is closed.",
    ],
    "data_exfiltration": [
        "Preserve the transfer logs.",
        "Isolate the source asset.",
        "Notify legal counsel through the incident response team.",
        "Close only once every alert is resolved.",
    ],
}
"""Each category's containment playbook (the same reference in every world)."""
