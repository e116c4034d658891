"""The information-set MCTS bot: honesty, determinism, budgets, play."""

from __future__ import annotations

import random

import pytest

import splendor
from splendor import (
    GreedyBot,
    InvalidArgumentError,
    RandomBot,
    ReserveFromDeck,
    apply,
    determinize,
    legal_actions,
    new_game,
    play_game,
    view,
)
from splendor.core.state import GameState
from splendor.players import bots
from splendor.players.bots import BOTS, load_bot
from splendor.players.ismcts import ISMCTSBot


def _midgame(players: int = 2, seed: int = 3, turns: int = 12) -> GameState:
    """A state after some greedy turns in which seat 0 and seat 1 reserved blind."""
    state = new_game(players, seed=seed)
    state = apply(state, ReserveFromDeck(3))
    state = apply(state, ReserveFromDeck(3))
    rng = random.Random(seed)
    bot = GreedyBot()
    for _ in range(turns):
        seat = state.current_player
        state = apply(state, bot(view(state, seat), legal_actions(state), rng))
    return state


def test_the_move_depends_only_on_the_view_not_on_the_hidden_cards() -> None:
    state = _midgame(turns=4)
    seat = state.current_player
    seen = view(state, seat)
    other = determinize(seen, random.Random(99))
    # The hidden cards differ: the decks and the other seat's blind reserve.
    assert other.decks != state.decks
    assert other.players[1 - seat].reserved != state.players[1 - seat].reserved
    assert view(other, seat) == seen
    bot = ISMCTSBot(iterations=60, seed=5)
    first = bot(seen, legal_actions(state), random.Random(1))
    second = ISMCTSBot(iterations=60, seed=5)(
        view(other, seat), legal_actions(other), random.Random(2)
    )
    assert first == second
    assert first in legal_actions(state)


def test_a_fixed_seed_and_budget_give_the_same_moves_and_the_same_game() -> None:
    one = play_game([ISMCTSBot(iterations=15, seed=1), GreedyBot()], seed=4)
    two = play_game([ISMCTSBot(iterations=15, seed=1), GreedyBot()], seed=4)
    assert one.actions == two.actions
    assert one.result is not None


def test_without_a_seed_it_follows_the_generator_it_is_given() -> None:
    state = _midgame(seed=8)
    seen = view(state, state.current_player)
    actions = legal_actions(state)
    picks = [ISMCTSBot(iterations=30)(seen, actions, random.Random(s)) for s in range(3)]
    again = [ISMCTSBot(iterations=30)(seen, actions, random.Random(s)) for s in range(3)]
    assert picks == again


def test_the_iteration_budget_is_the_number_of_iterations_run() -> None:
    state = _midgame()
    seen = view(state, state.current_player)
    bot = ISMCTSBot(iterations=37, seed=1)
    bot(seen, legal_actions(state), random.Random(0))
    assert bot.last_iterations == 37


def test_a_budget_in_seconds_stops_the_search_in_time() -> None:
    state = _midgame()
    seen = view(state, state.current_player)
    bot = ISMCTSBot(seconds=0.05, seed=1)
    bot(seen, legal_actions(state), random.Random(0))
    assert bot.last_iterations >= 1
    capped = ISMCTSBot(seconds=30.0, iterations=10, seed=1)
    capped(seen, legal_actions(state), random.Random(0))
    assert capped.last_iterations == 10


@pytest.mark.parametrize("players", [2, 3, 4])
def test_it_plays_whole_games_at_any_table(players: int) -> None:
    bots: list[splendor.Bot] = [ISMCTSBot(iterations=8, seed=players)]
    bots += [GreedyBot()] * (players - 1)
    record = play_game(bots, seed=players)
    assert record.result is not None
    assert record.final_state().is_over


def test_it_beats_the_random_bot() -> None:
    for seed in range(4):
        record = play_game([RandomBot(), ISMCTSBot(iterations=25, seed=seed)], seed=seed)
        assert record.result == (1,)


def test_it_takes_a_win_that_is_on_the_board() -> None:
    # Greedy games, watched from the last seat: whenever a buy there wins the
    # game at once (the round ends with it), the bot must play a winning move.
    found = 0
    for seed in range(12):
        state = new_game(2, seed=seed)
        rng = random.Random(seed)
        while not state.is_over:
            actions = legal_actions(state)
            seat = state.current_player
            if seat == 1:
                winning = [a for a in actions if apply(state, a).winners == (1,)]
                if winning:
                    choice = ISMCTSBot(iterations=40, seed=seed)(view(state, 1), actions, rng)
                    assert apply(state, choice).winners == (1,)
                    found += 1
                    break
            state = apply(state, GreedyBot()(view(state, seat), actions, rng))
    assert found >= 3


def test_it_is_registered_and_exported() -> None:
    assert BOTS["ismcts"] is ISMCTSBot
    assert isinstance(load_bot("ismcts"), ISMCTSBot)
    assert splendor.ISMCTSBot is ISMCTSBot
    assert vars(bots)["ISMCTSBot"] is ISMCTSBot


def test_repr_shows_the_options_that_differ_from_the_defaults() -> None:
    assert repr(ISMCTSBot()) == "ISMCTSBot(iterations=200)"
    assert (
        repr(ISMCTSBot(seconds=0.5, seed=2, rollout="random"))
        == "ISMCTSBot(seconds=0.5, seed=2, rollout='random')"
    )


@pytest.mark.parametrize(
    "options",
    [
        {"iterations": 0},
        {"iterations": 2.5},
        {"seconds": 0},
        {"seconds": float("inf")},
        {"seconds": "1"},
        {"seed": 1.5},
        {"exploration": -1.0},
        {"widening": 0},
        {"temperature": float("nan")},
        {"rollout": "smart"},
        {"rollout_rounds": -1},
    ],
)
def test_bad_options_are_refused(options: dict[str, object]) -> None:
    with pytest.raises(InvalidArgumentError):
        ISMCTSBot(**options)  # type: ignore[arg-type]  # the wrong types are the point


