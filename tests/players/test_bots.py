"""The bot protocol, the built-in bots and :func:`splendor.play_game`."""

from __future__ import annotations

import random
from collections.abc import Sequence
from pathlib import Path

import pytest

from splendor import (
    Action,
    Buy,
    GreedyBot,
    IllegalActionError,
    InvalidArgumentError,
    PlayerView,
    RandomBot,
    Reserve,
    Take,
    Tokens,
    apply,
    legal_actions,
    new_game,
    play_game,
    view,
)
from splendor.players.bots import BOTS, Bot, bot_name, load_bot
from splendor.players.seats import BotFailedError
from tests.builders import bonus_cards, card, deal, toks, with_bank, with_player, with_row


def first(view: PlayerView, actions: Sequence[Action], rng: random.Random) -> Action:
    """A plain function is a bot: the first legal action."""
    return actions[0]


def test_random_bot_plays_a_listed_action_and_follows_its_generator() -> None:
    state = new_game(2, seed=1)
    actions = legal_actions(state)
    seen = view(state, 0)
    picks = [RandomBot()(seen, actions, random.Random(s)) for s in range(20)]
    assert all(pick in actions for pick in picks)
    assert len(set(picks)) > 1
    assert picks == [RandomBot()(seen, actions, random.Random(s)) for s in range(20)]


def test_greedy_bot_buys_the_affordable_card_worth_most_points() -> None:
    state = with_row(deal(2), 1, [card(1), card(2), card(3), card(4)])
    state = with_row(state, 2, [card(41), card(42), card(43), card(44)])
    # Enough tokens for several cards; the 3-point tier-2 card #46 (6W) is worth most.
    state = with_row(state, 2, [card(46), card(42), card(43), card(44)])
    state = with_player(
        state, tokens=toks("4W 1B 1G 1R 1K"), cards=bonus_cards(toks("2W"), skip=[card(46)])
    )
    actions = legal_actions(state)
    assert sum(isinstance(a, Buy) for a in actions) > 1
    choice = GreedyBot()(view(state, 0), actions, random.Random(0))
    assert isinstance(choice, Buy)
    assert choice.card is card(46)


def test_greedy_bot_takes_gems_toward_the_cheapest_card() -> None:
    # Card #6 costs 3 blue: after taking 2 blue the bot holds 2 of the 3.
    state = with_row(deal(2), 1, [card(6), card(15), card(19), card(4)])
    state = with_player(state, tokens=toks("1B"))
    choice = GreedyBot()(view(state, 0), legal_actions(state), random.Random(0))
    assert isinstance(choice, Take)
    assert choice.gems.counts[1] >= 1  # takes blue, the colour #6 needs


def test_greedy_bot_reserves_its_target_when_the_supply_cannot_help() -> None:
    # Every card needs tokens the supply lacks: only gold helps.
    state = with_row(deal(2), 1, [card(6), card(15), card(19), card(4)])
    state = with_player(state, tokens=toks("2B"))
    state = with_bank(state, Tokens(gold=5))
    actions = legal_actions(state)
    choice = GreedyBot()(view(state, 0), actions, random.Random(0))
    assert isinstance(choice, Reserve)
    assert choice.card is card(6)  # one blue short: the cheapest target


def test_greedy_bot_refuses_a_spectators_view() -> None:
    state = new_game(2, seed=1)
    with pytest.raises(InvalidArgumentError, match="spectator"):
        GreedyBot()(view(state, None), legal_actions(state), random.Random(0))


def test_greedy_bot_without_randomness_draws_nothing_more() -> None:
    state = new_game(2, seed=3)
    actions = legal_actions(state)
    plain, zero = random.Random(5), random.Random(5)
    assert GreedyBot()(view(state, 0), actions, plain) is GreedyBot(randomness=0)(
        view(state, 0), actions, zero
    )
    assert plain.getstate() == zero.getstate()
    assert repr(GreedyBot(randomness=0)) == "GreedyBot()"


def test_greedy_bot_with_randomness_plays_a_random_move_that_often() -> None:
    state = new_game(2, seed=3)
    actions = legal_actions(state)
    seen = view(state, 0)
    # At 1 every turn is random: one draw for the coin, then a uniform index.
    for seed in range(20):
        rng, again = random.Random(seed), random.Random(seed)
        again.random()
        assert GreedyBot(randomness=1)(seen, actions, rng) is actions[again.randrange(len(actions))]
    greedy = GreedyBot()(seen, actions, random.Random(0))
    bot = GreedyBot(randomness=0.5)
    rng = random.Random(7)
    other = sum(bot(seen, actions, rng) != greedy for _ in range(400))
    # Half the turns are random, and a random move is rarely the greedy one.
    assert 150 <= other <= 210
    assert repr(bot) == "GreedyBot(randomness=0.5)"
    loaded = load_bot("greedy:randomness=0.25")
    assert isinstance(loaded, GreedyBot)
    assert loaded.randomness == 0.25


