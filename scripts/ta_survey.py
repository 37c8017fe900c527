"""Survey TextArena's games for the ta/* adapter: for each game (registered ids less their -raw/-train
wrappers and size variants), whether its code fetches data at run time, how many players it takes, and whether
two reset seeds give two different starts. Prints one JSON object a line; `--write` also writes
bootcamps/ta/catalogue.py: every game that is not adapted, with the reason it is listed unavailable.

    python scripts/ta_survey.py --write > /tmp/ta_survey.jsonl     # about a minute; needs the textarena extra
"""
from __future__ import annotations

import importlib.util
import json
import multiprocessing
import os
import re
import sys
from pathlib import Path

FETCHES = re.compile(r"nltk\.download\(|requests\.get\(|load_dataset\(|urlopen\(|hf_hub_download\(")
WRAPPER_SUFFIXES = ("-raw", "-train")


def family(env_id: str) -> str:
    return env_id.split("-v")[0]


def module_files(entry_point: str) -> list[Path]:
    """The entry point's module and the sibling modules of its folder (helpers it may import)."""
    spec = importlib.util.find_spec(entry_point.split(":")[0])
    folder = Path(spec.origin).parent
    return sorted(folder.rglob("*.py"))


def fetches(entry_point: str) -> list[str]:
    found = []
    for path in module_files(entry_point):
        text = path.read_text(errors="replace")
        if FETCHES.search(text) or "EnglishDictionary(" in text or "load_word_list" in text:
            found.append(path.name)
    return found


def probe(env_id: str, queue: multiprocessing.Queue) -> None:
    sys.stdout = open(os.devnull, "w")  # some games print their boards: stdout carries the survey's rows only
    import textarena as ta

    accepted, fixed, error = [], {}, ""
    for players in (1, 2, 3, 4):
        try:
            starts = []
            for seed in (1, 2):
                env = ta.make(env_id)
                env.reset(num_players=players, seed=seed)
                _, obs = env.get_observation()
                starts.append(json.dumps([str(o) for o in obs]) + json.dumps(str(env.state.game_state),
                                                                               default=str))
            accepted.append(players)
            fixed[players] = starts[0] == starts[1]
        except Exception as exc:  # noqa: BLE001  (wrong player count, or a game that cannot start here)
            error = error or f"{type(exc).__name__}: {str(exc)[:160]}"
    queue.put({"players": accepted, "fixed_start": fixed} if accepted else {"error": error})


def snake(family_name: str) -> str:
    """`GuessTheNumber` -> `guess_the_number` (the ta/<name> of a game)."""
    return re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", family_name).lower()


def reason(row: dict) -> str:
    """Why a game that the adapter does not offer is unavailable, from the survey's measurements."""
    error = row.get("error", "")
    if row["fetches"]:
        return (f"fetches data at run time ({', '.join(row['fetches'])} calls nltk.download or a word list "
                "download): not offline")
    if error.startswith("SyntaxError"):
        return f"does not import on Python 3.11 ({error}): TextArena 0.7.4 uses Python 3.12 f-strings"
    if "OpenRouter" in error:
        return "needs an LLM over the network (OpenRouter API key) to play or to judge: not offline"
    if error:
        return f"does not start with TextArena 0.7.4 as installed: {error}"
    players = row.get("players") or []
    if players and min(players) >= 3:
        return f"a game for {min(players)} or more players: seats are for two"
    if players == [1] and row["fixed_start"].get(1):
        return "one start for every seed (reset seeds 1 and 2 give the same game): tasks cannot be distinct"
    return ("not adapted yet: the adapter has no reference policy that wins every task of it, which the "
            "conformance suite requires")


HEADER = '''"""TextArena games the adapter does not offer, with the reason. Written by scripts/ta_survey.py --write from
its measurements on textarena 0.7.4 (do not edit by hand; the adapted games are bootcamps/ta/games/)."""
from __future__ import annotations

UNAVAILABLE: dict[str, str] = {
'''


def write_catalogue(rows: list[dict], adapted: set[str]) -> None:
    path = Path(__file__).resolve().parents[1] / "bootcamps" / "ta" / "catalogue.py"
    lines = [f"    {snake(r['family'])!r}: {reason(r)!r},\n" for r in rows if snake(r["family"]) not in adapted]
    path.write_text(HEADER + "".join(lines) + "}\n")


def main() -> int:
    from textarena.envs.registration import ENV_REGISTRY

    rows: list[dict] = []
    families: dict[str, list[str]] = {}
    for env_id in ENV_REGISTRY:
        if env_id.endswith(WRAPPER_SUFFIXES) or any(s + "-" in env_id for s in WRAPPER_SUFFIXES):
            continue
        families.setdefault(family(env_id), []).append(env_id)
    for name, ids in sorted(families.items()):
        spec = ENV_REGISTRY[ids[0]]
        try:
            row = {"family": name, "ids": ids, "fetches": fetches(spec.entry_point)}
        except Exception as exc:  # noqa: BLE001  (its package does not even import here)
            row = {"family": name, "ids": ids, "fetches": [], "error": f"{type(exc).__name__}: {str(exc)[:160]}"}
            print(json.dumps(row), flush=True)
            rows.append(row)
            continue
        if not row["fetches"]:
            queue: multiprocessing.Queue = multiprocessing.Queue()
            proc = multiprocessing.Process(target=probe, args=(ids[0], queue))
            proc.start()
            proc.join(30)
            if proc.is_alive():
                proc.kill()
                proc.join()
                row["error"] = "reset did not finish in 30 s"
            else:
                row.update(queue.get(timeout=5) if not queue.empty() else {"error": "no result"})
        print(json.dumps(row), flush=True)
        rows.append(row)
    if "--write" in sys.argv[1:]:
        from bootcamps.ta.games import GAMES

        write_catalogue(rows, set(GAMES))
    return 0


if __name__ == "__main__":
    sys.exit(main())
