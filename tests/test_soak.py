"""The soak harness in a small run, and proof that its checks can fail."""

from __future__ import annotations

import attrs

import splendor
from splendor import Gem, Take, Tokens
from tests import soak


def test_a_small_soak_finds_no_violation() -> None:
    lines: list[str] = []
    assert soak.soak(45, seed=1000, out=lines.append) == 0
    assert lines[-1].startswith("soak: 45 games")


def test_the_turn_check_passes_a_legal_turn() -> None:
    state = splendor.new_game(2, seed=3)
    action = splendor.legal_actions(state)[0]
    assert soak.check_turn(state, action, splendor.apply(state, action)) == []


def test_the_turn_check_catches_tokens_out_of_thin_air() -> None:
    state = splendor.new_game(2, seed=3)
    action = Take(Tokens.of(Gem.WHITE, Gem.BLUE, Gem.GREEN))
    after = splendor.apply(state, action)
    mover = attrs.evolve(after.players[0], tokens=after.players[0].tokens + Tokens(red=1))
    forged = attrs.evolve(after, players=(mover, after.players[1]))
    problems = soak.check_turn(state, action, forged)
    assert any("tokens" in problem for problem in problems)


def test_the_turn_check_catches_another_seat_changing() -> None:
    state = splendor.new_game(2, seed=3)
    action = Take(Tokens.of(Gem.WHITE, Gem.BLUE, Gem.GREEN))
    after = splendor.apply(state, action)
    other = attrs.evolve(after.players[1], points=1)
    forged = attrs.evolve(after, players=(after.players[0], other))
    problems = soak.check_turn(state, action, forged)
    assert any("seat 1 changed" in problem for problem in problems)


def test_the_turn_check_catches_a_wrong_seat_to_move() -> None:
    state = splendor.new_game(3, seed=3)
    action = Take(Tokens.of(Gem.WHITE, Gem.BLUE, Gem.GREEN))
    after = attrs.evolve(splendor.apply(state, action), current_player=2)
    problems = soak.check_turn(state, action, after)
    assert any("moves after seat 0" in problem for problem in problems)


def test_the_turn_check_catches_an_unlisted_action() -> None:
    state = splendor.new_game(2, seed=3)
    after = splendor.apply(state, Take(Tokens.of(Gem.WHITE, Gem.BLUE, Gem.GREEN)))
    four = Take(Tokens(white=1, blue=1, green=1, red=1))
    problems = soak.check_turn(state, four, after)
    assert problems == [f"{four} is not listed exactly once"]