@pytest.mark.parametrize("randomness", [-0.1, 1.5, float("nan"), "0.5", True, None])
def test_greedy_bot_refuses_a_randomness_that_is_not_a_probability(randomness: object) -> None:
    with pytest.raises(InvalidArgumentError, match="randomness"):
        GreedyBot(randomness=randomness)  # type: ignore[arg-type]  # refused on purpose


def test_greedy_bot_beats_random_bot_in_well_over_90_percent_of_games() -> None:
    games = 120
    wins = 0.0
    for i in range(games):
        seat = i % 2
        bots: list[Bot] = [RandomBot(), RandomBot()]
        bots[seat] = GreedyBot()
        record = play_game(bots, seed=10_000 + i)
        assert record.result is not None
        if seat in record.result:
            wins += 1 / len(record.result)
    assert wins / games >= 0.95


def test_greedy_games_end_for_every_player_count() -> None:
    for players in (2, 3, 4):
        for seed in range(5):
            record = play_game([GreedyBot()] * players, seed=seed)
            assert record.result is not None
            assert max(p.points for p in record.final_state().players) >= 15


def test_bots_are_handed_the_view_of_the_seat_to_move_only() -> None:
    seen: list[PlayerView] = []

    def spy(view: PlayerView, actions: Sequence[Action], rng: random.Random) -> Action:
        seen.append(view)
        return RandomBot()(view, actions, rng)

    record = play_game([spy, spy, spy], seed=4, max_turns=60)
    assert len(seen) == len(record.actions) == 60
    for turn, seat_view in enumerate(seen):
        assert type(seat_view) is PlayerView
        assert seat_view.seat == seat_view.current_player == turn % 3
        assert seat_view.turn == turn
        assert seat_view.own is not None


def test_play_game_is_reproducible_from_its_seed() -> None:
    one = play_game([GreedyBot(), RandomBot()], seed=12)
    two = play_game([GreedyBot(), RandomBot()], seed=12)
    other = play_game([GreedyBot(), RandomBot()], seed=13)
    assert one == two
    assert one.actions != other.actions


def test_play_game_record_replays_to_its_final_state() -> None:
    record = play_game([RandomBot(), GreedyBot(), RandomBot()], seed=3)
    state = new_game(3, seed=3)
    for action in record.actions:
        state = apply(state, action)
    assert state == record.final_state()
    assert state.winners == record.result
    assert record.names == ("random", "greedy", "random")


def test_play_game_stops_unfinished_at_max_turns() -> None:
    record = play_game([first, first], seed=1, max_turns=7)
    assert len(record.actions) == 7
    assert record.result is None
    assert play_game([first, first], seed=1, max_turns=0).actions == ()


def test_play_game_names_the_seat_of_a_bot_playing_an_illegal_action() -> None:
    def cheat(view: PlayerView, actions: Sequence[Action], rng: random.Random) -> Action:
        return Take(Tokens(gold=1, red=1, blue=1))

    with pytest.raises(BotFailedError, match=r"seat 1 \(cheat\) failed \(illegal-move\)") as caught:
        play_game([first, cheat], seed=1)
    assert (caught.value.seat, caught.value.reason) == (1, "illegal-move")
    assert isinstance(caught.value.__cause__, IllegalActionError)


def test_play_game_rejects_a_bot_that_returns_no_action() -> None:
    def lost(view: PlayerView, actions: Sequence[Action], rng: random.Random) -> Action:
        return "+WBG"  # type: ignore[return-value]  # deliberately not an action

    with pytest.raises(BotFailedError, match="not an action") as caught:
        play_game([lost, first], seed=1)
    assert (caught.value.seat, caught.value.reason) == (0, "illegal-move")


@pytest.mark.parametrize("count", [0, 1, 5])
def test_play_game_needs_two_to_four_bots(count: int) -> None:
    with pytest.raises(InvalidArgumentError, match="2 to 4 bots"):
        play_game([first] * count, seed=1)


def test_play_game_checks_max_turns_and_names() -> None:
    with pytest.raises(InvalidArgumentError, match="max_turns"):
        play_game([first, first], seed=1, max_turns=-1)
    with pytest.raises(InvalidArgumentError, match="names"):
        play_game([first, first], seed=1, names=["only one"])


