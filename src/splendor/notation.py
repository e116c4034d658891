"""A short text for every action, and game records as text.

Each action has a compact text, like UCI moves in chess, that names cards by
where they lie in the state the action is played from:

============================  ===============  ====================================
form                          example          action
============================  ===============  ====================================
``+`` gems                    ``+WBG``         take white, blue and green
                              ``+RR``          take 2 red
``+`` gems ``-`` tokens       ``+WBG-KK``      take, then return 2 black
``r`` tier slot               ``r23``          reserve the face-up card of tier 2,
                                               slot 3 (slots count from the left)
``r`` tier ``d``              ``r1d``          reserve the top card of the tier 1
                                               deck, blind
``r`` ... ``-`` tokens        ``r23-Y``        reserve, then return the gold
``b`` tier slot               ``b32``          buy the face-up card of tier 3, slot 2
``br`` index                  ``br1``          buy the first of one's reserved cards
``b`` ... ``=`` tokens        ``b32=WWY``      buy paying 2 white and 1 gold
``p``                         ``p``            pass
... ``n`` id                  ``b32n4``        ... and receive noble 4
============================  ===============  ====================================

The gem letters are ``W`` (white), ``B`` (blue), ``G`` (green), ``R`` (red),
``K`` (black) and ``Y`` or ``*`` (gold); a digit before a letter repeats it
(``-2K`` is ``-KK``). The ``br`` index counts from 1 and may have two digits
(``br10``).

:func:`parse_action` ignores case and spaces, and also reads words: ``take``,
``reserve``, ``buy`` and ``pass`` for the first letter; a colour's name
(``white``, ``blue``, ``green``, ``red``, ``black``, ``gold``), its gem's name
in the rulebook (``diamond``, ``sapphire``, ``emerald``, ``ruby``, ``onyx``,
``joker``) or their plurals for a letter, with commas or ``and`` between them
if wished (``take 2 red``, ``take white, blue and green``, ``-red``,
``= 2 white 1 gold``); ``tier 3 slot 1`` for a place, ``tier 3`` alone or
``3 deck`` for the deck of a blind reserve, ``reserved 1`` after ``buy`` for
``r1``, ``noble 4`` for ``n4``; and ``#`` with a card id (``b#17``, ``r#52``)
for a card wherever it lies. It fills in what a player seldom needs to type:
the default payment (coloured tokens first, gold for the rest) when no ``=``
is given, and the noble when only one can come. Tokens returned over the
limit are always written out.

:func:`format_action` writes the shortest form: it leaves out a payment that
is the default and writes everything else, so that
``parse_action(format_action(a, state), state) == a`` for every action ``a``
of ``legal_actions(state)``, and no two of them have the same text.

A game record is written as a few ``key: value`` header lines followed by one
action per line (see :func:`format_record`).

>>> from splendor import legal_actions, new_game
>>> state = new_game(2, seed=1)
>>> [format_action(action, state) for action in legal_actions(state)][:4]
['+WBG', '+WBR', '+WBK', '+WGR']
>>> parse_action("take w b g", state) == legal_actions(state)[0]
True
>>> format_action(parse_action("take white, blue and green", state), state)
'+WBG'
"""

from __future__ import annotations

import json
from typing import Final

import attrs

from splendor.actions import Action, Buy, Pass, Reserve, ReserveFromDeck, Take
from splendor.components import CARDS_BY_ID, NOBLES_BY_ID, Card, is_game_card, is_game_noble
from splendor.errors import IllegalActionError, InvalidArgumentError, SplendorError
from splendor.gems import GEMS, Tokens
from splendor.legal import legal_actions
from splendor.play import apply
from splendor.record import GameRecord
from splendor.rules import Rules
from splendor.state import GameState, PlayerState
from splendor.views import PlayerView

__all__ = [
    "NotationError",
    "format_action",
    "format_record",
    "parse_action",
    "parse_record",
]


class NotationError(SplendorError, ValueError):
    """A text that is not an action (or a record) in the notation.

    The message says what was expected and where, for example
    ``"cannot read 'r5': expected a tier 1-3 after 'r', got '5'"``. A
    well-formed action that the rules forbid raises
    :class:`~splendor.IllegalActionError` instead.
    """


