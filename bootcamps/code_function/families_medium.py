"""Medium families: grouping, parsing, intervals, counting DP, graphs and simulation."""
from __future__ import annotations

import random
from typing import Any

from .family import Family

PRIMES = [p for p in range(101, 10_000) if all(p % d for d in range(2, int(p ** 0.5) + 1))]


def count_anagram_classes(words, *, drop, min_len, min_size, report):
    classes = {}
    for w in words:
        if len(w) < min_len:
            continue
        key = "".join(sorted(w.replace(drop, "") if drop else w))
        classes[key] = classes.get(key, 0) + 1
    sizes = [c for c in classes.values() if c >= min_size]
    if report == "largest":
        return max(sizes, default=0)
    if report == "words":
        return sum(sizes)
    return len(sizes)


def _anagram_variant(rng: random.Random) -> dict[str, Any]:
    return {"drop": rng.choice(["", "a", "b", "c", "d", "e"]), "min_len": rng.randint(0, 3),
            "min_size": rng.randint(1, 3), "report": rng.choice(["classes", "largest", "words"])}


def _anagram_spec(p: dict[str, Any]) -> str:
    same = (f"when they have the same letters, counted with repeats, once every {p['drop']!r} is removed from both"
            if p["drop"] else "when one is a rearrangement of the other's letters")
    skip = f"Ignore the words shorter than {p['min_len']} letters. " if p["min_len"] else ""
    size = f" with at least {p['min_size']} words" if p["min_size"] > 1 else ""
    report = {"classes": f"how many classes{size} there are",
              "largest": f"the number of words in the largest class{size} (0 when there is none)",
              "words": f"how many words belong to classes{size}"}[p["report"]]
    return f"{skip}Two words are in one class {same}. Return {report}."


