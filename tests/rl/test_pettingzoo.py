"""The PettingZoo AEC environment: PettingZoo's own tests, and the game it plays."""

from __future__ import annotations

import pytest

pytest.importorskip("numpy")
pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

import numpy as np
from pettingzoo.test import api_test, seed_test

from splendor import (
    Buy,
    IllegalActionError,
    InvalidArgumentError,
    Rules,
    apply,
    new_game,
    view,
)
from splendor.formats.encoding import ACTION_COUNT, action_codes, legal_codes
from splendor.rl import SplendorAECEnv, aec_env, observation
from tests.builders import card, cards_of, deal, toks, with_player, with_row, with_turn


# PettingZoo's checks expect a bare array; a dict with an action mask (as in
# PettingZoo's own board games) draws these two warnings.
@pytest.mark.filterwarnings("ignore:Observation is not a NumPy array:UserWarning")
@pytest.mark.filterwarnings("ignore:Observation space for each agent probably:UserWarning")
@pytest.mark.parametrize("players", [2, 3, 4])
def test_pettingzoo_api_test(players: int) -> None:
    api_test(aec_env(players=players, render_mode="ansi"), num_cycles=1000)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_pettingzoo_seed_test(players: int) -> None:
    seed_test(lambda: aec_env(players=players), num_cycles=500)


def _play(env: SplendorAECEnv, seed: int) -> list[tuple[str, int]]:
    """Play a whole game with masked random decisions; the (agent, code) steps."""
    rng = np.random.default_rng(seed)
    steps = []
    for agent in env.agent_iter():
        obs, _reward, terminated, truncated, _info = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        assert obs is not None
        legal = np.flatnonzero(obs["action_mask"])
        code = int(rng.choice(legal))
        steps.append((agent, code))
        env.step(code)
    return steps


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_game_through_the_env_is_the_engines_game(players: int) -> None:
    env = aec_env(players=players)
    env.reset(seed=11)
    start = env.game
    assert start == new_game(players, seed=11)
    steps = _play(env, seed=players)
    # Replay the decisions through the encoding and the engine.
    state = start
    prefix: tuple[int, ...] = ()
    from splendor.formats.encoding import decode

    for agent, code in steps:
        assert agent == f"player_{state.current_player}"
        assert code in legal_codes(state, prefix)
        prefix = (*prefix, code)
        if not legal_codes(state, prefix):
            state = apply(state, decode(state, prefix))
            prefix = ()
    assert state.is_over
    assert prefix == ()
    assert env.game == state
    expected = {f"player_{seat}": (1 if seat in state.winners else -1) for seat in range(players)}
    assert env.final_rewards == expected
    assert env.agents == []


def test_the_observation_is_the_agents_view_and_only_the_mover_has_a_mask() -> None:
    env = aec_env(players=3)
    env.reset(seed=4)
    state = env.game
    mover = f"player_{state.current_player}"
    assert env.agent_selection == mover
    for seat, agent in enumerate(env.possible_agents):
        obs = env.observe(agent)
        assert (obs["observation"] == observation(view(state, seat))).all()
        assert obs["action_mask"].dtype == np.int8
        assert obs["action_mask"].shape == (ACTION_COUNT,)
        if agent == mover:
            assert np.flatnonzero(obs["action_mask"]).tolist() == list(legal_codes(state))
        else:
            assert not obs["action_mask"].any()


def test_the_same_agent_keeps_the_turn_through_its_decisions() -> None:
    env = aec_env(players=2)
    env.reset(seed=3)
    # Find a move with follow-up decisions, if the deal has one, else any.
    state = env.game
    first = legal_codes(state)[0]
    for code in legal_codes(state):
        if legal_codes(state, (code,)):
            first = code
            break
    agent = env.agent_selection
    env.step(first)
    if legal_codes(state, (first,)):
        assert env.agent_selection == agent
        assert env.prefix == (first,)
        obs = env.observe(agent)
        assert np.flatnonzero(obs["action_mask"]).tolist() == list(legal_codes(state, (first,)))
        assert (obs["observation"] == observation(view(state, 0), (first,))).all()
    else:
        assert env.agent_selection != agent


def test_an_illegal_code_raises_and_changes_nothing() -> None:
    env = aec_env(players=2)
    env.reset(seed=5)
    state = env.game
    illegal = next(c for c in range(ACTION_COUNT) if c not in legal_codes(state))
    with pytest.raises(IllegalActionError, match=f"code {illegal} is not legal"):
        env.step(illegal)
    with pytest.raises(IllegalActionError, match="not legal"):
        env.step(ACTION_COUNT)
    with pytest.raises(IllegalActionError, match="None"):
        env.step(None)
    for bad in ("1", 1.0, True):
        with pytest.raises(InvalidArgumentError, match="int code"):
            env.step(bad)  # type: ignore[arg-type]  # the wrong type on purpose
    assert env.game is state
    assert env.prefix == ()
    env.step(np.int64(legal_codes(state)[0]))  # numpy integers are codes too


