"""holdem beyond the conformance suite: the fast evaluator against pokerkit, exact equity against a brute force
with pokerkit's evaluator, the EV labels, illegal actions, whole hands, and the cheats that must fail."""
from __future__ import annotations

import asyncio
import itertools
import random
from typing import Any

import orjson
import pytest

pytest.importorskip("pokerkit")

from pokerkit import StandardHighHand  # noqa: E402

from bc_common.errors import ToolError  # noqa: E402
from bc_common.seeding import RecordRandom  # noqa: E402
from bootcamps.holdem.actions import Action, legalize, menu, parse_action  # noqa: E402
from bootcamps.holdem.credit import legal_values  # noqa: E402
from bootcamps.holdem.equity import combo_equities  # noqa: E402
from bootcamps.holdem.ev import Spot  # noqa: E402
from bootcamps.holdem.evaluator import (  # noqa: E402
    BoardEvaluator,
    card_str,
    cards_str,
    category_of,
    evaluate,
    parse_cards,
)
from bootcamps.holdem.generator import HoldemInstructionGenerator  # noqa: E402
from bootcamps.holdem.hand import replay  # noqa: E402
from bootcamps.holdem.interaction import HoldemInteraction  # noqa: E402
from bootcamps.holdem.policy import HoldemPolicy  # noqa: E402
from bootcamps.holdem.ranges import parse_range, share_weights, weighted_range  # noqa: E402
from bootcamps.holdem.reward import HoldemRewardCalculator  # noqa: E402
from bootcamps.holdem.tools import EquityTool, HandStrengthTool, PotOddsTool  # noqa: E402

VERIFY = HoldemRewardCalculator.verify_score


def _pk(cards: list[int]) -> int:
    return StandardHighHand.from_game(cards_str(cards)).entry.index


def _agrees_with_pokerkit(hands: list[list[int]]) -> None:
    """Sorting by our value must sort pokerkit's strength index, with equal values exactly where pokerkit ties."""
    ranked = sorted((evaluate(h), _pk(h), cards_str(h)) for h in hands)
    for (v0, p0, h0), (v1, p1, h1) in itertools.pairwise(ranked):
        assert (v0 == v1) == (p0 == p1) and p0 <= p1, (h0, h1)


def test_evaluator_agrees_with_pokerkit_on_every_7_card_hand_of_a_reduced_deck() -> None:
    # straight flushes and royals (spades), quads and full houses (aces, kings), the wheel (5-4-3-2 with an ace)
    deck = parse_cards("AsKsQsJsTs9s AhAdAc KhKd 5h4d3c2h")
    hands = [list(h) for h in itertools.combinations(deck, 7)]
    assert len(hands) == 6435
    _agrees_with_pokerkit(hands)
    assert {category_of(evaluate(h)) for h in hands} >= {"straight flush", "four of a kind", "full house", "flush",
                                                         "straight", "three of a kind", "two pair", "one pair"}


def test_evaluator_agrees_with_pokerkit_on_5_and_6_card_hands_and_random_7_card_hands() -> None:
    deck = parse_cards("AsKsQs9s5s Ah9h8h7h6h 5d4d3c2c")
    _agrees_with_pokerkit([list(h) for h in itertools.combinations(deck, 5)][::3])
    _agrees_with_pokerkit([list(h) for h in itertools.combinations(deck, 6)][::7])
    rng = random.Random(5)
    _agrees_with_pokerkit([rng.sample(range(52), 7) for _ in range(1500)])


@pytest.mark.parametrize("cards,category", [
    ("AsKsQsJsTs", "straight flush"), ("9h8h7h6h5h2c3d", "straight flush"), ("5d4d3d2dAd", "straight flush"),
    ("7c7d7h7sKd", "four of a kind"), ("QcQdQhJsJd2c", "full house"), ("2c2d2hAsAdKsKh", "full house"),
    ("Ah9h7h4h2h", "flush"), ("AsKdQhJcTs", "straight"), ("5c4d3h2sAd", "straight"), ("9c8d7h6s5d", "straight"),
    ("8c8d8hAsKd", "three of a kind"), ("JcJdTcTd2s", "two pair"), ("AcAd9h5s3d", "one pair"),
    ("AcQd9h5s3d", "high card"),
])
def test_standard_category_examples(cards: str, category: str) -> None:
    hand = parse_cards(cards)
    assert category_of(evaluate(hand)) == category
    assert StandardHighHand.from_game(cards).entry.label.value.lower() == category


