"""Reading the text of an action into its parts, before it is looked up in a state.

The lexical half of :func:`splendor.formats.notation.parse_action`: what the text
says (a verb, gems, a place, a payment, a noble), not what it means in a
game. Reading is linear in the length of the text: every step either moves
the cursor on or ends the reading. No name here is part of the public API.

What is read: ASCII only. Letters in either case, the digits ``0``-``9``,
white space, and the marks ``+ - = , # *``. Words (``take``,
``white``, ``tier``...) end at a character that is not a letter: ``taker``
is not ``take r``. Any other character (the Kelvin sign for ``K``, digits of
other scripts, full-width letters) is refused.
"""

from __future__ import annotations

from typing import Final

import attrs

from splendor.core.gems import GEMS, Tokens
from splendor.errors import NotationError

__all__ = [
    "COLOURS_HINT",
    "LETTERS",
    "MAX_ACTION_LENGTH",
    "MAX_RESERVED_INDEX",
    "Parsed",
    "Reader",
    "excerpt",
    "letters",
]

#: The longest action text read, in characters. The longest useful text
#: (a buy by words, with a payment of every colour and a noble) is under 100.
MAX_ACTION_LENGTH: Final = 200
#: The largest index after ``br``: no player can hold more reserved cards than there are cards.
MAX_RESERVED_INDEX: Final = 90

NO_TOKENS: Final = Tokens()
#: The gem letters in colour order: ``WBGRKY``.
LETTERS: Final = "".join(gem.letter for gem in GEMS)
# What a token letter (lower case, as reading sees it) stands for.
_TOKEN_INDEX: Final = {**{letter.lower(): i for i, letter in enumerate(LETTERS)}, "*": 5}
_TOKEN_LETTERS: Final = frozenset(_TOKEN_INDEX)
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
#: The colours, as an error message names them.
COLOURS_HINT: Final = "colours are W B G R K (and Y for gold) or their names"
# The ways to begin each action, words before letters so that "pass" is not "p" + "ass".
_VERB_WORDS: Final = (("reserve", "r"), ("take", "+"), ("pass", "p"), ("buy", "b"))
_VERB_MARKS: Final = (("+", "+"), ("r", "r"), ("b", "b"), ("p", "p"))
_EXPECTED_ACTION: Final = (
    "an action: +<gems> (take), r<tier><slot> or r<tier>d (reserve), "
    "b<tier><slot> or br<n> (buy), or p (pass); or the words take, reserve, buy, pass"
)
_NOBLE_SUFFIX: Final = "n<id> (a noble)"
_DIGITS: Final = frozenset("0123456789")
_SPACES: Final = frozenset(" \t\r\n\f\v")
_WORD_CHARACTERS: Final = frozenset("abcdefghijklmnopqrstuvwxyz*")
_ALLOWED: Final = frozenset(
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789+-=,#*"
).union(_SPACES)


def excerpt(text: str, limit: int = 40) -> str:
    """``text`` quoted and escaped as Python shows it, cut to ``limit`` characters."""
    if len(text) <= limit:
        return repr(text)
    return repr(text[:limit]) + f"... ({len(text)} characters)"


def letters(tokens: Tokens) -> str:
    """The tokens as repeated letters in colour order: ``WWY``."""
    return "".join(letter * n for letter, n in zip(LETTERS, tokens.counts, strict=True))


@attrs.frozen
class Parsed:
    """What a text says, before it is looked up in a state."""

    verb: str
    tokens: Tokens = NO_TOKENS  # the gems taken
    returned: Tokens = NO_TOKENS
    payment: Tokens | None = None
    tier: int = 0
    slot: int = 0  # 1-4 on the board; 0 for the deck or a card given by id
    index: int = 0  # 1-based in the reserve of the player to move
    card_id: int = 0
    noble_id: int = 0