_NO_TOKENS: Final = Tokens()
_LETTERS: Final = "".join(gem.letter for gem in GEMS)
# What a token letter (lower case, as parsing sees it) stands for.
_TOKEN_INDEX: Final = {**{letter.lower(): i for i, letter in enumerate(_LETTERS)}, "*": 5}
# The colour names and the rulebook's gem names, each with its index in GEMS.
_GEM_NAMES: Final = {
    "white": 0,
    "diamond": 0,
    "blue": 1,
    "sapphire": 1,
    "green": 2,
    "emerald": 2,
    "red": 3,
    "ruby": 3,
    "black": 4,
    "onyx": 4,
    "gold": 5,
    "joker": 5,
}
_IRREGULAR_PLURALS: Final = {"ruby": "rubies", "onyx": "onyxes"}
# Every word for a token, plurals included, longest first so that "reds" is not "red" + "s".
_TOKEN_WORDS: Final = tuple(
    sorted(
        {
            **_GEM_NAMES,
            **{_IRREGULAR_PLURALS.get(name, name + "s"): i for name, i in _GEM_NAMES.items()},
        }.items(),
        key=lambda item: (-len(item[0]), item[0]),
    )
)
# What may follow the gem letters of a list, in the same word: a noble.
_NOBLE_WORDS: Final = ("noble", "n")
_COLOURS: Final = "colours are W B G R K (and Y for gold) or their names"
# The ways to begin each action, longest first so that "pass" is not "p" + "ass".
_VERBS: Final = (
    ("reserve", "r"),
    ("take", "+"),
    ("pass", "p"),
    ("buy", "b"),
    ("+", "+"),
    ("r", "r"),
    ("b", "b"),
    ("p", "p"),
)
_EXPECTED_ACTION: Final = (
    "an action: +<gems> (take), r<tier><slot> or r<tier>d (reserve), "
    "b<tier><slot> or br<n> (buy), or p (pass); or the words take, reserve, buy, pass"
)
_NOBLE_SUFFIX: Final = "n<id> (a noble)"
# No player can hold more reserved cards than there are cards.
_MOST_RESERVED: Final = len(CARDS_BY_ID)


def _letters(tokens: Tokens) -> str:
    """The tokens as repeated letters in colour order: ``WWY``."""
    return "".join(letter * n for letter, n in zip(_LETTERS, tokens.counts, strict=True))


def _actor(state: GameState | PlayerView) -> tuple[GameState, PlayerState]:
    """A full state to work in and the state of the player to move."""
    if type(state) is GameState:
        return state, state.players[state.current_player]
    if type(state) is PlayerView:
        full = state.stand_in()
        return full, full.players[full.current_player]
    raise InvalidArgumentError(f"expected a GameState or a PlayerView, got {type(state).__name__}")


def _default_payment(card: Card, player: PlayerState) -> Tokens:
    """What :func:`splendor.apply` pays for ``card`` when no payment is given.

    Coloured tokens first, gold for the rest (more gold than the player holds
    when the card is not affordable).
    """
    paid = [0] * 6
    for i, (cost, bonus, held) in enumerate(
        zip(card.cost.counts[:5], player.bonuses.counts[:5], player.tokens.counts[:5], strict=True)
    ):
        price = max(cost - bonus, 0)
        paid[i] = min(price, held)
        paid[5] += price - paid[i]
    return Tokens(*paid)


