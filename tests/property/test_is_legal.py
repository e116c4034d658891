"""``is_legal`` against ``legal_actions`` and ``apply`` over random games."""

from __future__ import annotations

from hypothesis import given

from splendor import IllegalActionError, apply, is_legal, legal_actions
from tests.property.test_completeness import _candidates, _near_misses, brute_force
from tests.strategies import RandomGame, random_games, spread


def _applies(state: object, action: object) -> bool:
    try:
        apply(state, action)  # type: ignore[arg-type]  # a state and an action
    except IllegalActionError:
        return False
    return True


@given(random_games())
def test_is_legal_accepts_every_listed_action_and_every_form_apply_accepts(
    game: RandomGame,
) -> None:
    for state in spread(game.states(), 6):
        listed = legal_actions(state)
        assert all(is_legal(state, action) for action in listed)
        full, forms = brute_force(state)
        assert all(is_legal(state, action) for action in full | forms)
        if state.is_over:
            assert not any(is_legal(state, action) for action in _candidates(state))


@given(random_games())
def test_is_legal_refuses_exactly_what_apply_refuses(game: RandomGame) -> None:
    for state in spread([s for s in game.states() if not s.is_over], 4):
        listed = set(legal_actions(state))
        tried = [*_candidates(state)]
        tried += [
            miss for action in sorted(listed, key=str)[:5] for miss in _near_misses(state, action)
        ]
        outcomes = {apply(state, action) for action in listed}
        for action in tried:
            legal = is_legal(state, action)
            assert legal == _applies(state, action), action
            if action in listed:
                assert legal
            if legal:
                # Whatever form it takes, a legal action leads where a listed one does.
                assert apply(state, action) in outcomes, action
