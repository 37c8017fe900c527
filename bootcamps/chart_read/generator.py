"""Chart-reading tasks: a bar, line or scatter chart of seeded data and one question with an exact answer.

Every value is an integer printed on the chart beside its bar or point, so the answer is read from the picture
(the prompt's text never states a value): which series is largest at an x label, the difference between two
labelled values, or which series rises (or falls) at every step.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bc_common.bootcamp import InstructionGenerator
from bc_common.images import text_part

from .render import render_chart

KINDS = ("bar", "line", "scatter")
QUESTIONS = ("largest", "difference", "trend")
# series names: distinct words, so an answer copied from another chart rarely names one of this chart's series
NAMES = """Amber Apple Aspen Badger Basil Beacon Birch Bison Bramble Cedar Cherry Clover Cobalt Comet Coral Cotton
Crane Cypress Dahlia Delta Ember Falcon Fern Finch Fjord Flint Garnet Ginger Glacier Granite Hazel Heron Holly
Indigo Iris Ivory Jade Jasper Juniper Kestrel Lagoon Larch Laurel Lemon Lilac Linden Lotus Lynx Magnet Mango
Maple Marble Meadow Mesa Mint Moss Nectar Nova Oak Olive Onyx Opal Orchid Otter Pebble Pepper Pine Plum Polar
Quartz Quill Raven Reed Ridge Robin Ruby Saffron Sage Sequoia Shale Sierra Slate Sparrow Spruce Stone Summit
Swift Tango Thistle Thyme Topaz Tulip Tundra Umber Valley Velvet Violet Walnut Willow Wren Yarrow Zephyr Zinc
Acorn Alpine Anchor Arrow Atlas Blaze Canyon Cinder Cloud Dune Echo Fable Frost Harbor Island Kelp Lantern Lark
Mist Nimbus Orbit Prairie Pulse Rapid Sable Spark Storm Tide Vale""".split()
MONTHS = "Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec".split()
LOW, HIGH = 5, 95  # values are drawn from LOW..HIGH on a 0..100 axis


@dataclass
class ChartConfig:
    kinds: str = "bar,line,scatter"  # chart kinds to draw from (comma list)
    questions: str = "largest,difference,trend"  # question types to draw from (comma list)
    min_series: int = 2
    max_series: int = 3
    points: int = 6  # x labels per chart
    gap: int = 4  # the largest value at the asked x exceeds the others by at least this much

    def validate(self) -> None:
        for name, allowed in (("kinds", KINDS), ("questions", QUESTIONS)):
            items = [k for k in getattr(self, name).split(",") if k]
            if not items or set(items) - set(allowed):
                raise ValueError(f"{name} must be a comma list of {', '.join(allowed)}")
        if not 2 <= self.min_series <= self.max_series <= 4:
            raise ValueError("need 2 <= min_series <= max_series <= 4")
        if not 3 <= self.points <= 10:
            raise ValueError("points must be between 3 and 10")
        if not 1 <= self.gap <= 20:
            raise ValueError("gap must be between 1 and 20")


class ChartReadInstructionGenerator(InstructionGenerator):
    """Identity: {kind, x, series: [{name, values}], question: {type, ...}, answer}; `answer` is the canonical
    answer text (`NAME VALUE`, an integer, or `NAME increasing|decreasing CHANGE`). Every answer holds a number
    read off the chart, so knowing the legend alone is not enough."""

    Config = ChartConfig

    def case_generator(self) -> dict[str, Any]:
        rng = self.rng
        kind = rng.choice(self.kinds.split(","))
        qtype = rng.choice(self.questions.split(","))
        k = rng.randint(self.min_series, self.max_series)
        names = rng.sample(NAMES, k)
        if rng.random() < 0.5:
            start = rng.randrange(12)
            x = [MONTHS[(start + i) % 12] for i in range(self.points)]
        else:
            start = rng.randint(1990, 2030 - self.points)
            x = [str(start + i) for i in range(self.points)]
        values = [[rng.randint(LOW, HIGH) for _ in x] for _ in names]
        if qtype == "largest":
            at, winner = rng.randrange(len(x)), rng.randrange(k)
            top = max(v[at] for s, v in enumerate(values) if s != winner)
            if top + self.gap > HIGH:  # lower the others rather than push the winner off the axis
                for s in range(k):
                    if s != winner:
                        values[s][at] = rng.randint(LOW, HIGH - self.gap - 10)
                top = max(v[at] for s, v in enumerate(values) if s != winner)
            values[winner][at] = max(values[winner][at], top + self.gap)
            question, answer = {"type": "largest", "x": x[at]}, f"{names[winner]} {values[winner][at]}"
        elif qtype == "difference":
            a, b = rng.randrange(k), rng.randrange(k)
            i, j = rng.randrange(len(x)), rng.randrange(len(x))
            if (a, i) == (b, j):
                j = (j + 1) % len(x)
            question = {"type": "difference", "a": names[a], "x_a": x[i], "b": names[b], "x_b": x[j]}
            answer = str(values[a][i] - values[b][j])
        else:
            target = rng.randrange(k)
            direction = rng.choice(("increasing", "decreasing"))
            steady = sorted(rng.sample(range(LOW, HIGH + 1), len(x)), reverse=direction == "decreasing")
            values[target] = steady
            for s in range(k):
                if s != target:
                    values[s] = _unsteady(values[s], rng)
            change = abs(steady[-1] - steady[0])
            question, answer = {"type": "trend", "from": x[0], "to": x[-1]}, f"{names[target]} {direction} {change}"
        return {"kind": kind, "x": x, "series": [{"name": n, "values": v} for n, v in zip(names, values, strict=True)],
                "question": question, "answer": answer}

    def prompt_func(self, identity: dict[str, Any]) -> list[dict[str, Any]]:
        kind = identity["kind"]
        intro = (f"The {kind} chart below shows {len(identity['series'])} series; each value is printed beside "
                 f"its {'bar' if kind == 'bar' else 'point'}. Read it from the picture.")
        return [text_part(intro), render_chart(identity), text_part(question_text(identity["question"]))]


def question_text(q: dict[str, Any]) -> str:
    if q["type"] == "largest":
        return (f"At {q['x']}, which series has the largest value, and what is that value? Answer as "
                "<answer>NAME VALUE</answer>, e.g. <answer>Oak 42</answer>.")
    if q["type"] == "difference":
        return (f"What is the value of {q['a']} at {q['x_a']} minus the value of {q['b']} at {q['x_b']}? "
                "Answer with an integer as <answer>N</answer>.")
    return (f"Exactly one series rises at every step, or falls at every step, from {q['from']} to {q['to']}. "
            "Which series, which direction, and by how much does it change from first to last in all? Answer as "
            "<answer>NAME increasing CHANGE</answer> or <answer>NAME decreasing CHANGE</answer>, e.g. "
            "<answer>Oak increasing 37</answer>.")


def steady(values: list[int]) -> str | None:
    """'increasing' / 'decreasing' when every step rises / falls, else None."""
    steps = [b - a for a, b in zip(values, values[1:], strict=False)]
    if all(s > 0 for s in steps):
        return "increasing"
    if all(s < 0 for s in steps):
        return "decreasing"
    return None


def _unsteady(values: list[int], rng: Any) -> list[int]:
    """`values`, changed as little as needed so that they neither rise nor fall at every step."""
    values = list(values)
    while steady(values) is not None:
        i = rng.randrange(len(values) - 1)
        values[i], values[i + 1] = values[i + 1], values[i]
        if values[i] == values[i + 1]:
            values[i] = LOW + (values[i] - LOW + 7) % (HIGH - LOW)
    return values