def format_action(action: Action, state: GameState | PlayerView) -> str:
    """The notation of ``action`` played from ``state``.

    Cards are named by their place: tier and slot on the board, or index in
    the reserve of the player to move. A payment is written only when it is
    not the default one; tokens returned and a noble are always written.

    Args:
        action: the action.
        state: the state it is played from, or the view of the seat to move.

    Returns:
        The text, for example ``"+WBG"``, ``"r23"``, ``"br1=RY"`` or ``"p"``.

    Raises:
        IllegalActionError: when the card the action names is not where it
            could be taken from (face up, or in the mover's reserve for a buy).
        InvalidArgumentError: when ``action`` is not an action, or ``state``
            is neither a state nor the mover's view.

    >>> from splendor import Gem, ReserveFromDeck, Take, Tokens, new_game
    >>> state = new_game(2, seed=1)
    >>> format_action(Take(Tokens(red=2)), state)
    '+RR'
    >>> format_action(ReserveFromDeck(2), state)
    'r2d'
    """
    full, player = _actor(state)
    kind = type(action)
    if kind is Take:
        gems = action.gems  # type: ignore[union-attr]  # a Take
        if type(gems) is not Tokens:
            raise InvalidArgumentError(f"Take.gems must be Tokens, got {gems!r}")
        text = "+" + _letters(gems) + _returns(action.returned)  # type: ignore[union-attr]  # a Take
    elif kind is Reserve:
        text = "r" + _place(action.card, full, None) + _returns(action.returned)  # type: ignore[union-attr]  # a Reserve
    elif kind is ReserveFromDeck:
        tier = action.tier  # type: ignore[union-attr]  # a ReserveFromDeck
        if type(tier) is not int or not 1 <= tier <= 3:
            raise InvalidArgumentError(f"the tier of a blind reserve is 1, 2 or 3, got {tier!r}")
        text = f"r{tier}d" + _returns(action.returned)  # type: ignore[union-attr]  # a ReserveFromDeck
    elif kind is Buy:
        card: Card = action.card  # type: ignore[union-attr]  # a Buy
        text = "b" + _place(card, full, player)  # checks it is one of the game's cards
        payment = action.payment  # type: ignore[union-attr]  # a Buy
        if payment is not None:
            if type(payment) is not Tokens:
                raise InvalidArgumentError(f"Buy.payment must be Tokens or None, got {payment!r}")
            if payment != _default_payment(card, player):
                text += "=" + _letters(payment)
    elif kind is Pass:
        text = "p"
    else:
        raise InvalidArgumentError(f"expected an action, got {action!r}")
    noble = action.noble
    if noble is None:
        return text
    if not is_game_noble(noble):
        raise InvalidArgumentError(f"expected one of the game's nobles or None, got {noble!r}")
    return f"{text}n{noble.id}"


def _returns(returned: object) -> str:
    if type(returned) is not Tokens:
        raise InvalidArgumentError(f"returned must be Tokens, got {returned!r}")
    return "-" + _letters(returned) if returned else ""


def _place(card: object, state: GameState, player: PlayerState | None) -> str:
    """``<tier><slot>`` of a face-up card, else ``r<index>`` in ``player``'s reserve."""
    if not is_game_card(card):
        raise InvalidArgumentError(f"expected one of the game's cards, got {card!r}")
    row = state.board[card.tier - 1]  # a game card's tier is 1, 2 or 3
    if card in row:
        return f"{card.tier}{row.index(card) + 1}"
    if player is not None and card in player.reserved:
        return f"r{player.reserved.index(card) + 1}"
    where = "face up" if player is None else "face up nor reserved by the player to move"
    raise IllegalActionError(f"card #{card.id} is not {where}")


@attrs.frozen
class _Parsed:
    """What a text says, before it is looked up in a state."""

    verb: str
    tokens: Tokens = _NO_TOKENS  # the gems taken
    returned: Tokens = _NO_TOKENS
    payment: Tokens | None = None
    tier: int = 0
    slot: int = 0  # 1-4 on the board; 0 for the deck or a card given by id
    index: int = 0  # 1-based in the reserve of the player to move
    card_id: int = 0
    noble_id: int = 0


def _is_word_character(character: str) -> bool:
    return character.isalpha() or character == "*"