def test_board_evaluator_equals_evaluate() -> None:
    rng = random.Random(9)
    for size in (3, 4, 5):
        for _ in range(200):
            cards = rng.sample(range(52), size + 2)
            assert BoardEvaluator(cards[2:]).value(cards[0], cards[1]) == evaluate(cards)


def test_exact_equity_matches_a_brute_force_with_pokerkits_evaluator() -> None:
    hero, board = parse_cards("AhQh"), parse_cards("Qs9h4c2h")
    combos = [tuple(parse_cards(c)) for c in ("KhJh", "9c9d", "AsKs", "QcJd")]
    ours = combo_equities(hero, board, combos)
    for combo, equity in zip(combos, ours, strict=True):
        won = total = 0.0
        for river in range(52):
            if river in hero + board + list(combo):
                continue
            mine = StandardHighHand.from_game(cards_str(hero), cards_str(board + [river]))
            theirs = StandardHighHand.from_game(cards_str(combo), cards_str(board + [river]))
            won += 1.0 if mine > theirs else 0.5 if mine == theirs else 0.0
            total += 1
        assert equity == pytest.approx(won / total, abs=1e-12), cards_str(combo)


def test_range_shares_partition_the_range_and_ties_split() -> None:
    combos, weights = weighted_range("22+, AKs, AKo")
    board = parse_cards("Kd7c2h")
    top = share_weights(combos, weights, board, 0.3)
    bottom = share_weights(combos, weights, board, 0.7, top=False)
    live = [i for i, (a, b) in enumerate(combos) if a not in board and b not in board]
    assert sum(top) == pytest.approx(0.3 * len(live))
    for i in live:
        assert top[i] + bottom[i] == pytest.approx(1.0)
    # the set of deuces (22 on a deuce board) is the strongest: always in the top share
    assert all(top[i] == 1.0 for i, (a, b) in enumerate(combos) if card_str(a)[0] == card_str(b)[0] == "2"
               and a not in board and b not in board)


def _decisions(n: int, **config: Any) -> list[dict[str, Any]]:
    gen = HoldemInstructionGenerator(**config)
    out = []
    for i in range(n):
        gen.rng = RecordRandom(1000 + i)
        out.append(gen.case_generator())
    return out


def _reference(identity: dict[str, Any]) -> list[dict[str, Any]]:
    """The reference's episode through the real tools and the interaction."""
    tools = {"hand_strength": HandStrengthTool(), "equity": EquityTool(), "pot_odds": PotOddsTool()}

    async def go() -> list[dict[str, Any]]:
        from bc_common.tool_runtime import ToolRuntime

        session = ToolRuntime(tools).session({n: {"identity": identity} for n in tools}, None)
        table = HoldemInteraction()
        iid = await table.start_interaction(None, identity=identity)
        policy = HoldemPolicy(identity, tools=list(tools))
        messages: list[dict[str, Any]] = [{"role": "user", "content": "play"}]
        for _ in range(12):
            msg = policy.respond(messages)
            messages.append(msg)
            if msg.get("tool_calls"):
                for call in msg["tool_calls"]:
                    result = await session.call(call["function"]["name"], call["function"]["arguments"])
                    messages.append({"role": "tool", "tool_call_id": call["id"], "content": result.text})
                continue
            done, text, _s, _e = await table.generate_response(iid, messages)
            if done:
                break
            messages.append({"role": "user", "content": text})
        await session.close()
        return messages

    return asyncio.run(go())


def test_decision_labels_have_a_clear_margin_and_the_reference_scores_one() -> None:
    for identity in _decisions(12):
        evs = identity["evs"]
        best = {k: (max(v.values()) if k == "raise" else v) for k, v in evs.items()}
        ranked = sorted(best.values(), reverse=True)
        assert ranked[0] - ranked[1] >= 0.06 * identity["spot"]["pot"] - 1e-6
        assert VERIFY(_reference(identity), identity) == 1.0
        assert str(identity["spot"]["pot"]) in HoldemInstructionGenerator(mode="decision").prompt_func(identity)


