"""The generated workspace of a task: logs, sales CSVs, an INI config, data files with duplicates and downloads of
many sizes, drawn from the task's seed (same seed, same files)."""
from __future__ import annotations

import random

SERVICES = ["api", "auth", "billing", "cron", "gateway", "mailer", "search", "worker"]
REGIONS = ["north", "south", "east", "west", "central"]
PRODUCTS = ["anvil", "bolt", "crate", "drill", "easel", "flask", "gear", "hinge"]
MESSAGES = ["request served", "cache miss", "connection reset", "retrying", "user login", "job finished",
            "disk almost full", "timeout talking to db", "slow query", "config reloaded"]
LEVELS = ["INFO", "INFO", "INFO", "DEBUG", "WARN", "ERROR", "FATAL"]
WORDS = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india", "juliet"]
SIZES = {"small": 1, "medium": 2, "large": 3}  # how many of each kind of file, roughly


def build_tree(seed: int, size: str) -> dict[str, str]:
    """The workspace's files (relative path -> text) for (seed, size)."""
    rng = random.Random(seed)
    scale = SIZES[size]
    files: dict[str, str] = {}
    for service in rng.sample(SERVICES, 1 + scale):
        for day in sorted(rng.sample(range(1, 29), 1 + scale)):
            lines = []
            for k in range(rng.randint(3, 6 + 2 * scale)):
                lines.append(f"2024-05-{day:02d} {rng.randint(0, 23):02d}:{rng.randint(0, 59):02d}:{k:02d} "
                             f"{rng.choice(LEVELS)} {rng.choice(MESSAGES)}")
            files[f"logs/{service}/2024-05-{day:02d}.log"] = "\n".join(lines) + "\n"
        files[f"logs/{service}/README.txt"] = f"logs of the {service} service, one file a day\n"
    for year in rng.sample([2021, 2022, 2023, 2024], 1 + scale // 2):
        for month in sorted(rng.sample(range(1, 13), 1 + scale)):
            rows = ["date,region,product,amount"]
            for _ in range(rng.randint(3, 4 + 3 * scale)):
                rows.append(f"{year}-{month:02d}-{rng.randint(1, 28):02d},{rng.choice(REGIONS)},"
                            f"{rng.choice(PRODUCTS)},{rng.randint(1, 500)}")
            files[f"sales/{year}/{month:02d}.csv"] = "\n".join(rows) + "\n"
    files["config/app.ini"] = (
        "; application settings\n[server]\n"
        f"host = {rng.choice(['0.0.0.0', '127.0.0.1', 'localhost'])}\nport = {rng.randint(1025, 9999)}\n"
        f"debug = {rng.choice(['true', 'false'])}\nworkers = {rng.randint(1, 16)}\n\n[database]\n"
        f"url = sqlite:///{rng.choice(WORDS)}.db\npool = {rng.randint(1, 32)}\ntimeout = {rng.randint(1, 60)}\n\n"
        f"[logging]\nlevel = {rng.choice(['debug', 'info', 'warning'])}\nfile = logs/app.log\n")
    texts = [" ".join(rng.choice(WORDS) for _ in range(rng.randint(3, 12))) + "\n" for _ in range(3 + 2 * scale)]
    folders = ["data", "data/raw", "data/old", "data/copy"][: 2 + scale]
    for k in range(4 + 3 * scale):
        folder = rng.choice(folders)
        files[f"{folder}/{rng.choice(WORDS)}_{k}.txt"] = rng.choice(texts)
    for k in range(3 + 2 * scale):
        name = f"downloads/{rng.choice(WORDS)}-{k}.{rng.choice(['bin', 'zip', 'iso', 'tar'])}"
        files[name] = rng.choice("xyz") * rng.choice([rng.randint(10, 900), rng.randint(1000, 9000)])
    return files