class _Reader:
    """A cursor over the text in lower case; spaces between the parts are skipped."""

    def __init__(self, text: str) -> None:
        self.original = text
        # Lower case one character at a time, so that positions match the original.
        self.text = "".join(c.lower() if len(c.lower()) == 1 else c for c in text)
        self.pos = 0

    def skip(self) -> None:
        while self.pos < len(self.text) and self.text[self.pos].isspace():
            self.pos += 1

    def at_end(self) -> bool:
        self.skip()
        return self.pos >= len(self.text)

    def fail(self, expected: str) -> NotationError:
        """An error saying what was expected at the cursor, and the word found there."""
        self.skip()
        start = end = self.pos
        if start < len(self.text):
            same = _is_word_character if _is_word_character(self.text[start]) else str.isdecimal
            end = start + 1
            if same(self.text[start]):
                while end < len(self.text) and same(self.text[end]):
                    end += 1
        got = f"got {self.original[start:end]!r}" if end > start else "got the end of the text"
        return NotationError(f"cannot read {self.original!r}: expected {expected}, {got}")

    def peek(self) -> str:
        self.skip()
        return self.text[self.pos : self.pos + 1]

    def accept(self, prefix: str) -> bool:
        self.skip()
        if self.text.startswith(prefix, self.pos):
            self.pos += len(prefix)
            return True
        return False

    def word(self) -> str:
        """The run of letters at the cursor (``*`` counts as a letter)."""
        self.skip()
        end = self.pos
        while end < len(self.text) and _is_word_character(self.text[end]):
            end += 1
        return self.text[self.pos : end]

    def number(self, expected: str, low: int, high: int, digits: int) -> int:
        """A number of at most ``digits`` digits, which may be typed apart (``n 1 0``)."""
        self.skip()
        start = self.pos
        value = ""
        while len(value) < digits:
            self.skip()
            if self.pos < len(self.text) and self.text[self.pos].isdecimal():
                value += self.text[self.pos]
                self.pos += 1
            else:
                break
        if not value or not low <= int(value) <= high:
            self.pos = start
            raise self.fail(expected)
        return int(value)

    def gems(self, expected: str) -> tuple[int, ...]:
        """The gem indices of the colour word or the letters at the cursor; () if none.

        Letters run together (``wbg``) and may be followed by a noble (``wbgn2``);
        any other word is not a colour, and is refused with ``expected``.
        """
        run = self.word()
        if not run:
            return ()
        for name, index in _TOKEN_WORDS:
            if run.startswith(name):
                self.pos += len(name)
                return (index,)
        rest = run.lstrip(_LETTERS.lower() + "*")
        if rest not in ("", *_NOBLE_WORDS):
            raise self.fail(expected)
        letters = run[: len(run) - len(rest)]
        self.pos += len(letters)
        return tuple(_TOKEN_INDEX[letter] for letter in letters)

    def tokens(self, expected: str, allow_empty: bool) -> Tokens:
        """Colours, each a letter or a name, with an optional count before it.

        A count repeats the colour just after it. Commas and the word ``and``
        between the colours are skipped.
        """
        counts = [0] * 6
        while not self.at_end():
            if self.accept(","):
                continue
            if self.word() == "and":
                self.pos += len("and")
                continue
            counted = self.text[self.pos].isdecimal()
            repeat = int(self.text[self.pos]) if counted else 1
            self.pos += counted
            found = self.gems(f"another colour: {_COLOURS}" if any(counts) else expected)
            if not found:
                if not counted:
                    break
                raise self.fail(f"a colour after the count {repeat}: {_COLOURS}")
            counts[found[0]] += repeat
            for index in found[1:]:
                counts[index] += 1
        if not allow_empty and not any(counts):
            raise self.fail(expected)
        return Tokens(*counts)

    def card(self, slot_or_deck: bool) -> tuple[int, int, int]:
        """``(tier, slot, card_id)``: a slot 0 with tier set is the deck.

        Besides ``<tier><slot>`` and ``<tier>d``, reads ``tier 3 slot 1``, and
        ``tier 3`` alone, or ``<tier> deck``, for the deck of a blind reserve.
        """
        if self.accept("#"):
            return 0, 0, self.number("a card id 1-90 after '#'", 1, 90, 2)
        worded = self.accept("tier")
        expected = "a tier 1-3 after 'tier'" if worded else "a tier 1-3, or '#' and a card id"
        tier = self.number(expected, 1, 3, 1)
        if slot_or_deck and (self.accept("deck") or self.accept("d")):
            return tier, 0, 0
        if self.accept("slot"):
            return tier, self.number("a slot 1-4 after 'slot'", 1, 4, 1), 0
        if slot_or_deck and worded and not self.peek().isdecimal():
            return tier, 0, 0
        deck = " or 'd' for the deck" if slot_or_deck else ""
        return tier, self.number(f"a slot 1-4{deck} after the tier", 1, 4, 1), 0

    def action(self) -> _Parsed:
        if self.at_end():
            raise NotationError(f"cannot read an empty text: expected {_EXPECTED_ACTION}")
        verb = next((v for word, v in _VERBS if self.accept(word)), None)
        if verb is None:
            raise self.fail(_EXPECTED_ACTION)
        parsed = _Parsed(verb)
        if verb == "+":
            gems = self.tokens(f"the gems to take, e.g. +WBG or +RR: {_COLOURS}", allow_empty=False)
            parsed = attrs.evolve(parsed, tokens=gems, returned=self.returns())
        elif verb == "r":
            tier, slot, card_id = self.card(slot_or_deck=True)
            parsed = attrs.evolve(
                parsed, tier=tier, slot=slot, card_id=card_id, returned=self.returns()
            )
        elif verb == "b":
            if self.accept("reserved") or self.accept("r"):
                index = self.number(
                    f"the index 1-{_MOST_RESERVED} of a reserved card after 'br'",
                    1,
                    _MOST_RESERVED,
                    len(str(_MOST_RESERVED)),
                )
                parsed = attrs.evolve(parsed, index=index)
            else:
                tier, slot, card_id = self.card(slot_or_deck=False)
                parsed = attrs.evolve(parsed, tier=tier, slot=slot, card_id=card_id)
            if self.accept("="):
                payment = self.tokens(f"the payment after '=': {_COLOURS}", allow_empty=True)
                parsed = attrs.evolve(parsed, payment=payment)
        if any(self.accept(word) for word in _NOBLE_WORDS):
            parsed = attrs.evolve(parsed, noble_id=self.number("a noble id 1-10", 1, 10, 2))
        if not self.at_end():
            more = {
                "+": f"'-' and the tokens returned, or {_NOBLE_SUFFIX}",
                "r": f"'-' and the tokens returned, or {_NOBLE_SUFFIX}",
                "b": f"'=' and the payment, or {_NOBLE_SUFFIX}",
                "p": _NOBLE_SUFFIX,
            }
            raise self.fail(f"the end of the action or {more[verb]}")
        return parsed

    def returns(self) -> Tokens:
        if self.accept("-"):
            return self.tokens(f"the tokens returned after '-', e.g. -KY: {_COLOURS}", False)
        return _NO_TOKENS


