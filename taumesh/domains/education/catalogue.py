"""The words the university's worlds are made of: departments and their courses, tutors, people's names, file names.

Departments are dealt out so that no two worlds share one: a student names a course by its code, and the desk's
course search spans every world's records.
"""

from __future__ import annotations

DEPARTMENTS: list[tuple[str, str, list[str]]] = [
    ("History", "HIST", ["Medieval Trade Routes", "The Atlantic Revolutions", "Empires of the Steppe",
                         "Archives and Evidence", "The Industrial City", "Memory and Monuments",
                         "Early Modern Print", "Histories of Medicine", "The Cold War in Asia", "Oral History"]),
    ("Marine Biology", "MBIO", ["Coastal Ecosystems", "Plankton Dynamics", "Reef Conservation",
                                "Marine Mammal Behaviour", "Deep-Sea Biology", "Fisheries Science",
                                "Estuaries and Tides", "Field Methods at Sea", "Ocean Chemistry for Biologists",
                                "Seabird Ecology"]),
    ("Linguistics", "LING", ["Sounds of Language", "Syntax and Structure", "Language Acquisition",
                             "Sociolinguistics", "Semantics", "Field Linguistics", "Historical Linguistics",
                             "Corpus Methods", "Language and the Brain", "Endangered Languages"]),
    ("Civil Engineering", "CIVE", ["Statics", "Soil Mechanics", "Hydraulics", "Structural Analysis",
                                   "Surveying Practice", "Transport Planning", "Concrete Design",
                                   "Water Treatment", "Construction Management", "Bridges"]),
    ("Philosophy", "PHIL", ["Reasoning and Argument", "Ethics of Care", "Philosophy of Mind",
                            "Early Modern Philosophy", "Logic", "Political Philosophy", "Aesthetics",
                            "Philosophy of Science", "Epistemology", "Ancient Philosophy"]),
    ("Statistics", "STAT", ["Probability", "Regression Modelling", "Bayesian Inference", "Survey Sampling",
                            "Time Series", "Experimental Design", "Statistical Computing",
                            "Multivariate Analysis", "Nonparametric Methods", "Statistical Learning"]),
]  # fmt: skip
"""(department, code prefix, course titles); each world takes two departments."""
FIRST = [
    "Aino", "Bastian", "Carys", "Dmitri", "Elowen", "Farid", "Gwen", "Hamza", "Isolde", "Jarrah", "Keziah",
    "Leandro", "Maelle", "Noor", "Oskar", "Priya", "Quentin", "Rhiannon", "Sanjay", "Thandiwe", "Uma", "Viggo",
    "Wren", "Xiomara", "Yannick", "Zainab",
]  # fmt: skip
LAST = [
    "Achterberg", "Brennan", "Chaudhry", "Dunleavy", "Eklund", "Ferreira", "Gallagher", "Haddad", "Ivanova",
    "Jablonski", "Kearney", "Lombardi", "Mwangi", "Nyberg", "Okafor", "Petrakis", "Quigley", "Rautio", "Sandoval",
    "Tremblay", "Uchida", "Varga", "Whitfield", "Zoric",
]  # fmt: skip
TUTORS = [
    "Ada Brightwater", "Ben Okonkwo", "Celia Marsh", "Dev Raman", "Esme Holloway", "Felix Adeyemi",
    "Grace Lindholm", "Hugo Santangelo", "Iris Caldwell", "Jonah Pereira", "Kira Vasquez", "Liam O'Rourke",
]  # fmt: skip
ASSIGNMENT_KINDS = ["Problem Set", "Essay", "Lab Report", "Project Proposal"]
"""The first word of each course's assignment titles, in order."""
FILE_STEMS = ["final_draft", "submission", "report_v2", "essay_complete", "work_final", "upload"]
