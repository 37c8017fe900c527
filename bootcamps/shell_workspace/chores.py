"""The chores: find, rename, deduplicate, aggregate, fix a config, reorganise. Each names per-task parameters (an
output file, a threshold, a service, a folder) so that one task's script does not solve another's."""
from __future__ import annotations

import configparser
import posixpath
import random
from collections import Counter
from typing import Any

from .chore import Chore, Files

LEVEL_NAMES = ["INFO", "DEBUG", "WARN", "ERROR", "FATAL"]
OUT_WORDS = ["report", "summary", "result", "answer", "listing", "counts", "found", "notes"]
NEW_EXTS = ["bak", "old", "keep", "md", "dat", "orig", "done", "v2"]
TRASH_WORDS = ["dupes", "trash", "extra", "copies", "spare", "attic"]
ARCHIVE_WORDS = ["archive", "past", "kept", "vault", "history"]
TIDY_PREFIXES = ["by_", "type_", "ext_", "kind_", "sorted_", "files_"]
SETTINGS = [("server", "port", 1025, 9999), ("server", "workers", 1, 64), ("database", "pool", 1, 64),
            ("database", "timeout", 1, 120)]
LEVEL_PAIRS = [("ERROR", "FATAL"), ("WARN", "ERROR"), ("WARN", "FATAL"), ("DEBUG", "WARN")]


def out_name(rng: random.Random, ext: str = "txt") -> str:
    return f"{rng.choice(OUT_WORDS)}_{rng.randint(10, 99)}.{ext}"


def services(files: Files) -> list[str]:
    return sorted({path.split("/")[1] for path in files if path.startswith("logs/")})


def log_lines(files: Files, service: str) -> dict[str, list[str]]:
    """{day (2024-05-DD): lines} of a service's logs, days in order."""
    prefix = f"logs/{service}/"
    return {posixpath.basename(path)[:-4]: files[path].splitlines()
            for path in sorted(files) if path.startswith(prefix) and path.endswith(".log")}


def level_of(line: str) -> str:
    return line.split()[2]


def sales_rows(files: Files, year: int) -> list[list[str]]:
    return [line.split(",") for path in sorted(files) if path.startswith(f"sales/{year}/")
            for line in files[path].splitlines()[1:]]


def years(files: Files) -> list[int]:
    return sorted({int(path.split("/")[1]) for path in files if path.startswith("sales/")})


def between(rng: random.Random, sizes: list[int]) -> int | None:
    """A threshold t with some sizes <= t and some > t (None when every size is the same)."""
    distinct = sorted(set(sizes))
    if len(distinct) < 2:
        return None
    k = rng.randint(1, len(distinct) - 1)
    return rng.randint(distinct[k - 1], distinct[k] - 1)


# -- easy ------------------------------------------------------------------------------------------------------

def _count(files: Files, service: str, level: str) -> int:
    return sum(level_of(line) == level for lines in log_lines(files, service).values() for line in lines)


def _count_draw(rng: random.Random, files: Files) -> dict[str, Any] | None:
    service, level = rng.choice(services(files)), rng.choice(LEVEL_NAMES)
    return {"service": service, "level": level, "out": out_name(rng)} if _count(files, service, level) >= 2 else None


COUNT_LINES = Chore(
    "count_lines", "easy",
    "Count the {level} lines in all the log files of the `{service}` service (logs/{service}/*.log) and write the "
    "number, alone on a line, to `{out}`.",
    _count_draw,
    lambda files, p: files | {p["out"]: f"{_count(files, p['service'], p['level'])}\n"},
    lambda p: f"cat logs/{p['service']}/*.log | grep -c ' {p['level']} ' > {p['out']}\n",
    written="lines")


def _large_draw(rng: random.Random, files: Files) -> dict[str, Any] | None:
    size = between(rng, [len(text) for path, text in files.items() if path.startswith("downloads/")])
    return None if size is None else {"size": size, "out": out_name(rng)}


FIND_LARGE = Chore(
    "find_large", "easy",
    "Write the paths of the files under downloads/ that are larger than {size} bytes to `{out}`, one per line, "
    "relative to the working folder (like downloads/name.zip), in any order.",
    _large_draw,
    lambda files, p: files | {p["out"]: "".join(f"{path}\n" for path in sorted(files) if path.startswith(
        "downloads/") and len(files[path]) > p["size"])},
    lambda p: f"find downloads -type f -size +{p['size']}c > {p['out']}\n",
    written="unordered")


