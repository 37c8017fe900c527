"""The fact sheet of a fictional company: facts drawn from a task's rng, each a sentence of the sheet, and the
filler sentences around them. The sheet is several times longer than any summary may be."""
from __future__ import annotations

import random
from typing import Any

SYLLABLES = ("var", "lo", "ten", "mi", "ra", "kos", "bel", "dun", "ix", "sa", "tor", "ven", "qua", "lin", "mor",
             "pe", "zan", "cor", "fi", "gal", "hu", "jem", "nax", "ol", "ply", "ru", "sel", "tak", "ub", "wim")
SUFFIXES = ("Systems", "Labs", "Works", "Industries", "Foods", "Robotics", "Textiles", "Energy", "Logistics",
            "Materials", "Instruments", "Optics")
CITIES = ("Tallinn", "Porto", "Leeds", "Graz", "Lyon", "Gdansk", "Bergen", "Malmo", "Turin", "Cork", "Brno",
          "Utrecht", "Aarhus", "Bilbao", "Tampere", "Ghent", "Lodz", "Split", "Basel", "Kaunas")
COUNTRIES = ("Canada", "Japan", "Brazil", "Kenya", "Mexico", "Norway", "Chile", "India", "Egypt", "Vietnam",
             "Peru", "Ghana", "Chad", "Nepal", "Oman", "Fiji")
FIRST = ("Ana", "Bruno", "Chen", "Dara", "Elif", "Femi", "Greta", "Hugo", "Ines", "Jonas", "Kira", "Luca", "Mira",
         "Nils", "Omar", "Petra", "Quinn", "Rosa", "Sven", "Tomas", "Uma", "Vera", "Wiebke", "Yusuf")
LAST = ("Almeida", "Berg", "Costa", "Duval", "Eriksen", "Fischer", "Garcia", "Horvat", "Ivanova", "Jensen",
        "Kowalski", "Larsen", "Moreau", "Novak", "Okafor", "Petrov", "Quist", "Rossi", "Sato", "Tanaka")
PRODUCTS = ("water pump", "field sensor", "cargo drone", "grain dryer", "solar inverter", "hearing aid",
            "bike frame", "label printer", "heat exchanger", "rope winch", "soil probe", "door lock")

# key -> (how the value is drawn, the sentence that states it); numbers are whole and distinct within a sheet
FACTS: dict[str, str] = {
    "founded": "{entity} was founded in {value}, after several years of work in a rented garage.",
    "headquarters": "The company keeps its headquarters in {value}, close to the old harbour district.",
    "employees": "According to the latest annual report, it employs {value} people across all of its divisions.",
    "ceo": "Its chief executive, {value}, took over the role after a long internal selection process.",
    "product": "Its best-known product is the {value}, which is sold mostly to other businesses.",
    "revenue": "Annual revenue reached {value} million euros in the most recent financial year.",
    "offices": "It operates {value} offices, most of them in medium-sized towns rather than capitals.",
    "patents": "Over the years the company has been granted {value} patents on its own designs.",
    "founder": "It was started by {value}, who still sits on the board as a non-executive member.",
    "market": "Its largest export market is {value}, where it sells through local distributors.",
    "customers": "The company says it serves {value} business customers on three continents.",
    "factories": "Production runs in {value} factories, each of them certified for quality management.",
    "rival": "Analysts name {value} as its main rival in nearly every market it serves.",
    "warranty": "Every product ships with a warranty of {value} months, longer than the industry norm.",
}
NUMERIC = {"founded", "employees", "revenue", "offices", "patents", "customers", "factories", "warranty"}

FILLER = (
    "The company describes its working culture as patient, practical and open to new ideas.",
    "Its annual report spends several pages on training programmes for younger staff.",
    "Visitors often remark on the plain design of its offices and the absence of corner rooms.",
    "The board meets four times a year and publishes short minutes of each meeting.",
    "A small foundation attached to the company funds music lessons in local schools.",
    "Its website is available in several languages and is updated every week.",
    "Management has repeatedly said that it prefers slow growth to large acquisitions.",
    "Staff surveys are run every spring and their results are shared with every team.",
)


def company_name(rng: random.Random) -> str:
    stem = "".join(rng.choice(SYLLABLES) for _ in range(rng.randint(2, 3)))
    return f"{stem.capitalize()} {rng.choice(SUFFIXES)}"


def draw_value(key: str, rng: random.Random, used: set[str]) -> str:
    """One value of `key`; numbers never repeat within a sheet (a number names one fact)."""
    ranges = {"founded": (1950, 2015), "employees": (120, 90000), "revenue": (20, 9000), "offices": (3, 60),
              "patents": (11, 900), "customers": (200, 50000), "factories": (2, 19), "warranty": (18, 72)}
    if key in ranges:
        while True:
            value = str(rng.randint(*ranges[key]))
            if value not in used:
                return value
    choices = {"headquarters": CITIES, "market": COUNTRIES, "product": PRODUCTS}.get(key)
    if choices is not None:
        return rng.choice(choices)
    if key == "rival":
        return company_name(rng)
    return f"{rng.choice(FIRST)} {rng.choice(LAST)}"


def draw_sheet(rng: random.Random, n_facts: int, n_required: int, n_filler: int,
               max_words: int) -> dict[str, Any]:
    """An identity: the entity, its facts in sheet order (fillers as key null), the required keys, the limit."""
    entity = company_name(rng)
    keys = rng.sample(sorted(FACTS), n_facts)
    used: set[str] = set()
    facts = []
    for key in keys:
        value = draw_value(key, rng, used)
        used.add(value)
        facts.append([key, value])
    lines: list[list[Any]] = [*facts, *[[None, i] for i in rng.sample(range(len(FILLER)), n_filler)]]
    rng.shuffle(lines)
    required = sorted(rng.sample(keys, n_required))
    return {"entity": entity, "sheet": lines, "required": required, "max_words": max_words}


def sentence(line: list[Any], entity: str) -> str:
    key, value = line
    if key is None:
        return FILLER[int(value)]
    return FACTS[key].format(entity=entity, value=value)


def sheet_text(identity: dict[str, Any]) -> str:
    """The sheet as the prompt shows it: the entity's name, then one sentence a line."""
    entity = identity["entity"]
    return f"Fact sheet: {entity}\n" + "\n".join(f"- {sentence(line, entity)}" for line in identity["sheet"])


def fact_values(identity: dict[str, Any]) -> dict[str, str]:
    return {key: value for key, value in identity["sheet"] if key is not None}
