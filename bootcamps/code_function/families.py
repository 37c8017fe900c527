"""Every family by entry point, and the families of each difficulty level."""
from __future__ import annotations

from .families_easy import EASY
from .families_hard import HARD
from .families_medium import MEDIUM
from .family import Family

LEVELS: dict[str, list[Family]] = {"easy": EASY, "medium": MEDIUM, "hard": HARD}
FAMILIES: dict[str, Family] = {f.entry: f for level in LEVELS.values() for f in level}
