"""The soak harness in a small run, and proof that its checks can fail."""

from __future__ import annotations

import attrs
import pytest

import splendor
from splendor import Action, GameState, Gem, Take, Tokens
from tools import soak


def test_a_small_soak_finds_no_violation() -> None:
    lines: list[str] = []
    assert soak.soak(45, seed=1000, bot_every=15, out=lines.append) == 0
    assert lines[-1].startswith("soak: 45 games")
    assert "42 python (" in lines[-1]
    assert "3 bot (" in lines[-1]
    assert "0 games with a violation" in lines[-1]


def test_a_small_kernel_soak_finds_no_violation() -> None:
    pytest.importorskip("tools._soak_kernel", reason="the soak's checker is not built")
    lines: list[str] = []
    assert soak.soak(300, seed=7, kernel=True, python_every=50, out=lines.append) == 0
    assert "294 kernel (" in lines[-1]
    assert "6 cross-checked (" in lines[-1]


def test_the_kernel_soak_needs_its_checker(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(soak, "compiled_checker", lambda: False)
    with pytest.raises(SystemExit, match="build_soak_kernel"):
        soak.soak(1, kernel=True)


def test_a_replay_of_legal_moves_finds_nothing() -> None:
    assert soak.replay(3, 4, 12, [5, 0, 17, 3, 2**16, 9]) == []
    assert soak.replay(2, 0, 1, list(range(300))) == []


def _forge_at(turn: int) -> object:
    """An apply that adds a red token to the mover from ``turn`` on."""
    real = splendor.apply

    def forged(state: GameState, action: Action) -> GameState:
        after = real(state, action)
        if state.turn < turn:
            return after
        seat = state.current_player
        players = list(after.players)
        players[seat] = attrs.evolve(players[seat], tokens=players[seat].tokens + Tokens(red=1))
        return attrs.evolve(after, players=tuple(players))

    return forged


def test_a_replay_reports_a_broken_turn(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(splendor, "apply", _forge_at(4))
    assert soak.replay(2, 0, 1, [0, 0, 0]) == []
    problems = soak.replay(2, 0, 1, [0, 0, 0, 0, 0, 0])
    assert problems
    assert all(problem.startswith("turn 4: ") for problem in problems)


def test_shrink_keeps_the_failure_and_drops_the_rest() -> None:
    def fails(picks: list[int]) -> bool:
        return sum(1 for pick in picks if pick) >= 2

    small = soak.shrink([0, 5, 0, 3, 7, 0, 9], fails)
    assert fails(small)
    assert len(small) == 2


def test_a_violation_is_printed_with_its_shrunk_replay(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(splendor, "apply", _forge_at(5))
    lines: list[str] = []
    assert soak.soak(1, seed=2, out=lines.append) == 1
    assert lines[0].startswith("VIOLATION in game 0 (python, 2 players, rules 0, seed 2): turn 5: ")
    assert lines[1].startswith("  moves played: replay(2, 0, 2, [")
    # Any six moves reach the broken turn: the shrunk game is six moves of index 0.
    assert lines[2] == "  shrunk to 6 moves: replay(2, 0, 2, [0, 0, 0, 0, 0, 0])"
    assert "1 games with a violation" in lines[-1]


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


def test_a_game_stopped_at_the_turn_limit_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(soak, "MAX_TURNS", 5)
    lines: list[str] = []
    assert soak.soak(2, seed=4, out=lines.append) == 0
    assert lines[0] == "UNFINISHED game 0 (python, 2 players, rules 0, seed 4) stopped at 5 turns"
    assert lines[1] == "UNFINISHED game 1 (python, 3 players, rules 0, seed 5) stopped at 5 turns"
    assert "2 stopped at 5 turns" in lines[-1]