def _renamed(files: Files, p: dict[str, Any]) -> dict[str, str]:
    """{old path: new path} of the files the rename chore touches."""
    return {path: path[: -len(p["old"])] + p["new"] for path in files
            if path.startswith(p["folder"] + "/") and posixpath.basename(path).startswith(p["word"])
            and path.endswith("." + p["old"])}


def _rename_draw(rng: random.Random, files: Files) -> dict[str, Any] | None:
    folder = rng.choice(["data", "downloads"])
    inside = sorted(path for path in files if path.startswith(folder + "/"))
    name = posixpath.basename(rng.choice(inside))
    word, old = name.replace("-", "_").split("_")[0], name.rpartition(".")[2]
    params = {"folder": folder, "word": word, "old": old, "new": rng.choice([e for e in NEW_EXTS if e != old])}
    return params if len(_renamed(files, params)) < len(inside) else None


RENAME_EXT = Chore(
    "rename_ext", "easy",
    "Rename every file under {folder}/ (its subfolders too) whose name starts with `{word}` and ends in `.{old}` "
    "so that it ends in `.{new}` instead; leave every other file as it is.",
    _rename_draw,
    lambda files, p: {_renamed(files, p).get(path, path): text for path, text in files.items()},
    lambda p: (f"find {p['folder']} -type f -name '{p['word']}*.{p['old']}' | while IFS= read -r f; do\n"
               f"  mv \"$f\" \"${{f%.{p['old']}}}.{p['new']}\"\ndone\n"))


def _ini_values(text: str) -> configparser.ConfigParser:
    parser = configparser.ConfigParser(interpolation=None)
    parser.read_string(text)
    return parser


def set_ini(text: str, section: str, key: str, value: Any) -> str:
    """`text` with `key = value` in `[section]` (the line replaced where it stands)."""
    out, current = [], None
    for line in text.splitlines():
        if line.startswith("["):
            current = line.strip("[]")
        elif current == section and line.split("=")[0].strip() == key:
            line = f"{key} = {value}"
        out.append(line)
    return "\n".join(out) + "\n"


def _config_draw(rng: random.Random, files: Files) -> dict[str, Any]:
    parser = _ini_values(files["config/app.ini"])
    params: dict[str, Any] = {}
    for k, (section, key, low, high) in enumerate(rng.sample(SETTINGS, 2), 1):
        current = int(parser[section][key])
        params |= {f"section{k}": section, f"key{k}": key,
                   f"value{k}": rng.choice([v for v in range(low, high + 1) if v != current])}
    return params


def _config_apply(files: Files, p: dict[str, Any]) -> Files:
    text = set_ini(files["config/app.ini"], p["section1"], p["key1"], p["value1"])
    return files | {"config/app.ini": set_ini(text, p["section2"], p["key2"], p["value2"])}


SET_CONFIG = Chore(
    "set_config", "easy",
    "In config/app.ini, set `{key1}` in the [{section1}] section to {value1} and `{key2}` in the [{section2}] "
    "section to {value2}; keep every other setting as it is.",
    _config_draw, _config_apply,
    lambda p: "".join(f"sed -i '/^\\[{p[f'section{k}']}\\]/,/^\\[/ s/^{p[f'key{k}']} *=.*/{p[f'key{k}']} = "
                      f"{p[f'value{k}']}/' config/app.ini\n" for k in (1, 2)),
    written="ini")

# -- medium ----------------------------------------------------------------------------------------------------


def _dedupe_draw(rng: random.Random, files: Files) -> dict[str, Any] | None:
    contents = Counter(text for path, text in files.items() if path.startswith("data/"))
    if not any(count > 1 for count in contents.values()):
        return None
    return {"trash": f"{rng.choice(TRASH_WORDS)}-{rng.randint(10, 99)}"}


def _dedupe_apply(files: Files, p: dict[str, Any]) -> Files:
    seen: set[str] = set()
    out = {}
    for path in sorted(files):
        text = files[path]
        if not path.startswith("data/"):
            out[path] = text
        elif text in seen:
            out[f"{p['trash']}/{posixpath.basename(path)}"] = text
        else:
            seen.add(text)
            out[path] = text
    return out


