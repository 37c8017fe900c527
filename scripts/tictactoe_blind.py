"""How well can a policy that never looks at the board do at tictactoe? Searches every blind move sequence.

    python scripts/tictactoe_blind.py [-n 1000] [--row-by-row]

For each difficulty group, draws n task identities (bootcamp tictactoe, split "blind") and finds the move
sequence (up to 5 distinct numbers: X never moves more often) that scores 1.0 on the most of them, played one
move a turn until the game ends, as a model would. Prints that best sequence and its share per group. With
--row-by-row the games keep the classic 1-9 numbering (the bootcamp's `shuffle_labels: false`).
Note: the best of 15,120 sequences is chosen on the same n tasks, so its share is biased upward.
"""
from __future__ import annotations

import argparse
import time
from collections import defaultdict

from bc_common.tasks import TaskSet
from bootcamps.tictactoe.game import labels_of, opening_board, opponent_move, place, winner

MAX_X_MOVES = 5


def good_prefixes(identity: dict) -> list[tuple[int, ...]]:
    """The move sequences (as numbers named) that end this game in a win or a draw."""
    seed, skill, labels = identity["seed"], identity["skill"], labels_of(identity)
    found: list[tuple[int, ...]] = []

    def walk(board: str, prefix: tuple[int, ...]) -> None:
        for cell in range(1, 10):
            if board[cell - 1] != " ":
                continue  # this number is taken: every sequence going on with it is illegal
            played = prefix + (labels[cell - 1],)
            after = place(board, cell, "X")
            if winner(after) or " " not in after:
                found.append(played)
                continue
            reply = place(after, opponent_move(after, seed, skill), "O")
            if winner(reply):
                continue
            if " " not in reply:
                found.append(played)
                continue
            walk(reply, played)

    walk(opening_board(identity), ())
    return found


def best_blind_sequence(identities: list[dict]) -> tuple[int, tuple[int, ...]]:
    """(tasks scored 1.0, sequence) for the best blind sequence: the heaviest path in the trie of good prefixes
    (a sequence meets at most one good prefix per task: the game ends there)."""
    weight: dict[tuple[int, ...], int] = defaultdict(int)
    for identity in identities:
        for prefix in good_prefixes(identity):
            weight[prefix] += 1

    def best(prefix: tuple[int, ...]) -> tuple[int, tuple[int, ...]]:
        top: tuple[int, tuple[int, ...]] = (0, prefix)
        if len(prefix) < MAX_X_MOVES:
            for n in range(1, 10):
                if n not in prefix:
                    top = max(top, best(prefix + (n,)), key=lambda t: t[0])
        return weight.get(prefix, 0) + top[0], top[1]

    return best(())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("-n", type=int, default=1000)
    parser.add_argument("--row-by-row", action="store_true", help="classic numbering (shuffle_labels false)")
    args = parser.parse_args()
    params = {"shuffle_labels": False} if args.row_by_row else {}
    start = time.perf_counter()
    for group in ("easy", "medium", "hard"):
        tasks = TaskSet("tictactoe", seed=0, split="blind", groups=[group], params=params)
        identities = [tasks.identity(i) for i in range(args.n)]
        count, sequence = best_blind_sequence(identities)
        print(f"{group:<7} best blind sequence {','.join(map(str, sequence)):<10} scores 1.0 on "
              f"{count}/{args.n} = {count / args.n:.1%}")
    print(f"({time.perf_counter() - start:.0f} s)")


if __name__ == "__main__":
    main()