def parse_action(text: str, state: GameState | PlayerView) -> Action:
    """The action a text names in ``state`` (see the notation above).

    Case and spaces do not matter, and words may stand for the letters
    (``take 2 red``, ``reserve tier 3``, ``buy tier 1 slot 2``: see above).
    When the text leaves out the payment of a
    buy, the default payment is meant; when it leaves out the noble and one
    noble can come, that one is meant. The action returned is the one
    :func:`~splendor.legal_actions` lists for that outcome, when the text
    names a listed one.

    Args:
        text: the action's text, for example ``"+WBG-R"`` or ``"B 2 3"``.
        state: the state to play it from, or the view of the seat to move.

    Returns:
        The action, legal in ``state``.

    Raises:
        NotationError: when the text is not in the notation; the message says
            what was expected where.
        IllegalActionError: when the text is well formed but names an action
            the rules forbid here (or a noble must be chosen).
        InvalidArgumentError: when ``text`` is not a ``str`` or ``state`` is
            neither a state nor the mover's view.

    >>> from splendor import new_game
    >>> state = new_game(2, seed=1)
    >>> parse_action("+rr", state)
    Take(gems=Tokens(red=2), returned=Tokens(), noble=None)
    >>> parse_action("reserve tier 3", state)
    ReserveFromDeck(tier=3, returned=Tokens(), noble=None)
    >>> from splendor import IllegalActionError
    >>> for text in ("r5", "b11"):
    ...     try:
    ...         parse_action(text, state)
    ...     except (NotationError, IllegalActionError) as error:
    ...         print(type(error).__name__, error)
    NotationError cannot read 'r5': expected a tier 1-3, or '#' and a card id, got '5'
    IllegalActionError cannot afford card #24: the price is 4K and the player holds nothing
    >>> try:
    ...     parse_action("take red blu", state)
    ... except NotationError as error:
    ...     print(str(error).partition("expected ")[2])
    another colour: colours are W B G R K (and Y for gold) or their names, got 'blu'
    """
    if type(text) is not str:
        raise InvalidArgumentError(f"expected the text of an action, got {text!r}")
    parsed = _Reader(text).action()
    full, player = _actor(state)
    if full.winners:
        raise IllegalActionError("the game is over")
    action = _build(parsed, full, player)
    listed = {a: a for a in legal_actions(full)}
    wanted = action
    if type(action) is Buy and action.payment is None:
        wanted = attrs.evolve(action, payment=_default_payment(action.card, player))
    if wanted.noble is None:
        candidates = [wanted, *(attrs.evolve(wanted, noble=n) for n in full.nobles)]
    else:
        candidates = [wanted]
    matches = [listed[c] for c in candidates if c in listed]
    if len(matches) == 1:
        return matches[0]
    if len(matches) > 1:
        names = ", ".join(f"n{m.noble.id}" for m in matches if m.noble is not None)
        raise IllegalActionError(f"several nobles can come: add one of {names}")
    apply(full, action)  # raises the reason the action is illegal
    return action