class Reader:
    """A cursor over the text in lower case; spaces between the parts are skipped.

    Raises:
        NotationError: from the constructor, for a text longer than
            :data:`MAX_ACTION_LENGTH` or with a character outside those read.
    """

    def __init__(self, text: str) -> None:
        self.original = text
        if len(text) > MAX_ACTION_LENGTH:
            raise NotationError(
                f"cannot read {excerpt(text)}: an action is at most {MAX_ACTION_LENGTH} "
                "characters long"
            )
        for position, character in enumerate(text):
            if character not in _ALLOWED:
                raise NotationError(
                    f"cannot read {excerpt(text)}: the character {character!r} at position "
                    f"{position + 1} is not part of the notation (ASCII letters, digits, spaces "
                    "and + - = , # * only)"
                )
        self.text = text.lower()  # ASCII: positions match the original
        self.pos = 0
        # The run of word characters last looked at: [start, end).
        self._run = (0, 0)

    def skip(self) -> None:
        while self.pos < len(self.text) and self.text[self.pos] in _SPACES:
            self.pos += 1

    def at_end(self) -> bool:
        self.skip()
        return self.pos >= len(self.text)

    def run_end(self) -> int:
        """Where the run of word characters at the cursor ends (the cursor if none).

        The end is remembered for the whole run, so that consuming a run
        letter by letter reads it once.
        """
        start, end = self._run
        if not start <= self.pos < end:
            end = self.pos
            while end < len(self.text) and self.text[end] in _WORD_CHARACTERS:
                end += 1
            self._run = (self.pos, end)
        return end

    def fail(self, expected: str) -> NotationError:
        """An error saying what was expected at the cursor, and the word found there."""
        self.skip()
        start = end = self.pos
        if start < len(self.text):
            same = _WORD_CHARACTERS if self.text[start] in _WORD_CHARACTERS else _DIGITS
            end = start + 1
            if self.text[start] in same:
                while end < len(self.text) and self.text[end] in same:
                    end += 1
        got = (
            f"got {excerpt(self.original[start:end], 20)}"
            if end > start
            else "got the end of the text"
        )
        return NotationError(f"cannot read {excerpt(self.original)}: expected {expected}, {got}")

    def peek(self) -> str:
        self.skip()
        return self.text[self.pos : self.pos + 1]

    def accept(self, prefix: str) -> bool:
        """Move past ``prefix`` if the text goes on with it (a mark or a one-letter code)."""
        self.skip()
        if self.text.startswith(prefix, self.pos):
            self.pos += len(prefix)
            return True
        return False

    def accept_word(self, word: str) -> bool:
        """Move past ``word`` if the text goes on with it as a whole word."""
        self.skip()
        if self.text.startswith(word, self.pos) and self.run_end() == self.pos + len(word):
            self.pos += len(word)
            return True
        return False

    def number(self, expected: str, low: int, high: int, digits: int) -> int:
        """A number of at most ``digits`` digits, which may be typed apart (``n 1 0``)."""
        self.skip()
        start = self.pos
        value = ""
        while len(value) < digits:
            self.skip()
            if self.pos < len(self.text) and self.text[self.pos] in _DIGITS:
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

        Letters run together (``wbg``) and may be followed by a noble (``wbgn2``),
        and so may names (``redblue``); any other word is not a colour, and
        is refused with ``expected``.
        """
        self.skip()
        end = self.run_end()
        if end == self.pos:
            return ()
        for name, index in _TOKEN_WORDS:  # names may run together: "redbluegreen"
            if self.text.startswith(name, self.pos):
                self.pos += len(name)
                return (index,)
        stop = self.pos
        while stop < end and self.text[stop] in _TOKEN_LETTERS:
            stop += 1
        if not self._ends_here(stop, end):
            raise self.fail(expected)
        found = tuple(_TOKEN_INDEX[letter] for letter in self.text[self.pos : stop])
        self.pos = stop
        return found

    def _ends_here(self, position: int, end: int) -> bool:
        """Whether the run ending at ``end`` ends at ``position``, or goes on with a noble."""
        return position == end or self.text[position:end] in _NOBLE_WORDS

    def tokens(self, expected: str, allow_empty: bool) -> Tokens:
        """Colours, each a letter or a name, with an optional count before it.

        A count repeats the colour just after it. Commas and the word ``and``
        between the colours are skipped.
        """
        counts = [0] * 6
        while not self.at_end():
            if self.accept(",") or self.accept_word("and"):
                continue
            counted = self.text[self.pos] in _DIGITS
            repeat = int(self.text[self.pos]) if counted else 1
            self.pos += counted
            found = self.gems(f"another colour: {COLOURS_HINT}" if any(counts) else expected)
            if not found:
                if not counted:
                    break
                raise self.fail(f"a colour after the count {repeat}: {COLOURS_HINT}")
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
        worded = self.accept_word("tier")
        expected = "a tier 1-3 after 'tier'" if worded else "a tier 1-3, or '#' and a card id"
        tier = self.number(expected, 1, 3, 1)
        if slot_or_deck and (self.accept_word("deck") or self.accept("d")):
            return tier, 0, 0
        if self.accept_word("slot"):
            return tier, self.number("a slot 1-4 after 'slot'", 1, 4, 1), 0
        if slot_or_deck and worded and self.peek() not in _DIGITS:
            return tier, 0, 0
        deck = " or 'd' for the deck" if slot_or_deck else ""
        return tier, self.number(f"a slot 1-4{deck} after the tier", 1, 4, 1), 0

    def verb(self) -> str | None:
        """The verb at the cursor, as its one-character code, or ``None``."""
        for word, code in _VERB_WORDS:
            if self.accept_word(word):
                return code
        for mark, code in _VERB_MARKS:
            if self.accept(mark):
                return code
        return None

    def action(self) -> Parsed:
        """Read the whole text as one action."""
        if self.at_end():
            raise NotationError(f"cannot read an empty text: expected {_EXPECTED_ACTION}")
        verb = self.verb()
        if verb is None:
            raise self.fail(_EXPECTED_ACTION)
        parsed = Parsed(verb)
        if verb == "+":
            gems = self.tokens(
                f"the gems to take, e.g. +WBG or +RR: {COLOURS_HINT}", allow_empty=False
            )
            parsed = attrs.evolve(parsed, tokens=gems, returned=self.returns())
        elif verb == "r":
            tier, slot, card_id = self.card(slot_or_deck=True)
            parsed = attrs.evolve(
                parsed, tier=tier, slot=slot, card_id=card_id, returned=self.returns()
            )
        elif verb == "b":
            if self.accept_word("reserved") or self.accept("r"):
                index = self.number(
                    f"the index 1-{MAX_RESERVED_INDEX} of a reserved card after 'br'",
                    1,
                    MAX_RESERVED_INDEX,
                    len(str(MAX_RESERVED_INDEX)),
                )
                parsed = attrs.evolve(parsed, index=index)
            else:
                tier, slot, card_id = self.card(slot_or_deck=False)
                parsed = attrs.evolve(parsed, tier=tier, slot=slot, card_id=card_id)
            if self.accept("="):
                payment = self.tokens(f"the payment after '=': {COLOURS_HINT}", allow_empty=True)
                parsed = attrs.evolve(parsed, payment=payment)
        if self.accept_word("noble") or self.accept("n"):
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
            return self.tokens(f"the tokens returned after '-', e.g. -KY: {COLOURS_HINT}", False)
        return NO_TOKENS