def test_bad_calls_are_refused_with_the_library_error() -> None:
    state = _midgame()
    seat = state.current_player
    actions = legal_actions(state)
    bot = ISMCTSBot(iterations=5, seed=1)
    with pytest.raises(InvalidArgumentError, match="spectator"):
        bot(view(state, None), actions, random.Random(0))
    with pytest.raises(InvalidArgumentError, match="PlayerView"):
        bot(state, actions, random.Random(0))  # type: ignore[arg-type]  # the point
    with pytest.raises(InvalidArgumentError, match="at least one legal action"):
        bot(view(state, seat), [], random.Random(0))
    with pytest.raises(InvalidArgumentError, match="only choose among actions"):
        bot(view(state, seat), ["take"], random.Random(0))  # type: ignore[list-item]  # the point
    with pytest.raises(InvalidArgumentError, match=r"random\.Random"):
        bot(view(state, seat), actions, 3)  # type: ignore[arg-type]  # the point
    with pytest.raises(InvalidArgumentError, match="cannot act"):
        bot(view(state, 1 - seat), actions, random.Random(0))


@pytest.mark.parametrize("rollout", ["prior", "random", "none"])
def test_every_rollout_policy_plays_legal_moves(rollout: str) -> None:
    state = _midgame()
    seen = view(state, state.current_player)
    actions = legal_actions(state)
    choice = ISMCTSBot(iterations=20, seed=1, rollout=rollout, rollout_rounds=2)(
        seen, actions, random.Random(0)
    )
    assert choice in actions


def test_analyse_finds_the_move_a_seeded_search_plays() -> None:
    state = _midgame()
    seat = state.current_player
    seen = view(state, seat)
    actions = legal_actions(state)
    result = ISMCTSBot(iterations=60, seed=4).analyse(seen, actions, random.Random(0))
    assert result.action == ISMCTSBot(iterations=60, seed=4)(seen, actions, random.Random(0))
    assert result.nodes == 60
    assert result.pv[0] == result.action
    assert result.action in actions


def test_analyse_gives_each_seat_a_chance_of_winning_summing_to_one() -> None:
    for players in (2, 3, 4):
        state = _midgame(players=players)
        seen = view(state, state.current_player)
        result = ISMCTSBot(iterations=40, seed=1).analyse(
            seen, legal_actions(state), random.Random(0)
        )
        assert len(result.win) == players
        assert all(0.0 <= p <= 1.0 for p in result.win)
        assert sum(result.win) == pytest.approx(1.0)


def test_analyse_follows_the_tree_for_the_principal_variation() -> None:
    state = _midgame()
    seen = view(state, state.current_player)
    result = ISMCTSBot(iterations=300, seed=2).analyse(seen, legal_actions(state), random.Random(0))
    # 300 iterations grow the most visited line below the root.
    assert len(result.pv) >= 2
    # The reply is the other seat's move: legal after the move in a determinization.
    after = apply(determinize(seen, random.Random(1)), result.pv[0])
    assert after.current_player != state.current_player


def test_analyse_sees_a_win_on_the_board_as_certain() -> None:
    # Greedy games watched from the last seat: a buy there that wins at once.
    for seed in range(12):
        state = new_game(2, seed=seed)
        rng = random.Random(seed)
        while not state.is_over:
            actions = legal_actions(state)
            seat = state.current_player
            if seat == 1 and any(apply(state, a).winners == (1,) for a in actions):
                result = ISMCTSBot(iterations=60, seed=seed).analyse(view(state, 1), actions, rng)
                assert apply(state, result.action).winners == (1,)
                assert result.win == (0.0, 1.0)
                return
            state = apply(state, GreedyBot()(view(state, seat), actions, rng))
    pytest.fail("no greedy game offered seat 1 a winning buy")


def test_analyse_searches_a_single_legal_action_too() -> None:
    state = _midgame()
    seen = view(state, state.current_player)
    only = legal_actions(state)[:1]
    result = ISMCTSBot(iterations=20, seed=1).analyse(seen, only, random.Random(0))
    assert result.nodes == 20
    assert sum(result.win) == pytest.approx(1.0)


def test_analyse_refuses_what_a_move_refuses() -> None:
    state = _midgame()
    bot = ISMCTSBot(iterations=5, seed=1)
    with pytest.raises(InvalidArgumentError):
        bot.analyse(view(state, None), legal_actions(state), random.Random(0))
    with pytest.raises(InvalidArgumentError):
        bot.analyse(view(state, state.current_player), [], random.Random(0))


def test_analyse_searches_only_the_actions_it_is_given() -> None:
    state = _midgame()
    seen = view(state, state.current_player)
    actions = legal_actions(state)
    bot = ISMCTSBot(iterations=40, seed=3)
    full = bot.analyse(seen, actions, random.Random(0))
    others = [a for a in actions if a != full.action]
    some = bot.analyse(seen, others[:3], random.Random(0))
    assert some.action in others[:3]
    one = bot.analyse(seen, [others[-1]], random.Random(0))
    assert one.action == others[-1]
    assert one.pv[0] == others[-1]
    assert sum(one.win) == pytest.approx(1.0)
    with pytest.raises(InvalidArgumentError, match="not a legal action"):
        bot.analyse(seen, [_illegal(state)], random.Random(0))


def _illegal(state: GameState) -> splendor.Action:
    """An action that is not legal in ``state``."""
    return next(
        action
        for action in legal_actions(apply(state, legal_actions(state)[0]))
        if action not in legal_actions(state)
    )
