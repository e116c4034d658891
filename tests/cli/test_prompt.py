"""``splendor play``: moves grouped, and the second question for what a move leaves open."""

from __future__ import annotations

import io
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from splendor import (
    NOBLES,
    Buy,
    GameRecord,
    GameState,
    Gem,
    ReserveFromDeck,
    Take,
    Tokens,
    format_action,
    format_record,
    legal_actions,
    parse_action,
    parse_record,
    view,
)
from splendor.cli import main
from splendor.cli.choices import choose, find_move, moves, stem
from splendor.cli.output import Output
from splendor.cli.prompt import action_groups, ask
from tests.builders import bonus_cards, deal, with_nobles, with_player


def lines_from(answers: list[str], prompts: list[str] | None = None) -> Callable[[str], str]:
    """A ``read`` giving the answers in turn (noting the prompts), then end of input."""
    feed: Iterator[str] = iter(answers)

    def read(prompt: str) -> str:
        if prompts is not None:
            prompts.append(prompt)
        try:
            return next(feed)
        except StopIteration:
            raise EOFError from None

    return read


def at_ten_tokens(path: Path) -> GameRecord:
    """A 4-player record where seat 0, to move, holds 10 tokens (2W 3B 3G 1R 1K).

    The other seats reserve from the decks, then take gems.
    """
    record = GameRecord.start(4, seed=4, names=("You", "P1 greedy", "P2 greedy", "P3 greedy"))
    plan = iter(["+WBG", "+RKW", "+BB", "+GG"])
    while True:
        state = record.final_state()
        if state.current_player == 0:
            if state.players[0].tokens.total == 10:
                break
            record = record.append(parse_action(next(plan), state))
            continue
        actions = legal_actions(state)
        blind = [a for a in actions if isinstance(a, ReserveFromDeck)]
        takes = [a for a in actions if isinstance(a, Take) and not a.returned]
        record = record.append((blind or takes)[0])
    path.write_text(format_record(record), encoding="utf-8")
    return record


def play(path: Path, answers: list[str]) -> tuple[str, GameRecord]:
    out = io.StringIO()
    code = main(["play", "--resume", str(path), "--no-color"], stdout=out, read=lines_from(answers))
    assert code == 0
    return out.getvalue(), parse_record(path.read_text(encoding="utf-8"))


def test_a_take_over_the_limit_asks_which_tokens_to_give_back(tmp_path: Path) -> None:
    before = at_ten_tokens(tmp_path / "game.txt")
    text, after = play(tmp_path / "game.txt", ["+WBR", "kbb", "q"])
    assert "+WBR takes you to 13 tokens: give back 3." in text
    assert "Give back which? (a number, or e.g. -K; Enter to go back): " not in text  # a prompt
    played = after.actions[len(before.actions)]
    assert played == Take(Tokens(white=1, blue=1, red=1), returned=Tokens(blue=2, black=1))
    assert "You play +WBR-BBK: take 1W 1B 1R, return 2B 1K" in text


def test_a_choice_by_number_and_enter_to_go_back(tmp_path: Path) -> None:
    before = at_ten_tokens(tmp_path / "game.txt")
    prompts: list[str] = []
    read = lines_from(["take white blue red", "", "+WBR", "99", "1", "q"], prompts)
    out = io.StringIO()
    main(["play", "--resume", str(tmp_path / "game.txt"), "--no-color"], stdout=out, read=read)
    assert prompts[:5] == [
        "Your move: ",
        "Give back which? (a number, or e.g. -GGG; Enter to go back): ",
        "Your move: ",
        "Give back which? (a number, or e.g. -GGG; Enter to go back): ",
        "Give back which? (a number, or e.g. -GGG; Enter to go back): ",
    ]
    assert "Not one of the choices: '99'; give a number 1 to 29, or q to go back." in out.getvalue()
    state = before.final_state()
    first = next(a for a in legal_actions(state) if stem(a) == Take(Tokens(white=1, blue=1, red=1)))
    after = parse_record((tmp_path / "game.txt").read_text(encoding="utf-8"))
    assert after.actions[len(before.actions)] == first


def test_a_wrong_number_of_tokens_given_back_says_why_then_asks(tmp_path: Path) -> None:
    at_ten_tokens(tmp_path / "game.txt")
    text, _ = play(tmp_path / "game.txt", ["+WBR-K", "GGG", "q"])
    assert "Not allowed: exactly 3 tokens must be returned" in text
    assert "You play +WBR-GGG" in text


