"""The reference policy: the entity, every required fact with its exact value, then other facts while the word
limit allows. A wrong answer states one required number off by one, or leaves a required name out."""
from __future__ import annotations

from typing import Any

from bc_common.bootcamp import ReferencePolicy

from .sheet import NUMERIC

# a fact as few words as say it
CLAUSES = {
    "founded": "founded in {v}", "headquarters": "headquartered in {v}", "employees": "{v} employees",
    "ceo": "led by chief executive {v}", "product": "best known for its {v}",
    "revenue": "annual revenue of {v} million euros", "offices": "{v} offices", "patents": "{v} patents",
    "founder": "started by {v}", "market": "largest export market {v}", "customers": "{v} business customers",
    "factories": "{v} factories", "rival": "main rival {v}", "warranty": "a {v}-month warranty",
}


def summary(identity: dict[str, Any], *, wrong: bool = False) -> str:
    values = {key: value for key, value in identity["sheet"] if key is not None}
    required = list(identity["required"])
    clauses = []
    for i, key in enumerate(required):
        value = values[key]
        if wrong and i == 0:
            if key not in NUMERIC:
                continue  # the required name is left out
            value = str(int(value) + 1)
        clauses.append(CLAUSES[key].format(v=value))
    text = f"{identity['entity']}: " + "; ".join(clauses) + "."
    for key, value in identity["sheet"]:  # the other facts, in sheet order, while they fit
        if key is None or key in required:
            continue
        longer = text[:-1] + "; " + CLAUSES[key].format(v=value) + "."
        if len(longer.split()) > identity["max_words"]:
            break
        text = longer
    return text


class FactSummaryPolicy(ReferencePolicy):
    def respond(self, messages: list[dict[str, Any]], *, wrong: bool = False) -> dict[str, Any]:
        return {"role": "assistant", "content": f"<summary>{summary(self.identity, wrong=wrong)}</summary>"}
