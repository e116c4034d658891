"""The OpenSpiel game: OpenSpiel's random simulation test, chance, privacy and ISMCTS."""

from __future__ import annotations

import random

import pytest

pytest.importorskip("numpy")
pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")
pytest.importorskip("pyspiel")

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts

import splendor.rl.openspiel as sos
from splendor import IllegalActionError, InvalidArgumentError, ReserveFromDeck, view
from splendor.formats.encoding import ACTION_COUNT, action_codes, describe_code
from splendor.rl import observation

CHANCE = int(pyspiel.PlayerId.CHANCE)


def _deal(game: pyspiel.Game, seed: int) -> pyspiel.State:
    rng = np.random.default_rng(seed)
    state = game.new_initial_state()
    while state.is_chance_node():
        actions, probs = zip(*state.chance_outcomes(), strict=True)
        state.apply_action(int(rng.choice(actions, p=probs)))
    return state


def _play_random(state: pyspiel.State, seed: int, moves: int = 10_000) -> pyspiel.State:
    rng = np.random.default_rng(seed)
    for _ in range(moves):
        if state.is_terminal():
            break
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(actions, p=probs)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    return state


@pytest.mark.parametrize("players", [2, 3, 4])
def test_openspiel_random_sim_test_with_serialization(players: int) -> None:
    game = pyspiel.load_game("python_splendor", {"players": players})
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


def test_the_game_type_and_info() -> None:
    game = pyspiel.load_game("python_splendor", {"players": 3})
    kind = game.get_type()
    assert kind.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert kind.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert kind.reward_model == pyspiel.GameType.RewardModel.TERMINAL
    assert game.num_players() == 3
    assert game.num_distinct_actions() == ACTION_COUNT
    assert game.max_chance_outcomes() == 100
    assert game.observation_tensor_shape() == [observation(view(_deal(game, 0).game_state, 0)).size]
    assert game.information_state_tensor_shape() == game.observation_tensor_shape()
    assert (game.min_utility(), game.max_utility()) == (-1.0, 1.0)


def test_the_deal_is_chance_card_by_card_then_noble_by_noble() -> None:
    game = pyspiel.load_game("python_splendor", {"players": 2})
    state = game.new_initial_state()
    sizes = []
    picked = []
    while state.is_chance_node():
        outcomes = state.chance_outcomes()
        assert abs(sum(p for _, p in outcomes) - 1) < 1e-9
        sizes.append(len(outcomes))
        picked.append(outcomes[-1][0])
        state.apply_action(outcomes[-1][0])
    assert sizes == [40, 39, 38, 37, 30, 29, 28, 27, 20, 19, 18, 17, 10, 9, 8]
    dealt = state.game_state
    board = [card.id - 1 for row in dealt.board for card in row if card is not None]
    assert board == picked[:12]
    assert [90 + n.id - 1 for n in dealt.nobles] == picked[12:]
    assert [len(deck) for deck in dealt.decks] == [36, 26, 16]
    assert state.current_player() == 0
    assert state.legal_actions() == sorted(state.legal_actions())


def _reserve_blind(seed: int, outcome_index: int) -> pyspiel.State:
    """Deal, let seat 0 reserve blind from tier 1, and draw the given card."""
    game = pyspiel.load_game("python_splendor", {"players": 2})
    state = _deal(game, seed)
    for code in action_codes(state.game_state, ReserveFromDeck(1)):
        assert state.current_player() == 0
        state.apply_action(code)
    assert state.is_chance_node()
    outcomes = state.chance_outcomes()
    assert len(outcomes) == 36
    state.apply_action(outcomes[outcome_index][0])
    return state


