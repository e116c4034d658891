"""``splendor play``: giving tokens back over the limit, every way the rules allow.

The rules let a player give back any tokens at the limit, those just taken
included; ``legal_actions`` lists each outcome once, under one of the takes
that reach it. The prompt must offer, after any take, every outcome that take
reaches, and accept it as typed.
"""

from __future__ import annotations

import io
import random
import re
from collections import Counter
from collections.abc import Iterator, Sequence
from itertools import combinations

import pytest

from splendor import (
    GameState,
    Reserve,
    Take,
    Tokens,
    apply,
    is_legal,
    legal_actions,
    new_game,
    parse_action,
    view,
)
from splendor.cli.choices import moves
from splendor.cli.output import Output
from splendor.cli.prompt import Quit, ask
from splendor.core.actions import Action
from tests.builders import deal, toks, with_player
from tests.cli.test_prompt import lines_from, never_saves


def holding(tokens: str) -> GameState:
    """A 4-player deal (7 tokens of each colour, 5 gold) where seat 0 holds ``tokens``."""
    return with_player(deal(4, seed=1), tokens=toks(tokens))


def answered(state: GameState, answers: list[str]) -> tuple[Action, str, list[str]]:
    """The action the prompt reads from ``answers``, with what it wrote and asked."""
    prompts: list[str] = []
    out = io.StringIO()
    action = ask(
        view(state, 0),
        legal_actions(state),
        Output(out, color=False),
        lines_from(answers, prompts),
        never_saves,
    )
    return action, out.getvalue(), prompts


def test_the_take_of_the_report_offers_giving_back_a_gem_just_taken() -> None:
    # At 10 tokens (5W 5R), +BGK offered only -WWW -WWR -WRR -RRR and refused -KWW.
    state = holding("5W 5R")
    action, text, _ = answered(state, ["+BGK", "-KWW"])
    assert action == Take(toks("1B 1G 1K"), returned=toks("2W 1K"))
    assert action == parse_action("+BGK-KWW", state)
    assert is_legal(state, action)
    assert "Not one of the choices" not in text
    for option in ("-WWW", "-WWR", "-WRR", "-RRR", "-WWK", "-BGK"):
        assert re.search(rf"\d+\) {option}\b", text), option


@pytest.mark.parametrize(
    ("tokens", "answers", "returned"),
    [
        # Only colours held before the take.
        ("5W 5R", ["+BGK", "-WRR"], "1W 2R"),
        ("5W 5R", ["+BGK", "rrw"], "1W 2R"),
        # Some of the gems just taken, in any order and case.
        ("5W 5R", ["+BGK", "-kww"], "2W 1K"),
        ("5W 5R", ["+BGK", "- B G W"], "1W 1B 1G"),
        # All of them: the take changes nothing, which the rules allow.
        ("5W 5R", ["+BGK", "-BGK"], "1B 1G 1K"),
        # Gold, held before the take, alone or with gems just taken.
        ("4W 5R 1Y", ["+BGK", "-WWY"], "2W 1Y"),
        ("4W 5R 1Y", ["take blue green black", "-BKY"], "1B 1K 1Y"),
        # After a take of two: other colours, one of the two, or both.
        ("5W 5R", ["+BB", "-WR"], "1W 1R"),
        ("5W 5R", ["+BB", "-BW"], "1W 1B"),
        ("5W 5R", ["+BB", "-BB"], "2B"),
        # One to give back (at 8 tokens): a gem just taken.
        ("3W 5R", ["+BGK", "-K"], "1K"),
        ("3W 5R", ["+BGK", "1"], "1W"),
    ],
)
def test_every_kind_of_return_is_offered_and_accepted(
    tokens: str, answers: list[str], returned: str
) -> None:
    state = holding(tokens)
    action, text, prompts = answered(state, answers)
    assert isinstance(action, Take)
    assert action.returned == toks(returned)
    assert is_legal(state, action)
    assert "Not one of the choices" not in text
    assert prompts[1].startswith("Give back which? (a number, or e.g. -")
    # The same return typed whole at the move prompt is the same action.
    assert answered(state, [f"{answers[0]}-{returned}"])[0] == action


def test_a_reserve_at_the_limit_may_give_back_the_gold_it_brings() -> None:
    state = holding("5W 5R")
    action, text, _ = answered(state, ["r11", "-Y"])
    assert isinstance(action, Reserve)
    assert action.returned == Tokens(gold=1)
    assert "1) -W" in text
    assert "3) -Y" in text