def test_load_bot_knows_the_built_in_bots_and_module_paths() -> None:
    assert sorted(BOTS) == ["greedy", "ismcts", "random", "search"]
    assert type(load_bot("search:iterations=10")).__name__ == "SearchBot"
    assert isinstance(load_bot("random"), RandomBot)
    assert isinstance(load_bot("splendor.players.bots:GreedyBot"), GreedyBot)
    assert load_bot("tests.players.test_bots:first") is first


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("minimax", "unknown bot"),
        ("no_such_module_here:bot", "cannot import"),
        ("splendor.players.bots:nothing", "not a callable bot"),
        ("splendor.players.bots:DEFAULT_MAX_TURNS", "not a callable bot"),
    ],
)
def test_load_bot_explains_a_bad_name(spec: str, message: str) -> None:
    with pytest.raises(InvalidArgumentError, match=message):
        load_bot(spec)


def test_bot_name_prefers_the_name_attribute() -> None:
    assert bot_name(GreedyBot()) == "greedy"
    assert bot_name(first) == "first"
    assert repr(RandomBot()) == "RandomBot()"


class NeedsArguments:
    """A class that cannot be made with no arguments, so it cannot be loaded as a bot."""

    def __init__(self, depth: int) -> None:
        self.depth = depth

    def __call__(self, view: PlayerView, actions: Sequence[Action], rng: random.Random) -> Action:
        return actions[0]


class NotCallable:
    """A class whose instances cannot be called."""


def no_arguments() -> Action:
    """A function that cannot be called like a bot."""
    raise AssertionError("never called")


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        (None, "named by a str"),
        (7, "named by a str"),
        ("..x:y", "absolute module name"),
        (".bots:first", "absolute module name"),
        ("\x00:bot", "cannot import"),
        ("tests.players.test_bots:NeedsArguments", r"NeedsArguments\(\) raised TypeError"),
        ("tests.players.test_bots:NotCallable", "instance is not callable"),
        ("tests.players.test_bots:no_arguments", r"cannot be called with \(view, actions, rng\)"),
        ("os:getcwd", r"cannot be called with \(view, actions, rng\)"),
    ],
)
def test_load_bot_refuses_what_is_not_a_bot(spec: object, message: str) -> None:
    with pytest.raises(InvalidArgumentError, match=message):
        load_bot(spec)  # type: ignore[arg-type]  # wrong types on purpose too


def test_load_bot_reports_a_module_that_fails_while_importing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "splendor_broken_bot_zz.py").write_text("1 / 0\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(InvalidArgumentError, match="ZeroDivisionError") as caught:
        load_bot("splendor_broken_bot_zz:bot")
    assert isinstance(caught.value.__cause__, ZeroDivisionError)


def test_load_bot_accepts_a_callable_object_and_a_function_with_defaults() -> None:
    assert load_bot("tests.players.test_bots:first") is first
    assert isinstance(load_bot("splendor.players.bots:RandomBot"), RandomBot)


@pytest.mark.parametrize("bot", [RandomBot(), GreedyBot()], ids=repr)
def test_the_built_in_bots_check_their_arguments(bot: Bot) -> None:
    state = new_game(2, seed=1)
    seen = view(state, 0)
    actions = legal_actions(state)
    rng = random.Random(1)
    bad: list[tuple[object, object, object, str]] = [
        (seen, [], rng, "at least one legal action"),
        (seen, (), rng, "at least one legal action"),
        (None, actions, rng, "PlayerView"),
        (state, actions, rng, "PlayerView"),
        (seen, None, rng, "sequence of actions"),
        (seen, "+WBG", rng, "sequence of actions"),
        (seen, [5, *actions], rng, "only choose among actions"),
        (seen, actions, None, "random.Random"),
        (seen, actions, 1, "random.Random"),
    ]
    for view_arg, actions_arg, rng_arg, message in bad:
        with pytest.raises(InvalidArgumentError, match=message):
            bot(view_arg, actions_arg, rng_arg)  # type: ignore[arg-type]  # wrong types on purpose
    assert bot(seen, actions[:1], rng) is actions[0]


def test_greedy_bot_refuses_a_spectator_even_with_one_action() -> None:
    state = new_game(2, seed=1)
    with pytest.raises(InvalidArgumentError, match="spectator"):
        GreedyBot()(view(state, None), legal_actions(state)[:1], random.Random(0))


@pytest.mark.parametrize("bots", [None, 5, 2.5, "ab"])
def test_play_game_refuses_bots_that_are_not_a_sequence(bots: object) -> None:
    with pytest.raises(InvalidArgumentError, match="bot"):
        play_game(bots, seed=1)  # type: ignore[arg-type]  # wrong type on purpose


@pytest.mark.parametrize("names", [5, "ab", [1, 2], ["Ann", None], (b"Ann", b"Bo")])
def test_play_game_refuses_names_that_are_not_a_sequence_of_str(names: object) -> None:
    with pytest.raises(InvalidArgumentError, match="names"):
        play_game([first, first], seed=1, names=names)  # type: ignore[arg-type]  # wrong type on purpose
