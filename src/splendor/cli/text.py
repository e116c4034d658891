"""Text pictures of the table for the terminal: :func:`show_table` and the scores."""

from __future__ import annotations

from collections.abc import Sequence

from splendor._table import TIERS_TOP_DOWN, Table, table_of
from splendor.cli.output import GEM_STYLE, Output, Segment, plural
from splendor.components import Card, Noble
from splendor.gems import GEMS, Gem, Tokens
from splendor.state import GameState
from splendor.views import PlayerView

__all__ = ["finish_lines", "show_table"]


def _chip(gem: Gem, count: int, out: Output) -> Segment:
    text = f"{count}{gem.letter}"
    return (f" {text} ", GEM_STYLE[gem]) if out.rich else text


def _tokens(
    tokens: Tokens, out: Output, *, gems: Sequence[Gem] = GEMS, zeros: bool = True
) -> list[Segment]:
    parts: list[Segment] = []
    for gem in gems:
        if zeros or tokens[gem]:
            if parts:
                parts.append(" ")
            parts.append(_chip(gem, tokens[gem], out))
    return parts or ["-"]


def _card_line(place: str, card: Card, out: Output, *, blind: bool = False) -> list[Segment]:
    points = f"{card.points}pt" if card.points else "   "
    bonus: Segment = (
        (f" {card.bonus.letter} ", GEM_STYLE[card.bonus]) if out.rich else f"[{card.bonus.letter}]"
    )
    parts: list[Segment] = [
        (f"{place:>4} ", "bold"),
        bonus,
        f" {points}  cost ",
        *_tokens(card.cost, out, gems=GEMS[:5], zeros=False),
        (f"   #{card.id}", "dim"),
    ]
    if blind:
        parts.append((" (reserved blind)", "dim"))
    return parts


def _noble_text(noble: Noble, out: Output) -> list[Segment]:
    return [
        (f"N{noble.id}", "bold"),
        f" {noble.points}pt for ",
        *_tokens(noble.requirement, out, gems=GEMS[:5], zeros=False),
    ]


def show_table(
    table: GameState | PlayerView,
    out: Output,
    *,
    seat: int | None = None,
    names: Sequence[str] | None = None,
) -> None:
    """Write the nobles, the cards, the supply and every player's holdings.

    Args:
        table: a state or a view.
        out: where to write.
        seat: for a state, draw from this seat's viewpoint (as :func:`~splendor.svg.render_svg`).
        names: a name per seat.
    """
    data = table_of(table, seat)
    names = list(names) if names is not None else [s.name for s in data.seats]
    nobles: list[Segment] = ["Nobles  "]
    for i, noble in enumerate(data.nobles):
        if i:
            nobles.append("    ")
        nobles += _noble_text(noble, out)
    if not data.nobles:
        nobles.append("none left")
    out.line(*nobles)
    for tier in TIERS_TOP_DOWN:
        size = data.deck_sizes[tier - 1]
        deck = f"{size} in the deck" + (f", blind reserve r{tier}d" if size else "")
        out.line((f"Tier {tier}", "bold underline"), ("  " + deck, "dim"))
        for slot, card in enumerate(data.board[tier - 1], 1):
            if card is None:
                out.line((f"{tier}{slot:<1}".rjust(4) + "  (empty)", "dim"))
            else:
                out.line(*_card_line(f"{tier}{slot}", card, out))
    out.line("Supply  ", *_tokens(data.bank, out))
    for index in range(len(data.seats)):
        _show_seat(data, index, names[index], out)


def _show_seat(data: Table, index: int, name: str, out: Output) -> None:
    player = data.seats[index]
    marker = "  "
    if data.winners:
        if index in data.winners:
            marker = "* "
    elif index == data.current:
        marker = "> "
    you = " (you)" if data.viewer == index and name.lower() != "you" else ""
    head: list[Segment] = [
        (marker, "bold yellow"),
        (f"{name}{you}", "bold"),
        f"  {plural(player.points, 'point')}, {plural(player.cards, 'card')}, "
        f"{plural(player.tokens.total, 'token')}",
    ]
    if player.nobles:
        head.append(", nobles " + " ".join(f"N{n.id}" for n in player.nobles))
    out.line(*head)
    out.line("    tokens   ", *_tokens(player.tokens, out))
    out.line("    bonuses  ", *_tokens(player.bonuses, out, gems=GEMS[:5]))
    for i, (item, blind) in enumerate(zip(player.reserved, player.blind, strict=True), 1):
        if isinstance(item, Card):
            out.line("    reserved", *_card_line(f"r{i}", item, out, blind=blind))
        else:
            out.line("    reserved", (f"  a tier {item} card, face down", "dim"))


def finish_lines(state: GameState, names: Sequence[str], out: Output) -> None:
    """Write the final scores table and who won."""
    rows = [
        [
            ("* " if seat in state.winners else "  ") + names[seat],
            str(player.points),
            str(len(player.cards)),
            str(len(player.nobles)),
        ]
        for seat, player in enumerate(state.players)
    ]
    out.table(
        f"Final scores after {state.round} rounds", ["Player", "Points", "Cards", "Nobles"], rows
    )
    winners = " and ".join(names[s] for s in state.winners)
    verb = "share the win" if len(state.winners) > 1 else "wins"
    out.line((f"{winners} {verb}.", "bold green"))