def _build(parsed: _Parsed, state: GameState, player: PlayerState) -> Action:
    """The action a parsed text names, with the noble left out unless given."""
    noble = NOBLES_BY_ID[parsed.noble_id] if parsed.noble_id else None
    verb = parsed.verb
    if verb == "+":
        return Take(parsed.tokens, parsed.returned, noble)
    if verb == "p":
        return Pass(noble)
    if parsed.card_id:
        card = CARDS_BY_ID[parsed.card_id]
    elif parsed.index:
        if parsed.index > len(player.reserved):
            raise IllegalActionError(
                f"cannot buy reserved card {parsed.index}: "
                f"the player to move holds {len(player.reserved)} reserved card(s)"
            )
        card = player.reserved[parsed.index - 1]
    elif parsed.slot:
        found = state.board[parsed.tier - 1][parsed.slot - 1]
        if found is None:
            raise IllegalActionError(
                f"slot {parsed.slot} of tier {parsed.tier} is empty: its deck ran out"
            )
        card = found
    else:
        return ReserveFromDeck(parsed.tier, parsed.returned, noble)
    if verb == "r":
        return Reserve(card, parsed.returned, noble)
    return Buy(card, parsed.payment, noble)


# Game records as text.

_STANDARD: Final = Rules()
_RULE_FIELDS: Final = {field.name: field for field in attrs.fields(Rules)}


def format_record(record: GameRecord) -> str:
    """A game record as text: a header, then one action per line.

    The header has a ``key: value`` line for ``players``, ``seed``,
    ``rules`` (``standard``, or each setting that differs from the published
    rules as ``name=value``), and, when the record has them, ``names`` (a
    JSON list) and ``result`` (the winning seats). Each action is written in
    the notation, from the state it was played in.

    Args:
        record: the record to write.

    Returns:
        The text, ending with a newline; :func:`parse_record` reads it back.

    Raises:
        IllegalActionError: when the record's actions cannot be replayed.
        InvalidArgumentError: when ``record`` is not a
            :class:`~splendor.GameRecord`.

    >>> from splendor import GameRecord, Gem, Take, Tokens
    >>> record = GameRecord.start(2, seed=1).append(Take(Tokens(red=2)))
    >>> print(format_record(record), end="")
    players: 2
    seed: 1
    rules: standard
    <BLANKLINE>
    +RR
    """
    if type(record) is not GameRecord:
        raise InvalidArgumentError(f"expected a GameRecord, got {type(record).__name__}")
    lines = [f"players: {record.players}", f"seed: {record.seed}", f"rules: {_rules(record.rules)}"]
    if record.names is not None:
        lines.append(f"names: {json.dumps(list(record.names))}")
    if record.result is not None:
        lines.append("result: " + " ".join(str(seat) for seat in record.result))
    lines.append("")
    states = record.replay()
    lines += (format_action(a, s) for a, s in zip(record.actions, states, strict=False))
    return "\n".join(lines) + "\n"


def _rules(rules: Rules) -> str:
    changed = []
    for name in _RULE_FIELDS:
        value = getattr(rules, name)
        if value != getattr(_STANDARD, name):
            text = ",".join(map(str, value)) if isinstance(value, tuple) else str(value)
            changed.append(f"{name}={text}")
    return " ".join(changed) if changed else "standard"


