"""The word lists the world is drawn from: people, streets, neighborhoods, lenders, employers. Invented here."""

from __future__ import annotations

FIRST = [
    "Amara", "Bennett", "Calla", "Dorian", "Elspeth", "Farid", "Greer", "Hollis", "Ines", "Jasper", "Kaia", "Linus",
    "Maren", "Nikhil", "Odette", "Percy", "Quinn", "Rosalind", "Soren", "Talia", "Ulric", "Vesna", "Wendell", "Xiomara",
    "Yusuf", "Zelda", "Anouk", "Bram", "Cosima", "Dashiell", "Esme", "Florian", "Gideon", "Hedda", "Ivo", "Juno",
]  # fmt: skip
LAST = [
    "Abernathy", "Brightwater", "Castellano", "Delacroix", "Eastwood", "Fairbairn", "Galloway", "Hargreave",
    "Ibarra", "Jankowski", "Kowalczyk", "Lindqvist", "Montague", "Nakagawa", "Okonkwo", "Pemberton", "Quintero",
    "Ravensworth", "Szabo", "Thistlewood", "Underhill", "Valdivia", "Whitcombe", "Yamaguchi", "Zeller", "Ashdown",
    "Beaumont", "Corrigan", "Drummond", "Ellery",
]  # fmt: skip
STREETS = [
    "Alder Lane", "Birchwood Court", "Cobblestone Way", "Dovecote Road", "Elmstead Avenue", "Foxglove Drive",
    "Granary Street", "Heron Bend", "Ironbridge Road", "Juniper Row", "Kestrel Place", "Larkspur Terrace",
    "Millrace Street", "Nettlebed Lane", "Orchard Vale", "Pinecrest Road", "Quarry Hill", "Riverbank Walk",
    "Saddler Street", "Tanners Close", "Upland Avenue", "Willowmere Drive",
]  # fmt: skip
NEIGHBORHOODS = ["Harbor Point", "Old Mill", "Westfield", "Cedar Heights", "Lakeshore", "Brickyard", "North Commons"]
LENDERS = ["Keystone Mortgage", "Bluewater Lending", "Granite Federal", "Summit Home Loans", "Meridian Credit Union"]
PASSWORDS = ["saltmarsh", "lanternfly", "copperkey", "tidepool", "windvane", "hearthstone", "bluefinch", "moorland"]