def test_the_moves_list_shows_each_take_once_and_says_tokens_go_back(tmp_path: Path) -> None:
    record = at_ten_tokens(tmp_path / "game.txt")
    state = record.final_state()
    groups = {
        name: (items, note) for name, items, note in action_groups(legal_actions(state), state)
    }
    takes, note = groups["Take"]
    assert (
        len(takes)
        == len(set(takes))
        == len({stem(a) for a in legal_actions(state) if isinstance(a, Take)})
    )
    assert "+WBR" in takes
    assert not any("-" in item for item in takes)
    assert note == "then you give tokens back: you will be asked which"
    assert len(legal_actions(state)) > 2 * len(takes)


def test_a_forbidden_take_of_four_colours_gets_a_hint() -> None:
    out = io.StringIO()
    main(["play", "--seed", "1", "--no-color"], stdout=out, read=lines_from(["+WBGR", "q"]))
    assert "Not allowed: cannot take 1W 1B 1G 1R" in out.getvalue()
    assert "(a take is up to 3 gems of different colours, or 2 of one colour)" in out.getvalue()


def gold_buyer() -> tuple[GameState, Buy]:
    """Seat 0 can buy a card paying its cost or putting gold in: several payments."""
    state = deal(2, seed=1)
    card = next(c for c in state.board[0] if c is not None and c.cost.total >= 3)
    state = with_player(state, tokens=card.cost + Tokens(gold=2))
    buy = next(a for a in legal_actions(state) if isinstance(a, Buy) and a.card == card)
    return state, buy


@pytest.mark.parametrize(("answer", "gold"), [("", 0), ("2", 1)])
def test_a_buy_that_can_be_paid_several_ways_asks_how(answer: str, gold: int) -> None:
    state, buy = gold_buyer()
    seen = view(state, 0)
    move = next(m for m in moves(legal_actions(state), seen) if buy in m.actions)
    assert move.payments > 2
    out = io.StringIO()
    chosen = choose(move, seen, Output(out, color=False), lines_from([answer]))
    assert isinstance(chosen, Buy)
    assert chosen.payment is not None
    assert chosen.payment[Gem.GOLD] == gold
    assert " (default)" in out.getvalue().splitlines()[1]
    assert out.getvalue().startswith("Pay how? The default pays coloured tokens first")


def two_nobles() -> GameState:
    """Seat 0 already meets two nobles' requirements: each move comes with a choice."""
    first, second = NOBLES[0], NOBLES[1]
    needs = Tokens(
        *(
            max(a, b)
            for a, b in zip(first.requirement.counts, second.requirement.counts, strict=True)
        )
    )
    state = with_nobles(deal(2, seed=2), [first, second])
    return with_player(state, cards=bonus_cards(needs))


def test_a_move_that_brings_one_of_several_nobles_asks_which() -> None:
    state = two_nobles()
    seen = view(state, 0)
    found = moves(legal_actions(state), seen)
    move = find_move("take white blue green", found, seen)
    assert move is not None
    assert move.nobles == 2
    out = io.StringIO()
    chosen = choose(move, seen, Output(out, color=False), lines_from([f"n{NOBLES[1].id}"]))
    assert chosen is not None
    assert chosen.noble == NOBLES[1]
    assert "Several nobles can come" in out.getvalue()
    assert format_action(chosen, seen).endswith(f"n{NOBLES[1].id}")


def test_going_back_from_a_question_gives_no_action() -> None:
    state = two_nobles()
    seen = view(state, 0)
    move = moves(legal_actions(state), seen)[0]
    assert choose(move, seen, Output(io.StringIO(), color=False), lines_from(["q"])) is None
    with pytest.raises(EOFError):
        choose(move, seen, Output(io.StringIO(), color=False), lines_from([]))


def test_a_text_naming_no_move_finds_nothing() -> None:
    state = deal(2, seed=1)
    found = moves(legal_actions(state), state)
    assert find_move("+WBGR", found, state) is None
    assert find_move("b99", found, state) is None


def never_saves(path: str | None, *, quitting: bool = False) -> None:
    raise AssertionError("nothing to save here")


def test_at_the_prompt_a_buy_without_a_payment_asks_and_one_with_a_payment_does_not() -> None:
    state, buy = gold_buyer()
    seen = view(state, 0)
    actions = legal_actions(state)
    place = format_action(stem(buy), seen)
    prompts: list[str] = []
    out = Output(io.StringIO(), color=False)
    default = ask(seen, actions, out, lines_from([place, ""], prompts), never_saves)
    assert default == parse_action(place, seen)
    assert prompts == ["Your move: ", "Pay? (a number, or e.g. =RRY; Enter for the default): "]
    prompts.clear()
    paid = ask(seen, actions, out, lines_from([f"{place}=KKKY"], prompts), never_saves)
    assert isinstance(paid, Buy)
    assert paid.payment == Tokens(black=3, gold=1)
    assert prompts == ["Your move: "]
