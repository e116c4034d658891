"""Observations: layout, content from the observer's seat, and no hidden card leaks."""

from __future__ import annotations

import itertools
import random
import subprocess
import sys

import pytest

pytest.importorskip("numpy")
pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

import numpy as np
from hypothesis import given

from splendor import (
    CARDS_BY_ID,
    GEMS,
    GameState,
    InvalidArgumentError,
    ReserveFromDeck,
    Rules,
    Take,
    apply,
    determinize,
    new_game,
    view,
)
from splendor.extras import install_command
from splendor.formats.encoding import ACTION_COUNT, legal_codes
from splendor.rl import (
    CARD_FEATURES,
    NOBLE_FEATURES,
    observation,
    observation_high,
    observation_layout,
    observation_shape,
)
from splendor.rl.observations import observe_state
from tests.builders import toks, with_row
from tests.strategies import RandomGame, random_games


def _fields(obs: np.ndarray, players: int, rules: Rules | None = None) -> dict[str, np.ndarray]:
    return {field.name: field.of(obs) for field in observation_layout(players, rules)}


def _blind_game() -> GameState:
    """Two players: seat 0 reserved blind from tier 3, seat 1 took gems; seat 0 to move."""
    state = apply(new_game(2, seed=5), ReserveFromDeck(3))
    return apply(state, Take(toks("1W 1B 1G")))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_layout_tiles_the_vector_in_order(players: int) -> None:
    fields = observation_layout(players)
    assert [f.name for f in fields] == [
        "bank",
        "deck_sizes",
        "status",
        "players",
        "board",
        "reserved",
        "nobles",
        "decision",
    ]
    assert fields[0].start == 0
    for before, after in itertools.pairwise(fields):
        assert after.start == before.stop
    assert observation_shape(players) == (fields[-1].stop,)
    assert fields[3].shape == (players, 15)
    assert fields[4].shape == (12, len(CARD_FEATURES))
    assert fields[5].shape == (players, 3, len(CARD_FEATURES))
    assert fields[6].shape == (players + 1, len(NOBLE_FEATURES))
    assert fields[-1].shape == (1 + 2 * ACTION_COUNT,)


def test_house_rules_change_the_noble_and_reserve_slots() -> None:
    rules = Rules(nobles_by_players=(5, 5, 5), reserve_limit=4)
    fields = {f.name: f for f in observation_layout(2, rules)}
    assert fields["nobles"].shape == (5, len(NOBLE_FEATURES))
    assert fields["reserved"].shape == (2, 4, len(CARD_FEATURES))
    state = new_game(2, seed=1, rules=rules)
    assert observation(view(state, 0)).shape == observation_shape(2, rules)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_seat_gets_the_fixed_shape_and_dtype(players: int) -> None:
    state = new_game(players, seed=players)
    for seat in range(players):
        obs = observation(view(state, seat))
        assert obs.shape == observation_shape(players)
        assert obs.dtype == np.float32
        assert obs.min() >= 0
        assert obs.max() <= observation_high(players)


def test_the_tables_values_match_the_view() -> None:
    state = _blind_game()
    f = _fields(observation(view(state, 1)), 2)
    assert f["bank"].tolist() == list(state.bank.counts)
    assert f["deck_sizes"].tolist() == [len(deck) for deck in state.decks]
    for index, card in enumerate(c for row in state.board for c in row):
        assert card is not None
        row = dict(zip(CARD_FEATURES, f["board"][index].tolist(), strict=True))
        assert row["visible"] == 1
        assert row["hidden"] == 0
        assert row[f"tier{card.tier}"] == 1
        assert row[f"bonus_{card.bonus.value}"] == 1
        assert row["points"] == card.points
        assert [row[f"cost_{gem.value}"] for gem in GEMS[:5]] == list(card.cost.counts[:5])
    for index, noble in enumerate(state.nobles):
        row = dict(zip(NOBLE_FEATURES, f["nobles"][index].tolist(), strict=True))
        assert row["present"] == 1
        assert row["points"] == noble.points
        assert [row[f"need_{gem.value}"] for gem in GEMS[:5]] == list(noble.requirement.counts[:5])
    assert f["status"].tolist() == [0, 0]
    assert not f["decision"].any()


