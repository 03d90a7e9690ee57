"""The words the desk's worlds are made of: companies, spacecraft, stations, targets, telemetry channels, names.

Company, spacecraft and station names are dealt out so that no two worlds share one: a caller names their satellite
or a station, and the desk's lists span every world's records.
"""

from __future__ import annotations

COMPANIES = [
    "Aldermoor Earth Imaging", "Brackenfield Geodata", "Cinderwell Maritime Watch", "Duskridge Agronomics",
    "Elmstead Climate Labs", "Foxhollow Survey Group", "Greyhaven Forestry Analytics", "Hollowmere Insurance Risk",
    "Ironbridge Mining Intelligence",
]  # fmt: skip
CONSTELLATIONS = [
    "Aurelia", "Borealis", "Cygna", "Dorado", "Eridan", "Fornax", "Gemmae", "Hydrus", "Indus", "Lyra", "Mensa",
    "Norma", "Octans", "Pavo", "Reticula", "Sculptra", "Tucana", "Volans",
]  # fmt: skip
STATIONS = [
    "Kiruna Fell", "Punta Arenas South", "Hartebeesthoek Ridge", "Svalbard Plateau", "Awarua Spit", "Fairbanks Hill",
    "Troll Nunatak", "Inuvik Delta", "Matera Hills", "Mingenew Plain", "Azores Santa Maria", "Hawaii Kokee",
]  # fmt: skip
TARGETS = [
    ("the Rhine delta", 140.0), ("the port of Valparaiso", 65.0), ("the Atacama salt flats", 310.0),
    ("the Okavango floodplain", 425.0), ("the Lofoten fishing grounds", 220.0), ("the Nile barrages", 90.0),
    ("the Mekong rice terraces", 180.0), ("the Bering ice edge", 520.0), ("the Sundarbans coast", 260.0),
    ("the Pilbara iron mines", 150.0), ("the Camargue wetlands", 75.0), ("the Andes glacier field", 340.0),
]  # fmt: skip
CHANNELS = {
    "battery_temp": ("battery temperature", "degC", -5.0, 35.0),
    "bus_voltage": ("bus voltage", "V", 26.0, 32.0),
    "wheel_speed": ("reaction wheel speed", "rpm", 0.0, 5200.0),
}
"""Each channel every spacecraft reports: how it is spoken of, its unit and its limits."""
DEBRIS = [
    "COSMOS 1408 DEB", "FENGYUN 1C DEB", "SL-16 R/B", "IRIDIUM 33 DEB", "CZ-6A DEB", "DELTA 1 R/B", "NOAA 17 DEB",
    "SL-8 R/B", "BREEZE-M DEB", "ATLAS 5 CENTAUR DEB", "METEOR 1-5", "THORAD AGENA D R/B",
]  # fmt: skip
FIRST = [
    "Amaru", "Birgitta", "Chidi", "Dagny", "Eamon", "Femi", "Greta", "Haruto", "Ines", "Joaquin", "Kaja", "Lorcan",
    "Mireille", "Nikhil", "Orla", "Paavo", "Quilla", "Rosalind", "Soren", "Tatiana", "Ulrich", "Valentina",
    "Wendell", "Ximena", "Yusuf", "Zelda",
]  # fmt: skip
LAST = [
    "Abernethy", "Bakshi", "Castellanos", "Delacroix", "Eriksen", "Fonseca", "Galbraith", "Hirvonen", "Ilunga",
    "Jovanovic", "Kowalczyk", "Lindqvist", "Mbeki", "Nakashima", "Ortega", "Pemberton", "Quaresma", "Rasmussen",
    "Szabo", "Thorsen", "Urquhart", "Vasquez", "Whitcombe", "Yamamoto",
]  # fmt: skip
WORDS = [
    "amber", "basalt", "cobalt", "drift", "ember", "fjord", "granite", "harbour", "indigo", "juniper", "kelp",
    "lantern", "meadow", "nimbus", "orchid", "pebble", "quartz", "raven", "saffron", "tundra", "umber", "violet",
    "willow", "zephyr",
]  # fmt: skip
"""What passphrases are made of: two words joined by a hyphen."""