def test_a_blind_reserve_is_private_to_the_reserving_player() -> None:
    first = _reserve_blind(1, 0)
    second = _reserve_blind(1, 5)
    card = first.game_state.players[0].reserved[0]
    assert card is not second.game_state.players[0].reserved[0]
    assert f"#{card.id}" in first.information_state_string(0)
    assert f"#{card.id}" not in first.information_state_string(1)
    # The other player cannot tell the two states apart.
    for method in (
        "information_state_string",
        "observation_string",
        "information_state_tensor",
        "observation_tensor",
    ):
        assert getattr(first, method)(1) == getattr(second, method)(1)
        assert getattr(first, method)(0) != getattr(second, method)(0)


def test_a_refill_is_a_chance_outcome_everyone_sees() -> None:
    game = pyspiel.load_game("python_splendor", {"players": 2})
    state = _deal(game, 3)
    taken = state.game_state.board[0][0]
    assert taken is not None
    from splendor import Reserve

    for code in action_codes(state.game_state, Reserve(taken)):
        state.apply_action(code)
    assert state.is_chance_node()
    assert len(state.chance_outcomes()) == 36
    outcome = state.chance_outcomes()[0][0]
    state.apply_action(outcome)
    assert state.game_state.board[0][0].id - 1 == outcome
    assert f"card #{outcome + 1}" in state.information_state_string(1)


def test_serialization_round_trips_mid_game() -> None:
    game = pyspiel.load_game("python_splendor", {"players": 3})
    state = _play_random(game.new_initial_state(), seed=2, moves=120)
    text = pyspiel.serialize_game_and_state(game, state)
    _game2, state2 = pyspiel.deserialize_game_and_state(text)
    assert state2.history() == state.history()
    assert state2.game_state == state.game_state
    assert state2.information_state_string(1) == state.information_state_string(1)
    assert str(state2) == str(state)


def test_a_whole_random_game_ends_with_the_engines_winners() -> None:
    game = pyspiel.load_game("python_splendor", {"players": 4})
    state = _play_random(game.new_initial_state(), seed=5)
    assert state.is_terminal()
    winners = state.game_state.winners
    assert winners
    assert state.returns() == [1.0 if s in winners else -1.0 for s in range(4)]


def test_max_turns_truncates_with_zero_returns() -> None:
    game = pyspiel.load_game("python_splendor", {"players": 2, "max_turns": 5})
    state = _play_random(game.new_initial_state(), seed=1)
    assert state.is_terminal()
    assert state.game_state.turn == 5
    assert state.returns() == [0.0, 0.0]


def test_the_resampler_keeps_the_information_state_and_deals_the_hidden_cards() -> None:
    state = _reserve_blind(4, 7)
    # Play on a little so the resampled history is longer than the deal.
    state = _play_random(state, seed=9, moves=12)
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    assert not state.is_terminal()
    assert state.game_state.players[0].reserved_blind[0]
    resample = sos.resampler(3)
    hidden = state.game_state.players[0].reserved[0]
    others = set()
    for _ in range(10):
        guess = resample(state, 1)
        assert guess.information_state_string(1) == state.information_state_string(1)
        assert guess.observation_tensor(1) == state.observation_tensor(1)
        assert len(guess.history()) == len(state.history())
        others.add(guess.game_state.players[0].reserved[0])
    assert len(others) > 1 or hidden not in others
    # Seat 0 knows its own card: resampling for it changes nothing it saw.
    mine = resample(state, 0)
    assert mine.game_state.players[0].reserved[0] is hidden
    same = state.resample_from_infostate(1, pyspiel.UniformProbabilitySampler(0.0, 1.0))
    assert same.information_state_string(1) == state.information_state_string(1)


def _play_bots(game: pyspiel.Game, bots: list[pyspiel.Bot], seed: int) -> pyspiel.State:
    rng = np.random.default_rng(seed)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(actions, p=probs)))
        else:
            state.apply_action(int(bots[state.current_player()].step(state)))
    return state


