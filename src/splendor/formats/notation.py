"""A short text for every action: :func:`format_action` and :func:`parse_action`.

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
for a card wherever it lies. The other words end where letters end:
``taker`` is not ``take r`` (colour names may run together, ``redblue``, as
letters do, ``wbg``). It reads ASCII only: letters, the digits ``0``-``9``,
white space and ``+ - = , # *``; any other character (the Kelvin sign
U+212A, which Python lower-cases to ``k``, digits of other scripts,
full-width letters) is a :class:`~splendor.NotationError`, as is a text of more than
:data:`MAX_ACTION_LENGTH` (200) characters. Reading takes time in proportion
to the length of the text, and an error message quotes at most 40
characters of it, escaped. It fills in what a player seldom needs to type:
the default payment (coloured tokens first, gold for the rest) when no ``=``
is given, and the noble when only one can come. Tokens returned over the
limit are always written out.

:func:`format_action` writes the shortest form: it leaves out a payment that
is the default and writes everything else, so that
``parse_action(format_action(a, state), state) == a`` for every action ``a``
of ``legal_actions(state)``, and no two of them have the same text.

A game record is written as a few ``key: value`` header lines followed by one
action per line: see :mod:`splendor.formats.record_text` (its
:func:`~splendor.formats.record_text.format_record` and
:func:`~splendor.formats.record_text.parse_record` can be imported from here too).

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

from typing import Final

from splendor.errors import NotationError
from splendor.formats import _notation_parser
from splendor.formats._action_notation import format_action, format_line, parse_action
from splendor.formats.record_text import format_record, parse_record

__all__ = [
    "MAX_ACTION_LENGTH",
    "NotationError",
    "format_action",
    "format_line",
    "format_record",
    "parse_action",
    "parse_record",
]

#: The longest action text :func:`parse_action` reads, in characters (200).
MAX_ACTION_LENGTH: Final = _notation_parser.MAX_ACTION_LENGTH
