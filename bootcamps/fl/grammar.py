"""Context-free grammars in Chomsky normal form for the fl tasks: random draws, the words each nonterminal derives
up to a length (with their parse-tree counts, capped), the CYK parse-tree count of one word, and the rules in
text."""
from __future__ import annotations

import random
from typing import Any

Grammar = dict[str, list[list[str]]]  # nonterminal -> bodies: [Y, Z] (two nonterminals) or [letter]
CAP = 2  # parse trees are counted up to this many (one or more than one is all the tasks ask)
POOL = "abcdefghijkl"  # a grammar's terminals are drawn from these: one grammar's word rarely fits another's


def random_grammar(rng: random.Random, nonterminals: int, alphabet: str, binary: int = 1,
                   terminal: float = 0.8) -> Grammar:
    """`S` and the next capitals as nonterminals: S with two rules X -> Y Z, every other one with `binary` of them
    and, with probability `terminal`, one rule X -> letter (few rules keep the language sparse)."""
    names = ["S", *"ABCDEFGH"[:nonterminals - 1]]
    grammar: Grammar = {}
    for x in names:
        bodies: list[list[str]] = []
        while len(bodies) < (2 if x == "S" else binary):
            body = [rng.choice(names), rng.choice(names)]
            if body not in bodies:
                bodies.append(body)
        if x != "S" and rng.random() < terminal:
            bodies.append([rng.choice(alphabet)])
        grammar[x] = bodies
    return grammar


def derived(grammar: Grammar, longest: int) -> dict[str, list[dict[str, int]]]:
    """`table[X][n]`: every word of n letters X derives, with its number of parse trees (capped at CAP)."""
    table = {x: [dict() for _ in range(longest + 1)] for x in grammar}  # type: ignore[var-annotated]
    for x, bodies in grammar.items():
        for body in bodies:
            if len(body) == 1 and longest >= 1:
                table[x][1][body[0]] = min(CAP, table[x][1].get(body[0], 0) + 1)
    for n in range(2, longest + 1):
        for x, bodies in grammar.items():
            out = table[x][n]
            for body in bodies:
                if len(body) != 2:
                    continue
                y, z = body
                for i in range(1, n):
                    right = table[z][n - i]
                    if not right:
                        continue
                    for w1, c1 in table[y][i].items():
                        for w2, c2 in right.items():
                            w = w1 + w2
                            out[w] = min(CAP, out.get(w, 0) + c1 * c2)
    return table


def derivable_lengths(grammar: Grammar, longest: int) -> dict[str, set[int]]:
    """The word lengths (up to `longest`) each nonterminal derives."""
    can = {x: {1} if any(len(b) == 1 for b in bodies) else set() for x, bodies in grammar.items()}
    for n in range(2, longest + 1):
        for x, bodies in grammar.items():
            if any(len(b) == 2 and any(i in can[b[0]] and n - i in can[b[1]] for i in range(1, n)) for b in bodies):
                can[x].add(n)
    return can


def tree_counts(grammar: Grammar, longest: int) -> dict[str, list[int]]:
    """`counts[X][n]`: how many parse trees X has over all words of n letters (at least the number of those words;
    no word is listed, so this stays cheap where `derived` is not)."""
    counts = {x: [0] * (longest + 1) for x in grammar}
    for x, bodies in grammar.items():
        if longest >= 1:
            counts[x][1] = sum(len(b) == 1 for b in bodies)
    for n in range(2, longest + 1):
        for x, bodies in grammar.items():
            counts[x][n] = sum(counts[b[0]][i] * counts[b[1]][n - i] for b in bodies if len(b) == 2
                               for i in range(1, n))
    return counts


def sample_word(grammar: Grammar, can: dict[str, set[int]], x: str, n: int, rng: random.Random) -> str:
    """A random word of n letters that x derives (`can` from `derivable_lengths`; n must be in can[x])."""
    if n == 1:
        return rng.choice([b[0] for b in grammar[x] if len(b) == 1])
    splits = [(b, i) for b in grammar[x] if len(b) == 2 for i in range(1, n) if i in can[b[0]] and n - i in can[b[1]]]
    (y, z), i = rng.choice(splits)
    return sample_word(grammar, can, y, i, rng) + sample_word(grammar, can, z, n - i, rng)


def parse_trees(grammar: Grammar, word: str) -> int:
    """How many parse trees `S` has for `word` (CYK, counts capped at CAP)."""
    n = len(word)
    if n == 0:
        return 0
    cell: dict[tuple[int, int], dict[str, int]] = {}
    for i, ch in enumerate(word):
        cell[i, 1] = {x: min(CAP, sum(body == [ch] for body in bodies)) for x, bodies in grammar.items()
                      if [ch] in bodies}
    for length in range(2, n + 1):
        for i in range(n - length + 1):
            here: dict[str, int] = {}
            for k in range(1, length):
                left, right = cell[i, k], cell[i + k, length - k]
                if not left or not right:
                    continue
                for x, bodies in grammar.items():
                    for body in bodies:
                        if len(body) == 2 and body[0] in left and body[1] in right:
                            here[x] = min(CAP, here.get(x, 0) + left[body[0]] * right[body[1]])
            cell[i, length] = here
    return cell[0, n].get("S", 0)


def rules_text(grammar: Grammar) -> str:
    return "\n".join(f"{x} -> " + " | ".join(" ".join(body) for body in bodies) for x, bodies in grammar.items())


def to_json(grammar: Grammar) -> dict[str, Any]:
    return {x: [list(b) for b in bodies] for x, bodies in grammar.items()}
