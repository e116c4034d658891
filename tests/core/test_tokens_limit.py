"""Rules: the ten-token limit at the end of a turn (RULES.md, "End of turn" step 1)."""

from __future__ import annotations

import pytest

from splendor import (
    GameState,
    Gem,
    IllegalActionError,
    InvalidStateError,
    Reserve,
    Rules,
    Take,
    Tokens,
    apply,
    legal_actions,
    new_game,
)
from tests.builders import deal, toks, with_bank, with_player


def _holding(tokens: str, rules: Rules | None = None) -> GameState:
    """Player 0 to move holding ``tokens``; the supply keeps 4 of each gem colour."""
    state = with_player(deal(4, rules=rules), tokens=toks(tokens))
    return with_bank(state, toks("4W 4B 4G 4R 4K 4Y"))


def test_token_limit_returns_exactly_the_excess() -> None:
    state = _holding("3W 3B 3G")
    after = apply(state, Take(toks("R K W"), returned=toks("2W")))
    assert after.players[0].tokens == toks("2W 3B 3G R K")
    assert after.players[0].tokens.total == 10
    assert after.bank == toks("5W 4B 4G 3R 3K 4Y")


@pytest.mark.parametrize("returned", ["-", "W", "3W", "W B G"])
def test_token_limit_returning_fewer_or_more_than_the_excess_is_illegal(returned: str) -> None:
    state = _holding("3W 3B 3G")
    with pytest.raises(IllegalActionError, match="exactly 2 token"):
        apply(state, Take(toks("R K W"), returned=toks(returned)))


def test_token_limit_returning_within_the_limit_is_illegal() -> None:
    state = _holding("2W 2B")
    with pytest.raises(IllegalActionError, match="nothing may be returned"):
        apply(state, Take(toks("R G K"), returned=toks("W")))


def test_token_limit_exactly_ten_needs_no_return() -> None:
    after = apply(_holding("3W 2B 2G"), Take(toks("R G K")))
    assert after.players[0].tokens.total == 10


def test_token_limit_may_return_tokens_just_taken() -> None:
    state = _holding("4W 4B")
    after = apply(state, Take(toks("R G K"), returned=toks("R")))
    assert after.players[0].tokens == toks("4W 4B G K")
    assert after.bank == toks("4W 4B 3G 4R 3K 4Y")


def test_token_limit_may_return_gold() -> None:
    state = _holding("4W 3B 2Y")
    after = apply(state, Take(toks("R G K"), returned=toks("2Y")))
    assert after.players[0].tokens == toks("4W 3B G R K")
    assert after.bank == toks("4W 4B 3G 3R 3K 6Y")
    assert Take(toks("R G K"), returned=toks("2Y")) in legal_actions(state)


def test_token_limit_cannot_return_tokens_not_held() -> None:
    state = _holding("3W 3B 3G")
    with pytest.raises(IllegalActionError, match="cannot return"):
        apply(state, Take(toks("W B G"), returned=toks("2R")))


def test_token_limit_a_take_entirely_undone_is_legal_and_listed() -> None:
    state = _holding("4W 3B 3G")
    after = apply(state, Take(toks("R G K"), returned=toks("R G K")))
    assert after.players[0].tokens == state.players[0].tokens
    assert after.bank == state.bank
    assert after.current_player == 1
    undone = [a for a in legal_actions(state) if isinstance(a, Take) and a.gems == a.returned]
    assert len(undone) == 1


def test_token_limit_take_two_over_the_limit_returns_the_excess() -> None:
    state = _holding("5W 4B")
    with pytest.raises(IllegalActionError, match="exactly 1 token"):
        apply(state, Take(toks("2R")))
    after = apply(state, Take(toks("2R"), returned=toks("B")))
    assert after.players[0].tokens == toks("5W 3B 2R")


def test_token_limit_listed_takes_all_end_at_the_limit() -> None:
    state = _holding("4W 3B 2G")
    takes = [a for a in legal_actions(state) if isinstance(a, Take)]
    assert takes
    for action in takes:
        assert (state.player.tokens + action.gems - action.returned).total == 10


def test_token_limit_counts_gold() -> None:
    state = _holding("5W 4Y")
    with pytest.raises(IllegalActionError, match="exactly 2 token"):
        apply(state, Take(toks("R G K")))


def test_token_limit_applies_to_reserve_gold() -> None:
    state = _holding("5W 5B")
    target = state.face_up(1)[0]
    assert target is not None
    with pytest.raises(IllegalActionError, match="exactly 1 token"):
        apply(state, Reserve(target))


def test_token_limit_follows_the_rules_setting() -> None:
    state = _holding("2W 2B", Rules(token_limit=5))
    with pytest.raises(IllegalActionError, match="limit of 5"):
        apply(state, Take(toks("R G K")))
    after = apply(state, Take(toks("R G K"), returned=toks("2W")))
    assert after.players[0].tokens.total == 5


def test_the_message_for_a_needless_return_gives_the_tokens_held() -> None:
    # 3 taken, 1 returned for nothing: the player would end with 3, far from 10.
    with pytest.raises(IllegalActionError, match=r"the player ends with 3 tokens, within"):
        apply(new_game(2, seed=1), Take(Tokens(1, 1, 1), Tokens(white=1)))
    state = with_player(deal(2), tokens=toks("2R 3G"))
    with pytest.raises(IllegalActionError, match=r"the player ends with 8 tokens, within"):
        apply(state, Take(toks("W B G"), toks("R")))


@pytest.mark.parametrize("empty_supply", [False, True])
@pytest.mark.parametrize("held", ["4W 4B 3G", "4W 4B 4G 4R"])
def test_a_hand_built_state_over_the_limit_gets_the_library_error(
    held: str, empty_supply: bool
) -> None:
    state = with_player(deal(2), tokens=toks(held))
    if empty_supply:
        # No gems to take: the check comes before anything else is listed.
        state = with_bank(state, Tokens(gold=state.bank[Gem.GOLD]))
    total = toks(held).total
    with pytest.raises(
        InvalidStateError, match=rf"token limit: player 0 holds {total} tokens, more than .* 10"
    ):
        legal_actions(state)
