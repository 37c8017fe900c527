"""Secrets and their echoed prefixes are cut from text before it reaches a record or a log."""
from __future__ import annotations

from bc_common.redaction import REDACTED, redact_text, secret_values

KEY = "sk-live-0123456789abcdef"


def test_every_prefix_of_8_or_more_characters_is_cut_as_far_as_it_matches():
    secrets = secret_values(KEY)
    for n in (8, 12, 20, len(KEY)):
        text = f"key {KEY[:n]}*** rejected"
        assert redact_text(text, secrets) == f"key {REDACTED}*** rejected", n
    # a prefix followed by other characters: cut up to where it stops matching
    assert redact_text(f"got {KEY[:10]}XYZ", secrets) == f"got {REDACTED}XYZ"
    assert redact_text(f"{KEY[:9]} and {KEY[:15]}", secrets) == f"{REDACTED} and {REDACTED}"


def test_shorter_pieces_and_other_text_stay():
    secrets = secret_values(KEY, {"X-Team": "abcd"})
    assert redact_text(f"prefix {KEY[:7]} stays", secrets) == f"prefix {KEY[:7]} stays"
    assert redact_text("team abcd", secrets) == f"team {REDACTED}"  # a short secret is cut whole only
    assert redact_text("nothing secret here", secrets) == "nothing secret here"