DEDUPE = Chore(
    "dedupe", "medium",
    "Some files under data/ (its subfolders too) have the same content. Of each set of identical files keep the "
    "one whose path comes first in byte order (data/old/x.txt before data/raw/a.txt) and move the others into a "
    "new folder `{trash}/` at the top of the working folder, keeping their file names.",
    _dedupe_draw, _dedupe_apply,
    lambda p: (f"mkdir -p {p['trash']}\n"
               "find data -type f | LC_ALL=C sort | while IFS= read -r f; do\n"
               "  h=$(md5sum < \"$f\" | cut -c1-32)\n"
               f"  if grep -qx \"$h\" /tmp/seen 2>/dev/null; then mv \"$f\" {p['trash']}/; "
               "else echo \"$h\" >> /tmp/seen; fi\n"
               "done\n"))


def _totals(files: Files, year: int, product: str) -> dict[str, int]:
    totals: Counter[str] = Counter()
    for _, region, sold, amount in sales_rows(files, year):
        if sold == product:
            totals[region] += int(amount)
    return dict(totals)


def _sales_draw(rng: random.Random, files: Files) -> dict[str, Any] | None:
    year = rng.choice(years(files))
    product = rng.choice(sorted({row[2] for row in sales_rows(files, year)}))
    if len(_totals(files, year, product)) < 2:
        return None
    return {"year": year, "product": product, "out": out_name(rng, "csv")}


SALES_TOTALS = Chore(
    "sales_totals", "medium",
    "Write `{out}`: a CSV with the header `region,total` and one row per region with the total amount of "
    "`{product}` sales in {year} (every month of sales/{year}/), only regions that sold any, in alphabetical "
    "order of region.",
    _sales_draw,
    lambda files, p: files | {p["out"]: "region,total\n" + "".join(
        f"{region},{total}\n" for region, total in sorted(_totals(files, p["year"], p["product"]).items()))},
    lambda p: (f"{{ echo region,total; cat sales/{p['year']}/*.csv | awk -F, '$3 == \"{p['product']}\" "
               "{t[$2] += $4} END {for (r in t) print r \",\" t[r]}' | LC_ALL=C sort; } > " + p["out"] + "\n"),
    written="lines")


def _daily(files: Files, service: str, level: str) -> dict[str, int]:
    counts = {day: sum(level_of(line) == level for line in lines) for day, lines in log_lines(files, service).items()}
    return {day: n for day, n in counts.items() if n}


def _daily_draw(rng: random.Random, files: Files) -> dict[str, Any] | None:
    service, level = rng.choice(services(files)), rng.choice(LEVEL_NAMES)
    if len(_daily(files, service, level)) < 2:
        return None
    return {"service": service, "level": level, "out": out_name(rng)}


DAILY_COUNTS = Chore(
    "daily_counts", "medium",
    "For the `{service}` service, write to `{out}` one line per day whose log has at least one {level} line: the "
    "date and the number of such lines, like `2024-05-03 2`, in date order.",
    _daily_draw,
    lambda files, p: files | {p["out"]: "".join(f"{day} {n}\n" for day, n in
                                                _daily(files, p["service"], p["level"]).items())},
    lambda p: (f"for f in logs/{p['service']}/*.log; do\n  n=$(grep -c ' {p['level']} ' \"$f\")\n"
               f"  if [ \"$n\" -gt 0 ]; then echo \"$(basename \"$f\" .log) $n\"; fi\ndone > {p['out']}\n"),
    written="lines")

# -- hard ------------------------------------------------------------------------------------------------------


def _archive_draw(rng: random.Random, files: Files) -> dict[str, Any] | None:
    year = rng.choice(years(files))
    least = between(rng, [int(row[3]) for row in sales_rows(files, year)])
    if least is None:
        return None
    return {"year": year, "least": least + 1, "folder": rng.choice(ARCHIVE_WORDS)}


def _archive_apply(files: Files, p: dict[str, Any]) -> Files:
    out = {}
    for path, text in files.items():
        if path.startswith(f"sales/{p['year']}/"):
            header, *rows = text.splitlines()
            kept = [row for row in rows if int(row.split(",")[3]) >= p["least"]]
            out[f"{p['folder']}/{p['year']}-{posixpath.basename(path)}"] = "".join(f"{r}\n" for r in [header, *kept])
        else:
            out[path] = text
    return out