def test_illegal_sizes_score_zero() -> None:
    spot = Spot(pot=20, to_call=0, hero_bet=0, villain_bet=0, hero_stack=100, villain_stack=80, can_fold=False,
                min_raise_to=2, max_raise_to=100)
    sizes = menu(spot)
    assert sizes == [7, 10, 13, 20, 30, 100]
    assert isinstance(legalize(Action("raise", 1), spot), str)  # below the minimum
    assert isinstance(legalize(Action("raise", 101), spot), str)  # above the stack
    assert isinstance(legalize(Action("raise", 11), spot), str)  # off the menu
    assert isinstance(legalize(Action("call"), spot), str) and isinstance(legalize(Action("fold"), spot), str)
    assert legalize(Action("allin"), spot) == Action("raise", 100)
    identity = next(i for i in _decisions(10, streets="river") if i["menu"])
    for amount in (identity["spot"]["max_raise_to"] + 1, identity["menu"][0] - 1):
        table = orjson.dumps(legal_values(identity["evs"])).decode()
        assert VERIFY(f"<action>raise {amount}</action><evs>{table}</evs><equity>{identity['equity']}</equity>",
                      identity) == 0.0


def test_parse_action_reads_the_last_tag_and_rejects_junk() -> None:
    assert parse_action("x <action>call</action> y <action>raise to 40</action>") == Action("raise", 40)
    assert parse_action("<action>RAISE 12</action>") == Action("raise", 12)
    assert parse_action("<action>raise ١٢</action>") == Action("invalid")  # non-ASCII digits
    assert parse_action("<action>raise 1e9999</action>") == Action("invalid")
    assert parse_action("no tag") is None


def test_constant_call_stating_only_its_own_ev_earns_little_over_500_spots() -> None:
    spots = _decisions(500, streets="turn,river")
    call_best = 0
    credits = []
    for identity in spots:
        values = legal_values(identity["evs"])
        call_best += identity["best"]["kind"] == "call"
        # the most generous cheat: the constant action with its true EV and hero's true equity stated
        own = {"call": values["call"]} if "call" in values else {"check": values["check"]}
        action = "call" if "call" in values else "check"
        text = f"<action>{action}</action><evs>{orjson.dumps(own).decode()}</evs><equity>{identity['equity']}</equity>"
        credits.append(VERIFY(text, identity))
        assert credits[-1] <= 1 / len(values) + 1e-9  # one EV of the table stated
        assert VERIFY("<action>call</action><evs>{\"call\": 0}</evs><equity>0.5</equity>", identity) < 1.0
    assert sum(credits) / len(credits) < 0.2
    assert call_best < 0.5 * len(spots)
    kinds = {i["best"]["kind"] for i in spots}
    assert kinds == {"fold", "check", "call", "raise"}


def test_credit_is_the_table_share_times_the_ev_kept() -> None:
    identity = next(i for i in _decisions(20, streets="river") if i["best"]["kind"] == "raise")
    values = legal_values(identity["evs"])
    equity = identity["equity"]
    best = max(values, key=values.get)

    def verify(action: str, table: dict[str, float], stated_equity: float = equity) -> float:
        return VERIFY(f"<action>{action}</action><evs>{orjson.dumps(table).decode()}</evs>"
                      f"<equity>{stated_equity}</equity>", identity)

    assert verify(best, values) == 1.0
    assert verify(best, {("allin" if k == f"raise {identity['menu'][-1]}" else k): v for k, v in values.items()}) == 1.0
    assert verify(best, values, equity + 0.01) == 0.0  # the equity must be the spot's
    missing = dict(values)
    del missing[next(k for k in values if k != best)]
    assert verify(best, missing) == pytest.approx((len(values) - 1) / len(values))
    passive = "check" if "check" in values else "fold"
    lost = values[best] - values[passive]
    expected = max(0.0, 1 - lost / (identity["spot"]["pot"] / 4))
    assert verify(passive, values) == pytest.approx(expected) and expected < 1.0


@pytest.mark.parametrize("group", ["river_turn", "early", "hand"])
def test_passive_baselines_score_low(group: str) -> None:
    from bc_common.builtin_model import baseline_trajectory
    from bc_common.catalog import get_bootcamp
    from bc_common.environment import Environments
    from bc_common.tasks import TaskSet

    tasks = TaskSet(get_bootcamp("holdem"), seed=4, split="test", groups=[group])
    rows = [tasks[i] for i in range(25)]
    envs = Environments()
    for name in ("check_fold", "pot_odds"):
        async def run_all(name: str = name) -> list[dict[str, Any]]:
            return [await baseline_trajectory(r, envs.get(r["data_source"]), name) for r in rows]

        scores = [float(t["score"] or 0.0) for t in asyncio.run(run_all())]
        assert sum(scores) / len(scores) <= 0.25 and sum(s >= 1.0 for s in scores) <= 1, (group, name, scores)