def test_the_observer_comes_first_then_the_others_in_turn_order() -> None:
    state = new_game(3, seed=2)
    state = apply(state, Take(toks("1W 1B 1G")))  # seat 0
    state = apply(state, Take(toks("2R")))  # seat 1; seat 2 to move
    f = _fields(observation(view(state, 1)), 3)
    tokens = f["players"][:, :6].tolist()
    assert tokens[0] == list(state.players[1].tokens.counts)  # me: seat 1
    assert tokens[1] == list(state.players[2].tokens.counts)  # then seat 2
    assert tokens[2] == list(state.players[0].tokens.counts)  # then seat 0
    to_move = f["players"][:, 14].tolist()
    assert to_move == [0, 1, 0]


def test_a_blind_reserve_shows_only_its_tier_to_the_others() -> None:
    state = _blind_game()
    card = state.players[0].reserved[0]
    mine = _fields(observation(view(state, 0)), 2)["reserved"][0, 0]
    theirs = _fields(observation(view(state, 1)), 2)["reserved"][1, 0]
    features = dict(zip(CARD_FEATURES, theirs.tolist(), strict=True))
    assert features["hidden"] == 1
    assert features["visible"] == 0
    assert features["tier3"] == 1
    assert features["tier1"] == features["tier2"] == 0
    assert features["points"] == 0
    assert not any(theirs[5:10])
    assert not any(theirs[11:])
    own = dict(zip(CARD_FEATURES, mine.tolist(), strict=True))
    assert own["visible"] == 1
    assert own["points"] == card.points
    assert own[f"bonus_{card.bonus.value}"] == 1


def test_the_decision_in_progress_is_encoded() -> None:
    state = new_game(2, seed=3)
    seen = view(state, 0)
    first = legal_codes(state)[0]
    prefix = [first]
    while True:
        following = legal_codes(state, tuple(prefix))
        if not following:
            break
        prefix.append(following[-1])
    obs = observation(seen, tuple(prefix))
    decision = _fields(obs, 2)["decision"]
    assert decision[0] == len(prefix)
    assert decision[1 + first] == 1
    assert decision[1 : 1 + ACTION_COUNT].sum() == 1
    later = decision[1 + ACTION_COUNT :]
    assert later.sum() == len(prefix) - 1
    for code in prefix[1:]:
        assert later[code] >= 1
    # Everything else is the same as between turns.
    assert (obs[: -(1 + 2 * ACTION_COUNT)] == observation(seen)[: -(1 + 2 * ACTION_COUNT)]).all()