def test_a_game_reaching_max_turns_is_truncated_without_reward() -> None:
    env = aec_env(players=2, max_turns=3)
    env.reset(seed=1)
    rng = np.random.default_rng(0)
    while not any(env.truncations.values()):
        obs, *_ = env.last()
        assert obs is not None
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert env.game.turn == 3
    assert not env.game.is_over
    assert all(env.truncations.values())
    assert not any(env.terminations.values())
    assert env.final_rewards == {"player_0": 0, "player_1": 0}


def test_a_shared_win_rewards_every_winner() -> None:
    env = aec_env(players=3)
    env.reset(seed=1)
    # Seats 0 and 2 end the round tied on 15 points and 4 cards: seat 2, last
    # to move, reaches 15 by buying card 16 (1 point, 4 red less its red bonus).
    state = deal(3)
    for seat, ids in enumerate(((74, 78, 72, 8), (90,), (82, 86, 76))):
        state = with_player(state, seat, cards=cards_of(*ids))
    state = with_player(state, 2, tokens=toks("3R"))
    state = with_row(state, 1, [card(16), *state.board[0][1:]])
    state = with_turn(state, 2, turn=14)
    env._table.start(state)
    env.agent_selection = "player_2"
    for code in action_codes(state, Buy(card(16), toks("3R"))):
        env.step(code)
    assert env.game.winners == (0, 2)
    assert env.rewards == {"player_0": 1, "player_1": -1, "player_2": 1}
    assert all(env.terminations.values())


def test_reset_with_a_seed_deals_that_seed_and_then_continues_from_it() -> None:
    env = aec_env(players=2)
    env.reset(seed=9)
    assert env.game == new_game(2, seed=9)
    env.reset()
    second = env.game
    env.reset(seed=9)
    env.reset()
    assert env.game == second


def test_render_modes() -> None:
    env = aec_env(players=2, render_mode="ansi")
    env.reset(seed=2)
    text = env.render()
    assert text is not None
    assert "player_0 to move" in text
    assert "Tier 3  16 in the deck" in text
    env = aec_env(players=2, render_mode="svg")
    env.reset(seed=2)
    picture = env.render()
    assert isinstance(picture, str)
    assert picture.startswith("<svg")
    assert "player_1" in picture
    env = aec_env(players=2)
    env.reset(seed=2)
    assert env.render() is None


def test_house_rules_are_played() -> None:
    rules = Rules(points_to_win=5)
    env = aec_env(players=2, rules=rules)
    env.reset(seed=3)
    assert env.game.rules == rules
    _play(env, seed=1)
    assert max(p.points for p in env.game.players) >= 5


@pytest.mark.parametrize(
    ("options", "match"),
    [
        ({"players": 5}, "2 to 4"),
        ({"players": "2"}, "2 to 4"),
        ({"render_mode": "human"}, "render_mode"),
        ({"rules": "standard"}, "Rules"),
        ({"max_turns": 0}, "max_turns"),
    ],
)
def test_bad_options_are_refused(options: dict[str, object], match: str) -> None:
    with pytest.raises(InvalidArgumentError, match=match):
        aec_env(**options)  # type: ignore[arg-type]  # the wrong types on purpose


def test_stepping_before_reset_or_after_the_end_is_refused() -> None:
    env = aec_env()
    with pytest.raises(IllegalActionError, match="reset"):
        env.step(0)
    env.reset(seed=6)
    _play(env, seed=6)
    with pytest.raises(IllegalActionError, match="reset"):
        env.step(None)


def test_an_unknown_agent_is_refused() -> None:
    env = aec_env()
    env.reset(seed=1)
    with pytest.raises(InvalidArgumentError, match="unknown agent"):
        env.observe("player_7")


def test_a_bad_seed_is_refused() -> None:
    env = aec_env()
    with pytest.raises(InvalidArgumentError, match="seed"):
        env.reset(seed="1")  # type: ignore[arg-type]  # the wrong type on purpose


@pytest.mark.parametrize("agent", [[], {}, None, 0, "player_9", "x" * 10_000])
def test_an_agent_that_is_no_name_of_the_game_gets_the_library_error(agent: object) -> None:
    env = aec_env(2)
    env.reset(seed=1)
    for ask in (env.observe, env.observation_space, env.action_space):
        with pytest.raises(InvalidArgumentError, match="unknown agent") as raised:
            ask(agent)  # type: ignore[arg-type]  # the wrong types are the point
        assert len(str(raised.value)) < 200
