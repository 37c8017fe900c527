"""What reasoning-core's tasks need that the `reasoning-core` extra does not bring, and the conformance sample
sizes. A task that needs a download or a module that is missing is unavailable with the reason, whatever
`BC_INCLUDE_KNOWN_ISSUES` says (nothing could run it); once what it needs is there, it is classified like any other.
"""
from __future__ import annotations

from pathlib import Path

CONFORMANCE_N = 50  # tasks per rc/* in the attack checks: the least an adapter's task may be checked on
DISTINCT_N = 100  # rows per group for distinctness (the suite scales its limits to this size)
GEN_EXTRA = "pip install 'reasoning-core[gen]==0.5.0'"

# task -> modules reasoning-core imports when it makes an item of it (its own [gen] extra brings them)
NEEDS_MODULES: dict[str, list[str]] = {
    "game_best_move": ["pyggp"],
    "game_forced_win": ["pyggp"],
}


def _set_mm() -> Path:
    from appdirs import AppDirs

    return Path(AppDirs("reasoning_core").user_data_dir) / "metamath" / "set.mm"


# task -> (why it cannot run here, a test that what it needs is present)
NEEDS_DOWNLOAD: dict[str, tuple[str, object]] = {
    name: ("downloads metamath's set.mm (40 MB) from the develop branch of github.com/metamath/set.mm when it "
           "makes its first item: the harness runs offline, and a file that changes upstream would make rows "
           "differ between machines (present once ~/.local/share/reasoning_core/metamath/set.mm exists)",
           lambda: _set_mm().is_file() and _set_mm().stat().st_size >= 1_000_000)
    for name in ("metamath_entailment", "metamath_core_select")
}


def missing_need(name: str) -> str | None:
    """Why rc/<name> cannot run on this machine, or None."""
    from bc_common.bootcamp import missing_modules

    if name in NEEDS_DOWNLOAD:
        reason, present = NEEDS_DOWNLOAD[name]
        return None if present() else reason
    missing = missing_modules(NEEDS_MODULES.get(name, []))
    if missing:
        return f"needs {', '.join(missing)}, which reasoning-core's own [gen] extra installs: {GEN_EXTRA}"
    return None