@pytest.mark.parametrize(
    ("tokens", "move"),
    [
        ("5W 5R", "+BGK"),
        ("4W 5R", "+BGK"),
        ("3W 5R", "+BGK"),
        ("4W 5R 1Y", "+BGK"),
        ("5W 5R", "+BB"),
        ("5W 4R", "+BB"),
        ("5W 5R", "r11"),
        ("2W 3B 3G 1R 1K", "+WBR"),
    ],
)
def test_the_example_the_question_gives_is_accepted(tokens: str, move: str) -> None:
    state = holding(tokens)
    prompts: list[str] = []
    with pytest.raises(Quit):
        ask(
            view(state, 0),
            legal_actions(state),
            Output(io.StringIO(), color=False),
            lines_from([move], prompts),
            never_saves,
        )
    found = re.fullmatch(r"Give back which\? \(a number, or e\.g\. (-[A-Z]+);.*", prompts[1])
    assert found is not None, prompts[1]
    example = found.group(1)
    action, text, _ = answered(state, [move, example])
    assert "Not one of the choices" not in text
    assert is_legal(state, action)
    assert action == parse_action(move + example, state)


def states_near_the_limit() -> Iterator[GameState]:
    """States of random games where the player to move holds 8 tokens or more."""
    for seed in range(6):
        rng = random.Random(seed)
        state = new_game(2 + seed % 3, seed=seed)
        while not state.is_over and state.turn < 120:
            if state.players[state.current_player].tokens.total >= 8:
                yield state
            state = apply(state, rng.choice(legal_actions(state)))


def outcomes(state: GameState, actions: Sequence[Action]) -> set[GameState]:
    return {apply(state, action) for action in actions}


def every_form(state: GameState, take: Take) -> list[Take]:
    """Every legal take of ``take``'s gems, by trying every return and noble."""
    held = state.players[state.current_player].tokens + take.gems
    over = held.total - state.rules.token_limit
    pool = [gem for gem, count in held.items() for _ in range(count)]
    returns = {Tokens.from_mapping(Counter(back)) for back in combinations(pool, max(over, 0))}
    nobles = {None, *state.nobles}
    forms = [Take(take.gems, returned=back, noble=noble) for back in returns for noble in nobles]
    return [form for form in forms if is_legal(state, form)]


def test_the_moves_reach_exactly_the_outcomes_legal_actions_lists() -> None:
    checked = 0
    for state in states_near_the_limit():
        listed = legal_actions(state)
        found = moves(listed, view(state, state.current_player))
        offered = [action for move in found for action in move.actions]
        assert len(offered) == len(set(offered))
        assert all(is_legal(state, action) for action in offered)
        assert outcomes(state, offered) == outcomes(state, listed)
        # No take offers one outcome twice, and each offers all it can reach.
        for move in found:
            assert len(outcomes(state, move.actions)) == len(move.actions)
            first = move.actions[0]
            if isinstance(first, Take):
                assert outcomes(state, move.actions) == outcomes(state, every_form(state, first))
        checked += 1
    assert checked > 100


_COLOURS = "WBGRKY"


@pytest.mark.parametrize(
    ("tokens", "move"),
    [("3W 4G 3K", "+WBR"), ("2W 2B 2G 2R 2K", "+WBR"), ("5W 5R", "+BGK"), ("5W 4R", "+BB")],
)
def test_the_give_back_choices_come_in_the_order_the_question_states(
    tokens: str, move: str
) -> None:
    # docs/cli.md: fewest of the gems just taken given back first, a new row for
    # each count; then the key's colour order, as in a dictionary.
    _, text, _ = answered(holding(tokens), [move, "1"])
    taken = move.lstrip("+")
    said = f"Order: fewest of {' '.join(taken)} (just taken) given back first"
    assert said in text
    rows = [re.findall(r"\d+\) -([A-Z]+)", line) for line in text.splitlines()]
    rows = [row for row in rows if row]
    listed = [letters for row in rows for letters in row]

    def back(letters: str) -> int:
        return sum(min(taken.count(c), letters.count(c)) for c in set(letters))

    def key(letters: str) -> tuple[int, list[int]]:
        return back(letters), [_COLOURS.index(c) for c in letters]

    assert listed == sorted(listed, key=key)
    assert len(listed) == len(set(listed))
    for row in rows:
        assert len({back(letters) for letters in row}) == 1  # one count a row