ARCHIVE_YEAR = Chore(
    "archive_year", "hard",
    "Move every sales file of {year} (sales/{year}/MM.csv) to `{folder}/{year}-MM.csv`, keeping its header and "
    "only the rows whose amount is at least {least}; no file of {year} stays under sales/.",
    _archive_draw, _archive_apply,
    lambda p: (f"mkdir -p {p['folder']}\nfor f in sales/{p['year']}/*.csv; do\n  m=$(basename \"$f\" .csv)\n"
               f"  awk -F, 'NR == 1 || $4 >= {p['least']}' \"$f\" > {p['folder']}/{p['year']}-$m.csv && rm \"$f\"\n"
               "done\n"),
    written="lines")


def _incidents(files: Files, day: str, levels: tuple[str, str]) -> list[str]:
    lines = [f"{service}: {line}" for service in services(files)
             for line in log_lines(files, service).get(day, []) if level_of(line) in levels]
    return sorted(lines, key=lambda line: (line.split()[2], line.split()[0]))


def _incident_draw(rng: random.Random, files: Files) -> dict[str, Any] | None:
    days = Counter(day for service in services(files) for day in log_lines(files, service))
    shared = sorted(day for day, count in days.items() if count >= 2)
    if not shared:
        return None
    day, levels = rng.choice(shared), rng.choice(LEVEL_PAIRS)
    found = _incidents(files, day, levels)
    if len(found) < 3 or len({line.split(":")[0] for line in found}) < 2:
        return None
    return {"day": day, "first": levels[0], "second": levels[1], "out": out_name(rng, "log")}


INCIDENTS = Chore(
    "incidents", "hard",
    "Gather the {first} and {second} lines that any service logged on {day} into `{out}`, each prefixed with the "
    "service's name and a colon (like `auth: {day} 13:45:02 {first} slow query`), ordered by time of day, then by "
    "service name.",
    _incident_draw,
    lambda files, p: files | {p["out"]: "".join(f"{line}\n" for line in
                                                _incidents(files, p["day"], (p["first"], p["second"])))},
    lambda p: (f"for d in logs/*/; do\n  s=$(basename \"$d\"); f=\"logs/$s/{p['day']}.log\"\n"
               f"  if [ -f \"$f\" ]; then grep -E ' ({p['first']}|{p['second']}) ' \"$f\" | sed \"s/^/$s: /\"; fi\n"
               f"done | LC_ALL=C sort -k3,3 -k1,1 > {p['out']}\n"),
    written="lines")


def _tidy_draw(rng: random.Random, files: Files) -> dict[str, Any] | None:
    size = between(rng, [len(text) for path, text in files.items() if path.startswith("downloads/")])
    return None if size is None else {"size": size + 1, "prefix": rng.choice(TIDY_PREFIXES)}


def _tidy_apply(files: Files, p: dict[str, Any]) -> Files:
    out = {}
    for path, text in files.items():
        if not path.startswith("downloads/"):
            out[path] = text
        elif len(text) >= p["size"]:
            name = posixpath.basename(path)
            out[f"downloads/{p['prefix']}{name.rpartition('.')[2]}/{name}"] = text
    return out


TIDY_DOWNLOADS = Chore(
    "tidy_downloads", "hard",
    "Tidy downloads/: delete every file smaller than {size} bytes, and move each other file into a subfolder of "
    "downloads/ named `{prefix}` followed by its extension (downloads/{prefix}zip/name.zip).",
    _tidy_draw, _tidy_apply,
    lambda p: (f"find downloads -maxdepth 1 -type f -size -{p['size']}c -delete\n"
               "for f in downloads/*.*; do\n  [ -f \"$f\" ] || continue\n"
               f"  e=\"{p['prefix']}${{f##*.}}\"; mkdir -p \"downloads/$e\" && mv \"$f\" \"downloads/$e/\"\ndone\n"))

CHORES = [COUNT_LINES, FIND_LARGE, RENAME_EXT, SET_CONFIG, DEDUPE, SALES_TOTALS, DAILY_COUNTS, ARCHIVE_YEAR,
          INCIDENTS, TIDY_DOWNLOADS]
BY_KEY = {chore.key: chore for chore in CHORES}
LEVELS = {level: [c for c in CHORES if c.level == level] for level in ("easy", "medium", "hard")}