def _anagrams(rng: random.Random, n: int, p: dict[str, Any]) -> list[Any]:
    base = ["".join(rng.choice("abcde") for _ in range(rng.randint(1, 5))) for _ in range(max(1, n // 3))]
    words = []
    for _ in range(rng.randint(1, n)):
        w = list(rng.choice(base))
        rng.shuffle(w)
        words.append("".join(w))
    return [words]


def most_frequent_word(text, *, rank, tie_last, min_len, stop, with_count):
    counts = {}
    for raw in text.lower().split():
        word = "".join(ch for ch in raw if "a" <= ch <= "z")
        if len(word) >= min_len and word and word != stop:
            counts[word] = counts.get(word, 0) + 1
    order = sorted(counts, key=lambda w: (-counts[w], [-ord(c) for c in w] + [1] if tie_last else w))
    if len(order) < rank:
        return ""
    word = order[rank - 1]
    return f"{word}:{counts[word]}" if with_count else word


VOCAB = ["apple", "Bear", "cat", "dog", "echo", "fig", "gold", "ox", "ivy"]


def _word_variant(rng: random.Random) -> dict[str, Any]:
    return {"rank": rng.randint(1, 3), "tie_last": rng.random() < 0.5, "min_len": rng.randint(1, 4),
            "stop": rng.choice(["", "apple", "bear", "cat", "dog", "echo", "fig", "gold"]),
            "with_count": rng.random() < 0.5}


def _word_spec(p: dict[str, Any]) -> str:
    which = {1: "most frequent", 2: "second most frequent", 3: "third most frequent"}[p["rank"]]
    stop = f", and ignore the word {p['stop']!r}" if p["stop"] else ""
    tie = "the alphabetically last" if p["tie_last"] else "the alphabetically first"
    count = " as \"word:count\" (e.g. \"cat:3\")" if p["with_count"] else ""
    return (f"Split the text on whitespace, lowercase each piece and keep only its letters a-z; ignore the "
            f"resulting words shorter than {p['min_len']} letters (and empty ones){stop}. Rank the words by how "
            f"often they occur, more often first, and among equally frequent words {tie} first. Return the {which} "
            f"word{count}, or \"\" when there are not that many distinct words.")


def _text(rng: random.Random, n: int, p: dict[str, Any]) -> list[Any]:
    return [" ".join(rng.choice(VOCAB) + rng.choice(["", "", ",", ".", "!"]) for _ in range(rng.randint(1, 2 * n)))]


def merge_intervals(intervals, *, gap, min_len, descending, as_length):
    out = []
    for start, end in sorted(intervals):
        if out and start <= out[-1][1] + gap:
            out[-1][1] = max(out[-1][1], end)
        else:
            out.append([start, end])
    out = [[s, e - s if as_length else e] for s, e in out if e - s >= min_len]
    return out[::-1] if descending else out


def _merge_variant(rng: random.Random) -> dict[str, Any]:
    return {"gap": rng.randint(-1, 9), "min_len": rng.randint(0, 5), "descending": rng.random() < 0.5,
            "as_length": rng.random() < 0.5}


def _merge_spec(p: dict[str, Any]) -> str:
    join = {-1: "overlap (share more than one point; [1, 2] and [2, 3] stay apart)",
            0: "overlap or touch ([1, 2] and [2, 3] merge)"}.get(
        p["gap"], f"overlap or are at most {p['gap']} apart ([1, 2] and [{2 + p['gap']}, 9] merge)")
    drop = f" Drop the merged intervals shorter than {p['min_len']} (end - start)." if p["min_len"] else ""
    order = "by start, largest first" if p["descending"] else "by start, smallest first"
    form = "[start, length] with length = end - start" if p["as_length"] else "[start, end]"
    return (f"Merge closed intervals [start, end] that {join}, repeatedly, until no two can merge.{drop} Return "
            f"them sorted {order}, each as {form}.")


def _intervals(rng: random.Random, n: int, p: dict[str, Any]) -> list[Any]:
    out = []
    for _ in range(rng.randint(1, n)):
        a = rng.randint(0, 5 * n)
        out.append([a, a + rng.randint(0, 6)])
    return [out]


def eval_rpn(tokens, *, modulus, reverse_minus):
    stack = []
    for t in tokens:
        if t in ("+", "-", "*"):
            b, a = stack.pop(), stack.pop()
            if t == "+":
                value = a + b
            elif t == "-":
                value = b - a if reverse_minus else a - b
            else:
                value = a * b
            stack.append(value % modulus)
        else:
            stack.append(int(t) % modulus)
    return stack[-1]


def _rpn_variant(rng: random.Random) -> dict[str, Any]:
    return {"modulus": rng.choice([p for p in PRIMES if p < 1000] + list(range(11, 100))),
            "reverse_minus": rng.random() < 0.5}


def _rpn_spec(p: dict[str, Any]) -> str:
    minus = ("on this machine '-' subtracts the first operand from the second (\"5 2 -\" is -3)" if p["reverse_minus"]
             else "'-' subtracts the second operand from the first (\"5 2 -\" is 3)")
    return (f"Evaluate an integer expression in reverse Polish notation with the operators +, - and * (every token "
            f"is an integer or an operator; the expression is well formed); {minus}. All arithmetic is modulo "
            f"{p['modulus']}: reduce every number and every intermediate result to 0..{p['modulus'] - 1}. Return "
            "the result.")


def _rpn(rng: random.Random, n: int, p: dict[str, Any]) -> list[Any]:
    tokens = [str(rng.randint(-9, 99))]
    for _ in range(rng.randint(0, n)):
        tokens.append(str(rng.randint(-9, 99)))
        tokens.append(rng.choice("+-**"))
    return [tokens]


def split_csv_line(line, *, sep, quote, strip, drop_empty, backslash, comment):
    fields, field, quoted, i = [], "", False, 0
    while i < len(line):
        ch = line[i]
        if quoted:
            if backslash and ch == "\\" and i + 1 < len(line):
                field += line[i + 1]
                i += 1
            elif not backslash and ch == quote and i + 1 < len(line) and line[i + 1] == quote:
                field += quote
                i += 1
            elif ch == quote:
                quoted = False
            else:
                field += ch
        elif ch == quote:
            quoted = True
        elif comment and ch == comment:
            break
        elif ch == sep:
            fields.append(field)
            field = ""
        else:
            field += ch
        i += 1
    fields.append(field)
    if strip:
        fields = [f.strip() for f in fields]
    return [f for f in fields if f] if drop_empty else fields


def _csv_variant(rng: random.Random) -> dict[str, Any]:
    return {"sep": rng.choice([",", ";", "|", "\t", ":", "/", "^", "~"]), "quote": rng.choice(['"', "'"]),
            "strip": rng.random() < 0.5, "drop_empty": rng.random() < 0.5, "backslash": rng.random() < 0.5,
            "comment": rng.choice(["", "#", "%", "!"])}


def _csv_spec(p: dict[str, Any]) -> str:
    escape = (f"inside quotes a backslash makes the next character literal (\\{p['quote']} is one quote)"
              if p["backslash"] else f"inside quotes {p['quote'] * 2} stands for one quote character")
    strip = " Strip spaces from both ends of every field." if p["strip"] else ""
    drop = " Leave out empty fields." if p["drop_empty"] else ""
    comment = (f" An unquoted {p['comment']!r} starts a comment: it and the rest of the line are not part of any "
               "field." if p["comment"] else "")
    return (f"Split one line of delimited text into its fields: fields are separated by {p['sep']!r}; a field in "
            f"{p['quote']} quotes may hold the separator, and {escape}. The quotes themselves are not part of the "
            f"field.{comment}{strip}{drop} Return the list of fields.")


def _csv(rng: random.Random, n: int, p: dict[str, Any]) -> list[Any]:
    q, sep = p["quote"], p["sep"]
    cells = []
    for _ in range(rng.randint(1, max(2, n // 2))):
        word = "".join(rng.choice(["a", "b", " ", sep, q, "#", "%", "!"][:5 + (rng.random() < 0.3) * 3])
                       for _ in range(rng.randint(0, 5)))
        if rng.random() < 0.5 or any(c in word for c in (sep, q, "#", "%", "!")):
            inner = word.replace("\\", "\\\\").replace(q, "\\" + q) if p["backslash"] else word.replace(q, q + q)
            word = q + inner + q
        cells.append(word)
    return [sep.join(cells)]


def coin_change_ways(coins, amount, *, modulus):
    ways = [1] + [0] * amount
    for c in coins:
        for v in range(c, amount + 1):
            ways[v] = (ways[v] + ways[v - c]) % modulus
    return ways[amount]


def _coins_variant(rng: random.Random) -> dict[str, Any]:
    return {"modulus": rng.choice(PRIMES)}


def _coins_spec(p: dict[str, Any]) -> str:
    return (f"Return the number of ways to make `amount` from unlimited coins of the given distinct values (order "
            f"does not matter), modulo {p['modulus']}. There is 1 way to make 0.")


def _coins(rng: random.Random, n: int, p: dict[str, Any]) -> list[Any]:
    return [sorted(rng.sample(range(1, 30), rng.randint(1, 5))), rng.randint(0, 20 * n)]


def count_components(n, edges, *, offline, span, min_size, largest):
    parent = list(range(n))

    def find(x):
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    def down(x):
        return offline and x % offline == 0

    for a, b in edges:
        if not down(a) and not down(b) and (not span or abs(a - b) <= span):
            parent[find(a)] = find(b)
    sizes = {}
    for x in range(n):
        if not down(x):
            sizes[find(x)] = sizes.get(find(x), 0) + 1
    kept = [s for s in sizes.values() if s >= min_size]
    return max(kept, default=0) if largest else len(kept)


def _graph_variant(rng: random.Random) -> dict[str, Any]:
    return {"offline": rng.choice([0, 0, 2, 3, 4, 5, 6, 7]), "span": rng.choice([0, 0, 1, 2, 3, 4, 5, 6, 8, 10]),
            "min_size": rng.randint(1, 4),
            "largest": rng.random() < 0.5}


def _graph_spec(p: dict[str, Any]) -> str:
    off = (f" Nodes whose number is a multiple of {p['offline']} (0 included) are offline: leave them and their "
           "edges out." if p["offline"] else "")
    span = (f" An edge only works when its two node numbers differ by at most {p['span']}; ignore the others."
            if p["span"] else "")
    size = f" with at least {p['min_size']} nodes" if p["min_size"] > 1 else ""
    report = (f"the number of nodes of the largest connected component{size} (0 when there is none)" if p["largest"]
              else f"the number of connected components{size}")
    return (f"An undirected graph has nodes 0..n-1 and the given edges (self-loops and repeats may occur).{off}{span} "
            f"Return {report}.")


def _graph(rng: random.Random, n: int, p: dict[str, Any]) -> list[Any]:
    nodes = rng.randint(1, n)
    return [nodes, [[rng.randrange(nodes), rng.randrange(nodes)] for _ in range(rng.randint(0, nodes))]]


def josephus(n, k, *, start, clockwise, growth, last_two):
    people = list(range(1, n + 1)) if clockwise else [1] + list(range(n, 1, -1))
    pos = people.index((start - 1) % n + 1)
    gone = []
    step = k
    while people:
        pos = (pos + step - 1) % len(people)
        gone.append(people.pop(pos))
        step += growth
    return gone[-2:] if last_two else gone[-1]


def _josephus_variant(rng: random.Random) -> dict[str, Any]:
    return {"start": rng.randint(1, 12), "clockwise": rng.random() < 0.5, "growth": rng.randint(0, 3),
            "last_two": rng.random() < 0.5}


def _josephus_spec(p: dict[str, Any]) -> str:
    way = "in increasing order of number (after n comes 1)" if p["clockwise"] else \
        "in decreasing order of number (after 1 comes n)"
    growth = f" After each person leaves, the count k grows by {p['growth']}." if p["growth"] else ""
    report = ("[second-to-last to leave, last to leave] (just [last] when n is 1)" if p["last_two"]
              else "the number of the last person left")
    return (f"n people stand in a circle numbered 1..n. Counting starts at person {p['start']} (person "
            f"(({p['start']} - 1) mod n) + 1 when n is smaller) and goes {way}; the k-th person counted leaves, and "
            f"counting goes on from the next one.{growth} Return {report}.")


def _josephus(rng: random.Random, n: int, p: dict[str, Any]) -> list[Any]:
    return [rng.randint(1, 10 * n), rng.randint(1, 12)]


RULES = {"conway": ([3], [2, 3]), "highlife": ([3, 6], [2, 3]), "seeds": ([2], []), "daynight": ([3, 6, 7, 8],
         [3, 4, 6, 7, 8]), "maze": ([3], [1, 2, 3, 4, 5]), "morley": ([3, 6, 8], [2, 4, 5]),
         "twobytwo": ([3, 6], [1, 2, 5]), "drylife": ([3, 7], [2, 3]), "lowlife": ([3], [1, 3]),
         "coral": ([3], [4, 5, 6, 7, 8])}
CELLS = [["#", "."], ["o", "."], ["X", "-"], ["1", "0"], ["@", " "]]


def life_step(grid, *, born, survive, steps, wrap, alive):
    on = alive[0]
    rows, cols = len(grid), len(grid[0]) if grid else 0
    cells = [[ch == on for ch in row] for row in grid]
    for _ in range(steps):
        nxt = []
        for r in range(rows):
            line = []
            for c in range(cols):
                count = 0
                for dr in (-1, 0, 1):
                    for dc in (-1, 0, 1):
                        if dr or dc:
                            rr, cc = r + dr, c + dc
                            if wrap:
                                rr, cc = rr % rows, cc % cols
                            elif not (0 <= rr < rows and 0 <= cc < cols):
                                continue
                            count += cells[rr][cc]
                line.append(count in survive if cells[r][c] else count in born)
            nxt.append(line)
        cells = nxt
    return ["".join(alive[0] if x else alive[1] for x in row) for row in cells]


def _life_variant(rng: random.Random) -> dict[str, Any]:
    name = rng.choice(sorted(RULES))
    return {"born": RULES[name][0], "survive": RULES[name][1], "steps": rng.randint(1, 3),
            "wrap": rng.random() < 0.5, "alive": rng.choice(CELLS)}


def _life_spec(p: dict[str, Any]) -> str:
    edge = ("The grid wraps around (a torus: the row above the first is the last, and so on for columns; on a "
            "grid 1 or 2 wide a cell may count one neighbour several times)." if p["wrap"]
            else "Cells outside the grid are dead.")
    survive = ", ".join(map(str, p["survive"])) or "no count"
    return (f"A cellular automaton on a grid of {p['alive'][0]!r} (alive) and {p['alive'][1]!r} (dead). Each step, "
            f"a dead cell with exactly {' or '.join(map(str, p['born']))} live neighbours (of its 8) comes alive, "
            f"and a live cell stays alive with {survive} live neighbours, else dies. {edge} Return the grid after "
            f"{p['steps']} step(s), in the same form.")


def _life(rng: random.Random, n: int, p: dict[str, Any]) -> list[Any]:
    rows, cols = rng.randint(1, max(2, n // 3)), rng.randint(1, max(2, n // 3))
    on, off = p["alive"]
    return [["".join(rng.choice([on, off, off]) for _ in range(cols)) for _ in range(rows)]]


MEDIUM = [
    Family("count_anagram_classes", count_anagram_classes, "words: list[str]", _anagram_spec, _anagram_variant,
           _anagrams, lambda p: [[[]], [["ab", "ba", "ab"]]]),
    Family("most_frequent_word", most_frequent_word, "text: str", _word_spec, _word_variant, _text,
           lambda p: [[""], ["!! ?"]]),
    Family("merge_intervals", merge_intervals, "intervals: list[list[int]]", _merge_spec, _merge_variant,
           _intervals, lambda p: [[[]], [[[1, 2], [2, 3]]], [[[1, 2], [4, 5]]]]),
    Family("eval_rpn", eval_rpn, "tokens: list[str]", _rpn_spec, _rpn_variant, _rpn,
           lambda p: [[["7"]], [["-3", "4", "*"]], [["5", "2", "-"]]]),
    Family("split_csv_line", split_csv_line, "line: str", _csv_spec, _csv_variant, _csv,
           lambda p: [[""], [f"{p['quote']}a{p['sep']}b{p['quote']}{p['sep']} c "]]),
    Family("coin_change_ways", coin_change_ways, "coins: list[int], amount: int", _coins_spec, _coins_variant,
           _coins, lambda p: [[[5], 0], [[2], 3], [[1, 2, 5, 10], 900]]),
    Family("count_components", count_components, "n: int, edges: list[list[int]]", _graph_spec, _graph_variant,
           _graph, lambda p: [[1, []], [3, [[0, 0]]]]),
    Family("josephus", josephus, "n: int, k: int", _josephus_spec, _josephus_variant, _josephus,
           lambda p: [[1, 5], [7, 1]]),
    Family("life_step", life_step, "grid: list[str]", _life_spec, _life_variant, _life,
           lambda p: [[[p["alive"][0]]], [[p["alive"][0] * 3]]]),
]