def parse_record(text: str) -> GameRecord:
    """Read a game record written by :func:`format_record`.

    Blank lines are skipped, and on an action line ``;`` starts a comment
    running to the end of the line. A header line has a ``:`` before any
    ``;`` (so a comment may hold a ``:``). The header lines come first;
    ``players`` and ``seed`` are required, ``rules`` defaults to the published
    rules, and a setting of ``rules`` other than the ``..._by_players`` ones is
    one number. Each action line is read with :func:`parse_action` in the state
    reached so far.

    Args:
        text: the record's text.

    Returns:
        The record, with the actions as :func:`~splendor.legal_actions` lists
        them where the text names listed ones.

    Raises:
        NotationError: when a line cannot be read; the message gives its number.
        IllegalActionError: when an action line is illegal at its turn, or the
            result given is not the game's.
        InvalidArgumentError: when ``text`` is not a ``str``.

    >>> text = "players: 2\\nseed: 1\\n\\n+RR\\n+wbg ; a comment\\n"
    >>> record = parse_record(text)
    >>> [str(action) for action in record.actions]
    ['take 2R', 'take 1W 1B 1G']
    """
    if type(text) is not str:
        raise InvalidArgumentError(f"expected the text of a record, got {type(text).__name__}")
    header: dict[str, str] = {}
    moves: list[tuple[int, str]] = []
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        # A ':' before any ';' makes a header line; after a ';' it is part of a comment.
        # The whole line is the header's value: a name in the JSON list may hold a ';'.
        move = line.split(";", 1)[0]
        if ":" in move:
            key, _, value = line.partition(":")
            if moves:
                raise NotationError(f"line {number}: a header line after the first action")
            key = key.strip().lower()
            if key not in _HEADER_KEYS:
                raise NotationError(
                    f"line {number}: unknown header {key!r}; expected one of "
                    + ", ".join(_HEADER_KEYS)
                )
            if key in header:
                raise NotationError(f"line {number}: the header {key!r} is given twice")
            header[key] = value.strip()
            continue
        move = move.strip()
        if move:
            moves.append((number, move))
    for required in ("players", "seed"):
        if required not in header:
            raise NotationError(f"the record has no {required!r} header line")
    try:
        record = GameRecord(
            players=_header_int(header["players"], "players"),
            seed=_header_int(header["seed"], "seed"),
            rules=_parse_rules(header.get("rules", "standard")),
            names=_parse_names(header["names"]) if "names" in header else None,
            result=_parse_result(header["result"]) if "result" in header else None,
        )
    except InvalidArgumentError as error:
        raise NotationError(f"the record's header: {error}") from error
    state = record.initial_state()
    actions: list[Action] = []
    for number, line in moves:
        try:
            action = parse_action(line, state)
        except SplendorError as error:
            raise type(error)(f"line {number}: {error}") from error
        actions.append(action)
        state = apply(state, action)
    if record.result is not None and record.result != state.winners:
        raise IllegalActionError(
            f"the record's result {record.result} does not match the winners {state.winners} "
            "of the game it describes"
        )
    return attrs.evolve(record, actions=tuple(actions))


_HEADER_KEYS: Final = ("players", "seed", "rules", "names", "result")


def _header_int(value: str, key: str) -> int:
    try:
        return int(value)
    except ValueError:
        raise NotationError(f"the {key!r} header must be an integer, got {value!r}") from None


def _parse_rules(value: str) -> Rules:
    if value.lower() == "standard":
        return _STANDARD
    settings: dict[str, int | tuple[int, ...]] = {}
    for part in value.split():
        name, equals, number = part.partition("=")
        if not equals or name not in _RULE_FIELDS:
            raise NotationError(
                f"the 'rules' header is 'standard' or name=value settings of "
                f"{', '.join(_RULE_FIELDS)}; cannot read {part!r}"
            )
        if name in settings:
            raise NotationError(f"the 'rules' header sets {name} twice")
        try:
            numbers = tuple(int(n) for n in number.split(","))
        except ValueError:
            raise NotationError(f"the rule {name} must be numbers, got {number!r}") from None
        if name.endswith("_by_players"):
            settings[name] = numbers
        elif len(numbers) == 1:
            settings[name] = numbers[0]
        else:
            raise NotationError(f"the rule {name} is one number, got {number!r}")
    try:
        return Rules(**settings)  # type: ignore[arg-type]  # each value checked by Rules
    except SplendorError as error:
        raise NotationError(f"the 'rules' header: {error}") from error


def _parse_names(value: str) -> tuple[str, ...]:
    try:
        names = json.loads(value)
    except (ValueError, RecursionError):  # not JSON, a number too long, or nested too deep
        names = None
    if type(names) is not list or not all(type(name) is str for name in names):
        raise NotationError(f"the 'names' header must be a JSON list of strings, got {value!r}")
    return tuple(names)


def _parse_result(value: str) -> tuple[int, ...]:
    return tuple(_header_int(seat, "result") for seat in value.split())
