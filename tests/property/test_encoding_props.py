"""The action encoding over random states: exactly one code sequence per legal action.

Every complete sequence reachable through :func:`legal_codes` decodes to a
listed action, every listed action is reached by exactly one sequence, and
:func:`action_codes` gives that sequence back; a view of the seat to move
gives the same codes. Random games cover every player count and house rule;
a second strategy deals states crowded with tokens, gold, bonuses and
revealed nobles, so that returns, gold payments and noble choices come up
often, and the tests assert that they did.
"""

from __future__ import annotations

import pickle
from collections import Counter

import attrs
from hypothesis import event, given
from hypothesis import strategies as st

import splendor
from splendor import Buy, GameState, Tokens, legal_actions, view
from splendor.formats.encoding import (
    ACTION_COUNT,
    GOLD_CODES,
    MOVE_CODES,
    NO_MORE_GOLD_CODE,
    NOBLE_CODES,
    RETURN_CODES,
    action_codes,
    decode,
    is_complete,
    legal_codes,
)
from tests.builders import bonus_cards, with_player
from tests.strategies import VARIANTS, RandomGame, random_games, spread

_CHOICES = {
    "return": frozenset(RETURN_CODES),
    "gold": frozenset((*GOLD_CODES, NO_MORE_GOLD_CODE)),
    "noble": frozenset(NOBLE_CODES),
}


def check_bijection(state: GameState) -> Counter[str]:
    """Walk every decision of ``state``; check the encoding; count what was seen."""
    seen: Counter[str] = Counter()
    before = pickle.dumps(state)
    if state.is_over:
        assert legal_codes(state) == ()
        seen["over"] += 1
        return seen
    sequences: dict[tuple[int, ...], splendor.Action] = {}
    stack: list[tuple[int, ...]] = [()]
    while stack:
        prefix = stack.pop()
        codes = legal_codes(state, prefix)
        assert codes == tuple(sorted(set(codes)))
        assert all(0 <= code < ACTION_COUNT for code in codes)
        if not codes:
            assert prefix
            assert is_complete(state, prefix)
            sequences[prefix] = decode(state, prefix)
            continue
        assert not is_complete(state, prefix)
        if prefix:
            # A follow-up is asked only when there is a choice, and all its
            # options are of one kind.
            assert len(codes) >= 2
            kinds = [kind for kind, members in _CHOICES.items() if codes[0] in members]
            assert len(kinds) == 1
            assert set(codes) <= _CHOICES[kinds[0]]
            seen[f"{kinds[0]} choice"] += 1
            seen[f"{kinds[0]} choice at depth {len(prefix)}"] += 1
        else:
            assert set(codes) <= set(MOVE_CODES)
        seen["widest decision"] = max(seen["widest decision"], len(codes))
        stack.extend((*prefix, code) for code in codes)
    actions = legal_actions(state)
    decoded = list(sequences.values())
    # Exactly the listed actions, each from one sequence (the listed actions
    # are distinct, so equal sizes and equal sets make a bijection).
    assert len(decoded) == len(actions) == len(set(actions))
    assert set(decoded) == set(actions)
    for codes, action in sequences.items():
        assert action_codes(state, action) == codes
        seen["longest sequence"] = max(seen["longest sequence"], len(codes))
    seen["states"] += 1
    seen["sequences"] += len(sequences)
    seen += check_other_forms(state, sequences)
    # The seat to move sees the same codes in its view.
    seat_view = view(state, state.current_player)
    assert legal_codes(seat_view) == legal_codes(state)
    for codes, action in sequences.items():
        assert legal_codes(seat_view, codes[:-1]) == legal_codes(state, codes[:-1])
        assert decode(seat_view, codes) == action
        assert action_codes(seat_view, action) == codes
    assert pickle.dumps(state) == before
    return seen


_MAXIMA = ("longest sequence", "widest decision")