def _check_equal_views_equal_observations(game: RandomGame) -> None:
    rng = random.Random(game.seed)
    for state in game.states()[:: max(1, len(game.states()) // 6)]:
        for seat in range(game.players):
            seen = view(state, seat)
            obs = observation(seen)
            other = determinize(seen, rng)
            assert view(other, seat) == seen
            assert (observation(view(other, seat)) == obs).all()


@given(random_games(max_turns=120))
def test_states_with_equal_views_give_equal_observations(game: RandomGame) -> None:
    _check_equal_views_equal_observations(game)


@given(random_games(max_turns=150))
def test_the_environments_quick_path_gives_the_same_observation(game: RandomGame) -> None:
    for state in game.states()[:: max(1, len(game.states()) // 8)]:
        for seat in range(game.players):
            expected = observation(view(state, seat))
            assert (observe_state(state, seat) == expected).all()
        if not state.is_over:
            prefix = (legal_codes(state)[-1],)
            expected = observation(view(state, state.current_player), prefix)
            assert (observe_state(state, state.current_player, prefix) == expected).all()


def test_equal_views_with_blind_reserves_give_equal_observations() -> None:
    state = _blind_game()
    seen = view(state, 1)
    guesses = {determinize(seen, seed).players[0].reserved[0] for seed in range(20)}
    assert len(guesses) > 1  # the hidden card really differs between the states
    for seed in range(20):
        other = determinize(seen, seed)
        assert (observation(view(other, 1)) == observation(seen)).all()


def test_the_game_over_flag() -> None:
    state = new_game(2, seed=7)
    rng = random.Random(7)
    from splendor import legal_actions

    while not state.is_over:
        actions = legal_actions(state)
        state = apply(state, actions[rng.randrange(len(actions))])
    f = _fields(observation(view(state, 0)), 2)
    assert f["status"][1] == 1
    assert not f["players"][:, 14].any()  # nobody to move


@pytest.mark.parametrize(
    ("value", "prefix"),
    [
        ("not a view", ()),
        (None, ()),
    ],
)
def test_something_else_than_a_view_is_refused(value: object, prefix: tuple[int, ...]) -> None:
    with pytest.raises(InvalidArgumentError, match="expected a PlayerView"):
        observation(value, prefix)  # type: ignore[arg-type]  # the wrong type on purpose


def test_a_state_or_a_spectator_view_is_refused() -> None:
    state = new_game(2, seed=1)
    with pytest.raises(InvalidArgumentError, match="expected a PlayerView"):
        observation(state)  # type: ignore[arg-type]  # the wrong type on purpose
    with pytest.raises(InvalidArgumentError, match="spectator"):
        observation(view(state, None))


@pytest.mark.parametrize("prefix", [(-1,), (ACTION_COUNT,), ("3",), (1.0,), "12", 5])
def test_a_malformed_prefix_is_refused(prefix: object) -> None:
    seen = view(new_game(2, seed=1), 0)
    with pytest.raises(InvalidArgumentError, match=r"prefix|code"):
        observation(seen, prefix)  # type: ignore[arg-type]  # the wrong type on purpose


@pytest.mark.parametrize("players", [1, 5, "2", None])
def test_a_bad_player_count_is_refused(players: object) -> None:
    with pytest.raises(InvalidArgumentError, match="2 to 4"):
        observation_shape(players)  # type: ignore[arg-type]  # the wrong type on purpose
    with pytest.raises(InvalidArgumentError, match="2 to 4"):
        observation_layout(players)  # type: ignore[arg-type]  # the wrong type on purpose


def test_bad_rules_are_refused() -> None:
    with pytest.raises(InvalidArgumentError, match="Rules"):
        observation_shape(2, rules="standard")  # type: ignore[arg-type]  # on purpose


def test_every_card_has_its_own_features() -> None:
    seen: set[tuple[float, ...]] = set()
    for tier, first in ((1, 1), (2, 41), (3, 71)):
        count = {1: 40, 2: 30, 3: 20}[tier]
        for chunk in range(first, first + count, 4):
            cards = [CARDS_BY_ID[i] for i in range(chunk, min(chunk + 4, first + count))]
            state = with_row(new_game(2, seed=1), tier, cards + [None] * (4 - len(cards)))
            board = _fields(observation(view(state, 0)), 2)["board"][4 * (tier - 1) :]
            for index, card in enumerate(cards):
                row = board[index].tolist()
                assert row[10] == card.points
                assert row[11:16] == list(card.cost.counts[:5])
                seen.add(tuple(row))
    assert len(seen) == 90


def _run(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False
    )


def test_import_splendor_loads_no_numpy() -> None:
    done = _run(
        "import sys, splendor; print(sorted(m for m in ('numpy', 'gymnasium', "
        "'pettingzoo', 'pyspiel') if m in sys.modules))"
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


@pytest.mark.parametrize(
    ("blocked", "module", "extra"),
    [
        ("numpy", "splendor.rl", "rl"),
        ("pettingzoo", "splendor.rl.pettingzoo_env", "rl"),
        ("gymnasium", "splendor.rl.gymnasium_env", "rl"),
        ("pyspiel", "splendor.rl.openspiel", "openspiel"),
    ],
)
def test_a_missing_extra_gives_the_librarys_error_naming_it(
    blocked: str, module: str, extra: str
) -> None:
    done = _run(
        f"import sys; sys.modules[{blocked!r}] = None\n"
        "import importlib, splendor\n"
        "try:\n"
        f"    importlib.import_module({module!r})\n"
        "except splendor.errors.MissingExtraError as error:\n"
        "    print(type(error).__name__, error.extra, isinstance(error, ImportError))\n"
        "    print(error)\n"
    )
    assert done.returncode == 0, done.stderr
    first, message = done.stdout.splitlines()
    assert first == f"MissingExtraError {extra} True"
    assert message.endswith(f": {install_command(extra)}")
