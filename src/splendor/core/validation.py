"""Checking a game state against every invariant the engine keeps: :func:`check_state`.

Every state that :func:`splendor.new_game` and :func:`splendor.apply` make
passes; a state built by hand or loaded from outside may not.
:func:`splendor.from_json` runs the check on every state it loads, so
:func:`splendor.legal_actions` and :func:`splendor.apply` can trust it.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Final

import attrs

from splendor.core.checks import TIERS, is_int
from splendor.core.components import CARDS, Card, is_game_card, is_game_noble
from splendor.core.gems import GEMS, Tokens
from splendor.core.messages import short_repr
from splendor.core.rules import MAX_PLAYERS, MIN_PLAYERS, Rules
from splendor.core.state import GameState, PlayerState, winners_of
from splendor.errors import InvalidArgumentError, InvalidStateError

__all__ = ["check_player", "check_state"]

_SLOTS: Final = 4


def check_state(state: GameState) -> None:
    """Check that a state could have been reached by playing by the rules' numbers.

    The invariants, checked in this order:

    * shape: 2 to 4 players, 3 board rows of 4 slots, 3 decks, fields of the
      right types;
    * cards: each of the 90 cards exactly once across the board, the decks,
      the players' cards and reserved cards; board rows and decks hold only
      their own tier; a board slot is empty only when its deck is empty;
    * tokens: no negative count; per colour, the supply and the players'
      tokens add up to the rules' setup total for the player count; nobody
      holds more than the token limit;
    * nobles: no noble twice; the revealed nobles left plus those received
      make the rules' number for the player count;
    * players: at most the reserve limit of reserved cards, with one blind
      flag per reserved card; bonuses equal the purchased cards' colours;
      points equal the cards' and nobles' points; each noble held is met by
      the holder's bonuses;
    * turns: ``turn >= 0``, ``current_player == turn % players`` (0 once the
      game is over); ``passes`` no more than the turns played, and within a
      round fewer than would have ended the game at its start;
    * history: what each player holds could have been gained in the turns
      it has played (``turn // players``, plus one for the seats before
      ``current_player``): each turn buys at most one card, reserves at
      most one card (with at most one gold token), gains at most 3 tokens
      and at most one noble. So a player's purchased cards plus the larger
      of its reserved cards and its gold tokens, its tokens in threes, and
      its nobles, are each at most its turns;
    * end: the game is over (``winners`` not empty) exactly when a round has
      just ended with someone at the points to win or a whole round of
      passes, and then ``winners`` are the rules' winners (most points, then
      fewest cards; ties share); in a game still on, no seat yet to play in
      the current round holds the points to win (it held them when the last
      round ended, which would have ended the game).

    Not checked, because it needs the history of the game or a search:
    whether a noble should have visited (a player meeting a revealed noble's
    requirement), whether the tokens spent on the cards bought could have
    been gathered in the turns left, and whether the deck order and the
    cards on the board could come from a shuffle (any order can).

    Args:
        state: the state to check.

    Raises:
        InvalidStateError: naming the first broken invariant.
        InvalidArgumentError: when ``state`` is not a :class:`~splendor.GameState`.

    >>> from splendor import new_game
    >>> import attrs
    >>> state = new_game(2, seed=1)
    >>> check_state(state)
    >>> check_state(attrs.evolve(state, turn=1))
    Traceback (most recent call last):
    ...
    splendor.errors.InvalidStateError: turns: current_player is 0 but turn 1 makes it seat 1
    """
    if not isinstance(state, GameState):
        raise InvalidArgumentError(f"expected a GameState, got {type(state).__name__}")
    _check_shape(state)
    _check_cards(state)
    _check_tokens(state)
    _check_nobles(state)
    for seat, player in enumerate(state.players):
        _check_player(state.rules, f"player {seat}", player)
    _check_turns(state)
    _check_history(state)
    _check_end(state)


def _fail(invariant: str, message: str) -> InvalidStateError:
    return InvalidStateError(f"{invariant}: {message}")


def _check_shape(state: GameState) -> None:
    if not isinstance(state.rules, Rules):
        raise _fail("shape", f"rules must be a Rules, got {short_repr(state.rules)}")
    numbers = [getattr(state.rules, field.name) for field in attrs.fields(Rules)]
    flat = [n for value in numbers for n in (value if type(value) is tuple else (value,))]
    if not all(is_int(n) for n in flat):
        raise _fail("shape", "the rules' numbers must be ints within 64 bits")
    players = state.players
    if type(players) is not tuple or not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
        raise _fail("shape", f"players must be a tuple of {MIN_PLAYERS} to {MAX_PLAYERS} players")
    for seat, player in enumerate(players):
        _check_player_shape(f"player {seat}", player)
    if type(state.bank) is not Tokens or not all(is_int(n) for n in state.bank.counts):
        raise _fail("shape", "bank must be Tokens with counts within 64 bits")
    board = state.board
    if type(board) is not tuple or len(board) != len(TIERS):
        raise _fail("shape", "board must be a tuple of 3 rows (tiers 1 to 3)")
    for tier, row in zip(TIERS, board, strict=True):
        if type(row) is not tuple or len(row) != _SLOTS:
            raise _fail("shape", f"the tier {tier} board row must be a tuple of {_SLOTS} slots")
        if not all(card is None or is_game_card(card) for card in row):
            raise _fail("shape", f"the tier {tier} board row must hold the game's cards or None")
    decks = state.decks
    if type(decks) is not tuple or len(decks) != len(TIERS):
        raise _fail("shape", "decks must be a tuple of 3 decks (tiers 1 to 3)")
    for tier, deck in zip(TIERS, decks, strict=True):
        if type(deck) is not tuple or not all(is_game_card(card) for card in deck):
            raise _fail("shape", f"the tier {tier} deck must be a tuple of the game's cards")
    if type(state.nobles) is not tuple or not all(is_game_noble(n) for n in state.nobles):
        raise _fail("shape", "nobles must be a tuple of the game's nobles")
    for name in ("current_player", "turn", "passes"):
        if not is_int(getattr(state, name)):
            raise _fail("shape", f"{name} must be an int within 64 bits")
    winners = state.winners
    if type(winners) is not tuple or not all(is_int(seat) for seat in winners):
        raise _fail("shape", "winners must be a tuple of int")


def _check_player_shape(who: str, player: PlayerState) -> None:
    if type(player) is not PlayerState:
        raise _fail("shape", f"{who} is not a PlayerState: {short_repr(player)}")
    for name in ("tokens", "bonuses"):
        if type(getattr(player, name)) is not Tokens:
            raise _fail("shape", f"{who}'s {name} must be Tokens")
    for name, kind, check in (
        ("cards", "cards", is_game_card),
        ("reserved", "cards", is_game_card),
        ("nobles", "nobles", is_game_noble),
    ):
        items = getattr(player, name)
        if type(items) is not tuple or not all(check(x) for x in items):
            raise _fail("shape", f"{who}'s {name} must be a tuple of the game's {kind}")
    blind = player.reserved_blind
    if type(blind) is not tuple or not all(type(flag) is bool for flag in blind):
        raise _fail("shape", f"{who}'s reserved_blind must be a tuple of bool")
    if not is_int(player.points):
        raise _fail("shape", f"{who}'s points must be an int within 64 bits")
    if not all(is_int(n) for n in (*player.tokens.counts, *player.bonuses.counts)):
        raise _fail("shape", f"{who}'s token and bonus counts must be ints within 64 bits")


def _card_places(state: GameState) -> Iterator[tuple[Card, str]]:
    for tier, row in zip(TIERS, state.board, strict=True):
        for card in row:
            if card is not None:
                yield card, f"the tier {tier} board row"
    for tier, deck in zip(TIERS, state.decks, strict=True):
        for card in deck:
            yield card, f"the tier {tier} deck"
    for seat, player in enumerate(state.players):
        for card in player.cards:
            yield card, f"player {seat}'s cards"
        for card in player.reserved:
            yield card, f"player {seat}'s reserved cards"


def _check_cards(state: GameState) -> None:
    seen: dict[int, str] = {}
    for card, place in _card_places(state):
        if card.id in seen:
            raise _fail("cards", f"card #{card.id} is in two places: {seen[card.id]} and {place}")
        seen[card.id] = place
    missing = [card.id for card in CARDS if card.id not in seen]
    if missing:
        listed = ", ".join(f"#{n}" for n in missing[:10])
        more = f" and {len(missing) - 10} more" if len(missing) > 10 else ""
        raise _fail("cards", f"every card must be in the game once; missing {listed}{more}")
    for tier, row, deck in zip(TIERS, state.board, state.decks, strict=True):
        for slot in (*row, *deck):
            if slot is not None and slot.tier != tier:
                raise _fail(
                    "cards", f"card #{slot.id} of tier {slot.tier} is in a tier {tier} row or deck"
                )
        if deck and None in row:
            raise _fail(
                "cards",
                f"the tier {tier} board row has an empty slot while its deck still has "
                f"{len(deck)} cards",
            )


def _check_tokens(state: GameState) -> None:
    rules = state.rules
    n = len(state.players)
    holdings = [("the supply", state.bank)] + [
        (f"player {seat}", player.tokens) for seat, player in enumerate(state.players)
    ]
    for owner, tokens in holdings:
        if min(tokens.counts) < 0:
            raise _fail("tokens", f"{owner} holds a negative count: {tokens!r}")
    for index, gem in enumerate(GEMS):
        expected = rules.gold(n) if index == 5 else rules.gems(n)
        total = sum(tokens.counts[index] for _, tokens in holdings)
        if total != expected:
            parts = " + ".join(f"{owner} {tokens.counts[index]}" for owner, tokens in holdings)
            raise _fail(
                "tokens",
                f"{gem.value} tokens add up to {total} ({parts}), the rules have {expected} "
                f"for {n} players",
            )
    for seat, player in enumerate(state.players):
        if player.tokens.total > rules.token_limit:
            raise _fail(
                "tokens",
                f"player {seat} holds {player.tokens.total} tokens, over the limit of "
                f"{rules.token_limit}",
            )


def check_player(player: PlayerState, rules: Rules | None = None) -> None:
    """Check one player's state on its own, without the rest of the game.

    The checks of :func:`check_state` that concern one player alone: the
    types of the fields, one blind flag per reserved card, no card held
    twice, no noble twice, bonuses equal to the purchased cards' colours,
    points equal to the cards' and nobles' points, each noble held met by the
    bonuses; with ``rules``, also the reserve limit and the token limit.

    Args:
        player: the player's state.
        rules: the rules to check the limits of, or ``None`` to skip them.

    Raises:
        InvalidStateError: naming the first broken invariant.

    >>> from splendor import new_game
    >>> import attrs
    >>> player = new_game(2, seed=1).players[0]
    >>> check_player(player)
    >>> check_player(attrs.evolve(player, points=2))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    splendor.errors.InvalidStateError: points: the player has 2 points but their cards ...
    """
    _check_player_shape("the player", player)
    if rules is not None and not isinstance(rules, Rules):
        raise InvalidArgumentError(f"expected Rules or None, got {type(rules).__name__}")
    _check_player(rules, "the player", player)
    held = (*player.cards, *player.reserved)
    if len(set(held)) != len(held):
        raise _fail("cards", "the player holds a card twice")
    if len(set(player.nobles)) != len(player.nobles):
        raise _fail("nobles", "the player holds a noble twice")
    if min(player.tokens.counts) < 0:
        raise _fail("tokens", f"the player holds a negative count: {player.tokens!r}")
    if rules is not None and player.tokens.total > rules.token_limit:
        raise _fail(
            "tokens",
            f"the player holds {player.tokens.total} tokens, over the limit of {rules.token_limit}",
        )


def _check_player(rules: Rules | None, who: str, player: PlayerState) -> None:
    if rules is not None and len(player.reserved) > rules.reserve_limit:
        raise _fail(
            "reserved",
            f"{who} holds {len(player.reserved)} reserved cards, over the limit of "
            f"{rules.reserve_limit}",
        )
    if len(player.reserved_blind) != len(player.reserved):
        raise _fail(
            "reserved",
            f"{who} has {len(player.reserved_blind)} reserved_blind flag(s) for "
            f"{len(player.reserved)} reserved cards",
        )
    bonuses = Tokens.of(*(card.bonus for card in player.cards))
    if player.bonuses != bonuses:
        raise _fail(
            "bonuses",
            f"{who}'s bonuses are {player.bonuses} but the purchased cards give {bonuses}",
        )
    points = sum(card.points for card in player.cards) + sum(n.points for n in player.nobles)
    if player.points != points:
        raise _fail(
            "points",
            f"{who} has {player.points} points but their cards and nobles are worth {points}",
        )
    for noble in player.nobles:
        if not noble.requirement <= player.bonuses:
            raise _fail(
                "nobles",
                f"{who} holds noble N{noble.id} but their bonuses {player.bonuses} do not meet "
                f"its requirement {noble.requirement}",
            )


def _check_nobles(state: GameState) -> None:
    seen: dict[int, str] = {}
    places = [("the revealed nobles", noble) for noble in state.nobles] + [
        (f"player {seat}'s nobles", noble)
        for seat, player in enumerate(state.players)
        for noble in player.nobles
    ]
    for place, noble in places:
        if noble.id in seen:
            raise _fail(
                "nobles", f"noble N{noble.id} is in two places: {seen[noble.id]} and {place}"
            )
        seen[noble.id] = place
    expected = state.rules.nobles(len(state.players))
    if len(places) != expected:
        raise _fail(
            "nobles",
            f"{len(state.nobles)} revealed and {len(places) - len(state.nobles)} received make "
            f"{len(places)} nobles, the rules reveal {expected} for {len(state.players)} players",
        )


def _check_turns(state: GameState) -> None:
    n = len(state.players)
    if state.turn < 0:
        raise _fail("turns", f"turn must not be negative, got {state.turn}")
    if not 0 <= state.current_player < n:
        raise _fail(
            "turns", f"current_player {state.current_player} is not a seat of the {n} players"
        )
    if state.current_player != state.turn % n:
        raise _fail(
            "turns",
            f"current_player is {state.current_player} but turn {state.turn} makes it seat "
            f"{state.turn % n}",
        )
    # A round that ends after a whole round of passes ends the game, so fewer
    # than n passes ran on before the current round. At a round's end, the
    # end-of-game check reports too many passes.
    most = state.turn
    if not state.winners and state.current_player:
        most = min(state.turn, n - 1 + state.current_player)
    if not 0 <= state.passes <= most:
        raise _fail(
            "turns",
            f"passes is {state.passes}, it must be between 0 and {most} at turn {state.turn}",
        )


def _check_history(state: GameState) -> None:
    n = len(state.players)
    for seat, player in enumerate(state.players):
        turns = state.turn // n + (seat < state.turn % n)
        gold = player.tokens.counts[5]
        held = {
            "purchased cards plus the larger of reserved cards and gold tokens": len(player.cards)
            + max(len(player.reserved), gold),
            "token gains of at most 3 a turn": -(-player.tokens.total // 3),
            "nobles": len(player.nobles),
        }
        for what, needed in held.items():
            if needed > turns:
                raise _fail(
                    "history",
                    f"player {seat} has played {turns} turn(s) but its holdings need {needed} "
                    f"({what}: {len(player.cards)} card(s), {len(player.reserved)} reserved, "
                    f"{player.tokens.total} token(s) with {gold} gold, "
                    f"{len(player.nobles)} noble(s))",
                )


def _check_end(state: GameState) -> None:
    n = len(state.players)
    target = state.rules.points_to_win
    at_round_end = state.turn > 0 and state.current_player == 0
    ended = at_round_end and (state.passes >= n or max(p.points for p in state.players) >= target)
    if not state.winners:
        if ended:
            reason = (
                f"a whole round of passes ({state.passes})"
                if state.passes >= n
                else f"a player at {target} points or more"
            )
            raise _fail("end", f"the round ended with {reason}, but there are no winners")
        # Points are gained only on one's own turn: a seat yet to play in this
        # round had its points when the last round ended, which would have
        # ended the game.
        for seat in range(state.current_player, n):
            points = state.players[seat].points
            if points >= target:
                raise _fail(
                    "end",
                    f"player {seat} has {points} points but has not played since the round "
                    f"that ended at turn {state.turn - state.current_player}, whose end would "
                    "have ended the game",
                )
        return
    if not ended:
        raise _fail(
            "end",
            f"winners {state.winners} are given but the game has not ended: it ends only after "
            f"a whole round, with a player at {target} points or a whole round of passes",
        )
    expected = winners_of(state.players)
    if state.winners != expected:
        raise _fail(
            "end",
            f"winners are {state.winners} but by the rules (most points, then fewest cards) "
            f"they are {expected}",
        )