def _merge(total: Counter[str], found: Counter[str]) -> None:
    """Add ``found`` to ``total``: counts add up, the maxima keep the larger."""
    for key, n in found.items():
        total[key] = max(total[key], n) if key in _MAXIMA else total[key] + n


def check_other_forms(
    state: GameState, sequences: dict[tuple[int, ...], splendor.Action]
) -> Counter[str]:
    """Forms that apply accepts beside the listed ones get the listed codes:
    a buy without a payment (the default one) and an action without its
    noble when it is the only one that qualifies."""
    seen: Counter[str] = Counter()
    without_noble = Counter(attrs.evolve(action, noble=None) for action in sequences.values())
    player = state.player
    for codes, action in sequences.items():
        if isinstance(action, Buy):
            assert action.payment is not None
            price = [
                max(0, cost - bonus)
                for cost, bonus in zip(action.card.cost.counts, player.bonuses.counts, strict=True)
            ][:5]
            held = player.tokens.counts[:5]
            coloured = [min(p, h) for p, h in zip(price, held, strict=True)]
            if action.payment.counts == (*coloured, sum(price) - sum(coloured)):
                assert action_codes(state, attrs.evolve(action, payment=None)) == codes
                seen["default payment"] += 1
        bare = attrs.evolve(action, noble=None)
        if action.noble is not None and without_noble[bare] == 1:
            assert action_codes(state, bare) == codes
            seen["implied noble"] += 1
    return seen


def _note(seen: Counter[str]) -> None:
    for what in ("return choice", "gold choice", "noble choice"):
        if seen[what]:
            event(what)
    event(f"longest sequence {seen['longest sequence']}")


@given(random_games())
def test_random_games_encode_each_legal_action_exactly_once(game: RandomGame) -> None:
    seen: Counter[str] = Counter()
    for state in spread(game.states(), 12):
        _merge(seen, check_bijection(state))
    _note(seen)


@st.composite
def crowded_states(draw: st.DrawFn) -> GameState:
    """A dealt game where the player to move holds many tokens, bonuses and reserves.

    The tokens come from the supply (at most the token limit, often at it),
    the bonuses are up to 5 of each colour, and the reserves are cards from
    the decks, so states with returns, several ways to pay and several
    qualifying nobles are common.
    """
    players = draw(st.integers(2, 4))
    variant = draw(
        st.sampled_from(["standard", "all-nobles", "token-limit-8", "token-limit-5", "no-gold"])
    )
    state = splendor.new_game(
        players, seed=draw(st.integers(0, 2**32 - 1)), rules=VARIANTS[variant]
    )
    supply = state.bank.counts
    tokens = [draw(st.integers(0, n)) for n in supply]
    limit = state.rules.token_limit
    while sum(tokens) > limit:
        tokens[tokens.index(max(tokens))] -= 1
    bonuses = Tokens(*(draw(st.integers(0, 5)) for _ in range(5)))
    cards = bonus_cards(bonuses)
    pool = [card for tier in (1, 2, 3) for card in state.deck(tier)[-4:] if card not in cards]
    reserved = draw(
        st.lists(st.sampled_from(pool), unique=True, max_size=state.rules.reserve_limit)
    )
    return with_player(state, tokens=Tokens(*tokens), cards=cards, reserved=reserved)


def test_crowded_states_exercise_every_follow_up_decision() -> None:
    seen: Counter[str] = Counter()

    @given(crowded_states())
    def check(state: GameState) -> None:
        found = check_bijection(state)
        _note(found)
        _merge(seen, found)

    check()
    assert seen["return choice"] > 0
    assert seen["gold choice"] > 0
    assert seen["noble choice"] > 0
    # A gold choice after another one, and returns of two tokens or more.
    assert seen["gold choice at depth 2"] > 0
    assert seen["return choice at depth 2"] > 0
    assert seen["longest sequence"] >= 3
    assert seen["default payment"] > 0
    assert seen["implied noble"] > 0
