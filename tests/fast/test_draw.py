"""The kernel's uniform random move, drawn without listing the turn's moves.

``random_playouts`` and ``Game.play_random`` count the moves of each kind
and draw an index below the count, then make only the move at that index.
At every state of random games (2, 3 and 4 players, every rule set of
:data:`tests.strategies.VARIANTS`) and at states built for the rare kinds of
move, the moves made index by index must be exactly
:func:`splendor.legal_actions`, in its order; and on fixed states the
kernel's choices must fall on the successors of ``legal_actions`` with the
frequencies of a uniform choice among its actions (a chi-square bound).
"""

from __future__ import annotations

import math
from collections import Counter

from hypothesis import given, settings

from splendor import (
    Action,
    Buy,
    GameState,
    Pass,
    Reserve,
    ReserveFromDeck,
    Take,
    apply,
    legal_actions,
)
from tests.builders import bonus_cards, deal, toks, with_player, with_turn
from tests.fast.conftest import implementation
from tests.strategies import VARIANTS, game_states, variant_states


def _kinds(state: GameState, actions: tuple[Action, ...]) -> set[str]:
    """The kinds of move among ``actions`` that the draw makes in a way of its own."""
    found: set[str] = set()
    for action in actions:
        if type(action) is Take:
            double = 2 in action.gems.counts
            back = action.returned.total > 0
            found.add(f"{'double' if double else 'take'}-{'return' if back else 'keep'}")
        elif type(action) is Reserve or type(action) is ReserveFromDeck:
            found.add("reserve-return" if action.returned.total else "reserve")
        elif type(action) is Buy:
            assert action.payment is not None
            found.add("buy-gold" if state.player.tokens.counts[5] else "buy")
        else:
            assert type(action) is Pass
            found.add("pass")
        if action.noble is not None and type(action) is not Buy:
            found.add("noble-without-buying")
    if len({(type(action), action.noble) for action in actions if type(action) is Buy}) > 2:
        found.add("buy-nobles")
    return found


def _check(state: GameState) -> set[str]:
    """The draw's moves of ``state``, index by index, are legal_actions; their kinds."""
    kernel = implementation("kernel")
    game = kernel.Game.from_state(state)
    actions = tuple(legal_actions(state))
    assert kernel._drawn_actions(game) == actions
    assert game.state() == state  # drawing changes nothing
    return _kinds(state, actions)


def _noble_without_buying() -> GameState:
    """The player to move already qualifies for a revealed noble: every move brings it."""
    state = deal(3, seed=4)
    requirement = state.nobles[0].requirement
    state = with_player(state, cards=bonus_cards(requirement), tokens=toks("3R 3W 2B 1Y"))
    return with_turn(state, 0, turn=30)


def _holding(players: int, tokens: str) -> GameState:
    """The player to move holds ``tokens`` and a card of each colour, in round 11."""
    state = with_player(
        deal(players, seed=1), tokens=toks(tokens), cards=bonus_cards(toks("R W B G K"))
    )
    return with_turn(state, 0, turn=10 * players)


def test_every_state_of_random_games() -> None:
    seen: set[str] = set()
    for variant in sorted(VARIANTS):
        for players in (2, 3, 4):
            for state in variant_states(
                players, variant, 150, name="draw", seed=players * 11 + len(variant)
            ):
                seen |= _check(state)
    seen |= _check(_noble_without_buying())
    # Gold enough to pay in many ways: 4 or 5 gold left over once every gem is paid.
    for tokens in ("1R 1W 5Y", "2B 1G 4Y", "1K 5Y"):
        seen |= _check(_holding(2, tokens))
    assert seen == {
        "take-keep",
        "take-return",
        "double-keep",
        "double-return",
        "reserve",
        "reserve-return",
        "buy",
        "buy-gold",
        "buy-nobles",
        "noble-without-buying",
        "pass",
    }


@settings(max_examples=60, deadline=None)
@given(game_states(max_turns=250))
def test_random_states(state: GameState) -> None:
    _check(state)


def _chi_square_bound(df: int) -> float:
    """A value the chi-square statistic of ``df`` degrees of freedom exceeds with
    probability below one in a million (Wilson-Hilferty, with room to spare)."""
    z = 5.5
    return df * (1 - 2 / (9 * df) + z * math.sqrt(2 / (9 * df))) ** 3


def _frequencies_match(state: GameState, draws: int) -> None:
    kernel = implementation("kernel")
    start = kernel.Game.from_state(state)
    actions = legal_actions(state)
    # The successors of the listed actions, and how many actions lead to each.
    weights = Counter(apply(state, action) for action in actions)
    chosen: Counter[GameState] = Counter()
    for seed in range(draws):
        game = start.copy()
        assert game.play_random(seed=seed, max_turns=1) == 1
        chosen[game.state()] += 1
    assert set(chosen) <= set(weights)  # every choice is a legal action
    statistic = 0.0
    for successor, weight in weights.items():
        expected = draws * weight / len(actions)
        statistic += (chosen[successor] - expected) ** 2 / expected
    assert len(weights) > 20
    assert statistic < _chi_square_bound(len(weights) - 1), (statistic, len(weights))


def test_the_choice_frequencies_are_uniform_over_legal_actions() -> None:
    # A state with a noble in every move; states of 2 and 4 players with
    # tokens to give back (of takes and reserves) and gold to pay with.
    _frequencies_match(_noble_without_buying(), 12_000)
    _frequencies_match(_holding(2, "2R 2W 2B 2K 2Y"), 12_000)
    _frequencies_match(_holding(4, "3R 2W 1G 1K 2Y"), 12_000)