def test_hand_reference_scores_one_and_the_interaction_agrees_with_the_verifier() -> None:
    for identity in _decisions(6, mode="hand"):
        messages = _reference(identity)
        assert VERIFY(messages, identity) == 1.0
        texts = [m["content"] for m in messages if m["role"] == "assistant" and not m.get("tool_calls")]
        assert len(texts) <= 4
        log = replay(identity, [(parse_action(t), None, 0.5) for t in texts])
        assert log.result in ("folded", "villain folded", "showdown")


def test_hand_illegal_action_ends_the_hand_with_zero_and_unfinished_hands_are_not_one() -> None:
    for identity in _decisions(10, mode="hand"):
        messages = _reference(identity)
        texts = [m["content"] for m in messages if m["role"] == "assistant" and not m.get("tool_calls")]
        if len(texts) >= 2:
            break
    table = HoldemInteraction()

    async def reply(text: str) -> tuple:
        iid = await table.start_interaction(None, identity=identity)
        return await table.generate_response(iid, [{"role": "assistant", "content": text}])

    illegal = "<action>raise 3</action><evs>{\"raise 3\": 1}</evs><equity>0.5</equity>"  # below the minimum
    done, text, score, extra = asyncio.run(reply(illegal))
    assert done and score == 0.0 and extra["result"] == "illegal" and "Illegal" in text
    assert VERIFY([illegal], identity) == 0.0
    assert VERIFY(texts, identity) == 1.0
    assert VERIFY(texts[:1], identity) < 1.0  # one good decision, then silence
    assert VERIFY([t.split("<equity>")[0] for t in texts], identity) == 0.0  # no equity stated
    assert VERIFY(texts + [texts[-1]], identity) == 0.0  # acting after the hand ended


def test_hand_villain_is_deterministic_and_the_deal_stays_out_of_the_prompt() -> None:
    identity = _decisions(1, mode="hand")[0]
    prompt = HoldemInstructionGenerator(mode="hand").prompt_func(identity)
    assert identity["villain"] not in prompt and identity["board"][:6] not in prompt
    moves = [(Action("call"), 0.0, 0.5), (Action("check"), 0.0, 0.5), (Action("check"), 0.0, 0.5)]
    assert replay(identity, moves).events == replay(identity, moves).events


def test_tools_compute_and_reject_bad_arguments() -> None:
    async def call(tool: Any, args: dict[str, Any]) -> str:
        iid = await tool.create(identity={})
        return (await tool.execute(iid, args))[0]

    assert '"hand":"Four of a kind"' in asyncio.run(call(HandStrengthTool(), {"cards": "7c7d7h7sKd2c"}))
    assert '"required_equity":0.25' in asyncio.run(call(PotOddsTool(), {"pot": 30, "to_call": 10}))
    out = asyncio.run(call(EquityTool(), {"hand": "AhAd", "board": "Kd7c2h9s3c", "range": "KK, 77",
                                          "shares": [0.5, 1.0]}))
    assert '"equity":0.0' in out and '"method":"exact"' in out
    for bad in ({"hand": "AhAh", "board": "", "range": "QQ"}, {"hand": "AhKd", "board": "Ah7c2d", "range": "QQ"},
                {"hand": "AhKd", "board": "", "range": "ZZ+"},
                {"hand": "AhKd", "board": "", "range": "QQ | top 2 @ preflop"}):
        with pytest.raises(ToolError):
            asyncio.run(call(EquityTool(), bad))
    assert len(parse_range("AKs")) == 4


def test_combo_equities_match_pairwise_evaluation_on_flush_boards() -> None:
    rng = random.Random(4)
    for board_text in ("2h5h9hJhKh", "2h5h9hJc", "2c7d9hJsKc", "AsKsQs2s"):
        board = parse_cards(board_text)
        deck = [c for c in range(52) if c not in board]
        hero = rng.sample(deck, 2)
        combos = [(a, b) for a, b in itertools.combinations(deck, 2) if a not in hero and b not in hero][::23]
        for (a, b), equity in zip(combos, combo_equities(hero, board, combos), strict=True):
            rivers = [[]] if len(board) == 5 else [[r] for r in deck if r not in (a, b, *hero)]
            shares = []
            for river in rivers:
                mine, theirs = evaluate(hero + board + river), evaluate([a, b] + board + river)
                shares.append(1.0 if mine > theirs else 0.5 if mine == theirs else 0.0)
            assert equity == pytest.approx(sum(shares) / len(shares), abs=1e-12)
