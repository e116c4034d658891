"""A plain-text picture of a game, for the environments' ``"ansi"`` render mode."""

from __future__ import annotations

from collections.abc import Sequence

from splendor.core.state import GameState


def describe(state: GameState, prefix: Sequence[int] = (), names: Sequence[str] = ()) -> str:
    """Several lines of text showing the whole table (every card face up)."""
    count = len(state.players)
    names = tuple(names) or tuple(f"player_{seat}" for seat in range(count))
    if state.winners:
        status = "game over, won by " + ", ".join(names[seat] for seat in state.winners)
    else:
        status = f"{names[state.current_player]} to move"
        if prefix:
            status += f", decisions so far {list(prefix)}"
    lines = [f"turn {state.turn} (round {state.round + 1}): {status}"]
    lines.append(f"bank: {state.bank or '-'}")
    lines.append("nobles: " + ("  ".join(str(noble) for noble in state.nobles) or "-"))
    for tier in (3, 2, 1):
        slots = "  ".join("(empty)" if card is None else str(card) for card in state.face_up(tier))
        lines.append(f"tier {tier} [{len(state.deck(tier))} in deck]: {slots}")
    for seat, player in enumerate(state.players):
        reserved = "  ".join(
            f"{card}{' blind' if blind else ''}"
            for card, blind in zip(player.reserved, player.reserved_blind, strict=True)
        )
        lines.append(
            f"{names[seat]}: {player.points} points, tokens {player.tokens or '-'}, "
            f"bonuses {player.bonuses or '-'}, {len(player.cards)} cards, "
            f"{len(player.nobles)} nobles, reserved: {reserved or '-'}"
        )
    return "\n".join(lines)