@pytest.mark.parametrize("players", [2, 3, 4])
def test_ismcts_plays_whole_games_against_uniform_random(players: int) -> None:
    game = pyspiel.load_game("python_splendor", {"players": players})
    bot = ismcts.ISMCTSBot(
        game,
        sos.PointsEvaluator(),
        uct_c=2.0,
        max_simulations=8,
        max_world_samples=4,
        random_state=np.random.RandomState(players),
    )
    bot.set_resampler(sos.resampler(players))
    bots = [bot] + [pyspiel.make_uniform_random_bot(s, 10 + s) for s in range(1, players)]
    state = _play_bots(game, bots, seed=players)
    assert state.is_terminal()
    assert state.game_state.winners
    assert sorted(set(state.returns())) in ([-1.0, 1.0], [1.0])


def test_the_points_evaluator() -> None:
    game = pyspiel.load_game("python_splendor", {"players": 2})
    state = _deal(game, 1)
    evaluator = sos.PointsEvaluator()
    assert evaluator.evaluate(state).tolist() == [0.0, 0.0]
    prior = evaluator.prior(state)
    assert [a for a, _ in prior] == state.legal_actions()
    assert abs(sum(p for _, p in prior) - 1) < 1e-9
    with pytest.raises(InvalidArgumentError, match="scale"):
        sos.PointsEvaluator(scale=0)


@pytest.mark.parametrize(
    ("params", "match"),
    [({"players": 5}, "players"), ({"players": 2, "max_turns": 0}, "max_turns")],
)
def test_bad_parameters_are_refused(params: dict[str, int], match: str) -> None:
    with pytest.raises(InvalidArgumentError, match=match):
        sos.SplendorGame(params)


def test_the_resampler_refuses_other_things() -> None:
    with pytest.raises(InvalidArgumentError, match="python_splendor"):
        sos.resampler(1)(pyspiel.load_game("kuhn_poker").new_initial_state(), 0)
    game = pyspiel.load_game("python_splendor", {"players": 2})
    with pytest.raises(InvalidArgumentError, match="seat"):
        sos.resampler(1)(_deal(game, 1), 2)


def test_action_strings() -> None:
    game = pyspiel.load_game("python_splendor", {"players": 2})
    state = game.new_initial_state()
    assert state.action_to_string(CHANCE, 0) == "card #1 (T1 W 0pt: 2R 1K)"
    assert state.action_to_string(CHANCE, 90).startswith("noble N1")
    dealt = _deal(game, 1)
    assert str(dealt).startswith("Start of the game: player_0 to move\n")
    assert dealt.action_to_string(0, 0) == describe_code(0)


@pytest.mark.parametrize("outcome", [89, 95, 10**6])
def test_a_chance_outcome_not_offered_is_refused_and_changes_nothing(outcome: int) -> None:
    # During the deal of tier 1, a tier-3 card (89), a noble (95), and a number
    # that is no outcome at all are refused with the library's error. (OpenSpiel
    # itself refuses -1 and numbers beyond 64 bits before the game sees them.)
    state = pyspiel.load_game("python_splendor").new_initial_state()
    before = str(state)
    offered = [code for code, _ in state.chance_outcomes()]
    assert outcome not in offered
    with pytest.raises(IllegalActionError, match=f"chance outcome {outcome} is not one of"):
        state.apply_action(outcome)
    assert str(state) == before
    assert [code for code, _ in state.chance_outcomes()] == offered


def test_a_chance_outcome_of_a_draw_must_come_from_its_deck() -> None:
    state = pyspiel.load_game("python_splendor").new_initial_state()
    rng = random.Random(3)
    while True:
        if state.is_chance_node():
            outcomes = [code for code, _ in state.chance_outcomes()]
            if state.move_number() > 20:  # past the deal: a card drawn after a move
                wrong = next(code for code in range(90) if code not in outcomes)
                with pytest.raises(IllegalActionError, match=f"chance outcome {wrong} is not"):
                    state.apply_action(wrong)
                assert [code for code, _ in state.chance_outcomes()] == outcomes
                return
            state.apply_action(rng.choice(outcomes))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
