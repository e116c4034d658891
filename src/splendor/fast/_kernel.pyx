# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
# cython: initializedcheck=False, embedsignature=False
"""The compiled kernel behind :mod:`splendor.fast`.

A game is one flat C structure (:c:type:`KState`, 208 bytes) that holds
everything a :class:`splendor.GameState` holds; the moves are generated into
a preallocated buffer of small C structures (:c:type:`Move`, 16 bytes), in
exactly the order of :func:`splendor.legal_actions`, and played in place.
Nothing on the path of move generation and play touches a Python object.

The kernel is one extension module (one compilation unit, so that its small
functions inline), written in files named like the Python modules they
mirror, each included here:

- ``_rules.pxi``: the tables of the cards and nobles, and the card segments
  of a state;
- ``_listing.pxi``: the legal moves, listed in the order of
  ``splendor.core.legal.legal_actions`` (``splendor.core.legal``);
- ``_play.pxi``: the play of a move (``splendor.core.play``);
- ``_counting.pxi``: one uniform random move of that list, counted rather
  than listed (the random playouts);
- ``_codes.pxi``: the decision codes of a turn (``splendor.formats.encoding``);
- ``_observations.pxi``: the observation rows and action masks
  (``splendor.fast.observations``, offered by :mod:`splendor.rl`);
- ``_greedy.pxi``: GreedyBot's choice (``splendor.fast.heuristics``);
- ``_vector.pxi``: the games of a :class:`splendor.fast.VectorEnv`
  (``splendor.fast.vector``);
- ``_evaluation.pxi`` and ``_search.pxi``: the search of
  ``splendor.players.search.SearchBot`` (``splendor.fast.search_reference``)
  and its evaluations of a position;
- this file: the Python interface (:class:`Game`, :func:`random_playouts`,
  the conversions from and to :class:`~splendor.GameState`), which
  ``splendor.fast.reference`` implements in pure Python.

Every number the kernel shares with the Python modules (the colours' order,
the code layout, the observation rows, GreedyBot's weights, the turn limit)
is read from them when the kernel is imported; sizes compiled into the C
structures are checked against them then (an :class:`ImportError` if they
do not fit: :mod:`splendor.fast.game` warns and falls back to pure Python). The tests
in ``tests/fast`` compare the kernel with the Python modules on random
games, decision by decision.
"""

cimport cython
from libc.stdint cimport int8_t, int64_t, uint8_t, uint16_t, uint64_t
from libc.stdlib cimport free, malloc, realloc
from libc.string cimport memcmp, memcpy, memmove, memset
from cpython.exc cimport PyErr_CheckSignals
from cpython.pythread cimport PyThread_get_thread_ident
from cpython cimport array

import array
import itertools
import operator
import random

import attrs

from splendor.core.messages import short_repr
from splendor.core.actions import Buy, Pass, Reserve, ReserveFromDeck, Take
from splendor.core.components import CARDS_BY_ID, NOBLES_BY_ID, Card, Noble
from splendor.core.deal import new_game
from splendor.core.gems import Tokens
from splendor.core.rules import MAX_PLAYERS, MIN_PLAYERS, Rules
from splendor.core.state import GameState, PlayerState
from splendor.core.validation import check_state
from splendor.errors import (
    ConcurrentUseError,
    IllegalActionError,
    InvalidArgumentError,
    InvalidStateError,
)
from splendor.fast import reference as _reference
from splendor.fast.reference import Playouts

#: The size in bytes of the C structure that holds one game.
STATE_SIZE = sizeof(KState)
#: The size in bytes of one generated move.
MOVE_SIZE = sizeof(Move)


def _fits(bint holds, what):
    """Refuse to load a kernel whose compiled sizes do not hold the Python data.

    An ImportError: splendor.fast.game then warns with KernelRefusedWarning and
    falls back to its pure implementation.
    """
    if not holds:
        raise ImportError(f"the compiled kernel does not fit the library: {what}; rebuild it")


# -- The seeded generator of random playouts (splendor.fast.reference.SplitMix64) -----


cdef inline uint64_t splitmix64(uint64_t* x) noexcept nogil:
    """The next output of SplitMix64 (Steele, Lea and Flood, 2014)."""
    x[0] += 0x9E3779B97F4A7C15ULL
    cdef uint64_t z = x[0]
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL
    return z ^ (z >> 31)


cdef inline Py_ssize_t below(uint64_t* x, uint64_t n) noexcept nogil:
    """A uniform integer in [0, n): outputs below 2**64 mod n are drawn again.

    That bound is below n, so it is worked out (a second division) only for
    an output below n, which is rare."""
    cdef uint64_t r = splitmix64(x)
    while r < n and r < (0 - n) % n:
        r = splitmix64(x)
    return <Py_ssize_t>(r % n)


include "_rules.pxi"
include "_listing.pxi"
include "_play.pxi"
include "_counting.pxi"
include "_codes.pxi"
include "_observations.pxi"
include "_greedy.pxi"


# -- Conversion from and to GameState -------------------------------------------------

# The most turns a loop plays (splendor.fast.reference's bound).
cdef int64_t MOST_TURNS = _reference._MOST_TURNS
# Long loops look for a pending signal (Ctrl-C) every this many turns, plus one.
cdef int64_t CHECK_EVERY = 0xFFFF


cdef object _plain_rules(plain):
    """The plain GameState ``plain`` under plain Rules, its rules' fields read once.

    A subclass of GameState or of Rules may compute its fields, and a
    property can answer differently at every read: what it answers once is
    copied into the plain classes (_reference._plain_state for the state),
    whose fields cannot change, so the state that check_state checks is the
    state that load loads. The kernel plays a subclass of Rules by its
    numbers (its fields).
    """
    rules = plain.rules
    if type(rules) is Rules or not isinstance(rules, Rules):
        return plain  # check_state refuses rules that are no Rules
    numbers = Rules(**{field.name: getattr(rules, field.name) for field in attrs.fields(Rules)})
    return attrs.evolve(plain, rules=numbers)


cdef object _unloadable(str what):
    """The error of a state that breaks a bound of the C structure."""
    return InvalidStateError(f"the compiled kernel cannot hold this state: {what}")


cdef tuple _exact_tuple(value, str what):
    if type(value) is not tuple:
        raise _unloadable(f"{what} is not a tuple: {short_repr(value)}")
    return value


cdef int _piece_id(piece, type kind, int most, str what) except -1:
    """The id of a card or noble (a ``kind``): 1 to ``most``."""
    if type(piece) is kind:
        number = piece.id
        if type(number) is int and 1 <= number <= most:
            return number
    raise _unloadable(f"{short_repr(piece)} is not one of the game's {what}")


cdef int _small(value, str what) except -1:
    """A count the C structure holds in a byte: an int from 0 to 255."""
    if type(value) is int and 0 <= value <= 255:
        return value
    raise _unloadable(f"{what} must be an int from 0 to 255, got {short_repr(value)}")


cdef int _counts(uint8_t* out, tokens, int colours, str what) except -1:
    """Copy the first ``colours`` counts of a Tokens to ``out``; their sum."""
    cdef int c, total = 0
    if type(tokens) is not Tokens:
        raise _unloadable(f"{what} must be Tokens, got {short_repr(tokens)}")
    counts = _exact_tuple(tokens.counts, what)
    if len(counts) != 6:
        raise _unloadable(f"{what} must have 6 counts")
    for c in range(colours):
        out[c] = _small(counts[c], what)
        total += out[c]
    return total


cdef int _cards_into(KState* s, int pos, cards, str what) except -1:
    """Append the ids of ``cards`` to ``s.cards`` from ``pos``; the new end."""
    for card in _exact_tuple(cards, what):
        if pos >= MAXCARDS:
            raise _unloadable(f"it holds more than {MAXCARDS} cards")
        s.cards[pos] = _piece_id(card, Card, MAXCARDS, "cards")
        pos += 1
    return pos


cdef load(KState* out, state):
    """Fill ``out`` from a GameState, reading each of its fields once.

    ``state`` should have passed check_state (from_state checks the same
    snapshot, see _plain_rules), but load trusts nothing of it: every bound
    that the C code relies on (2 to 4 seats, at most 90 cards, game cards
    and nobles, counts within a byte, no one over the token limit, seats in
    range) is checked as it is read, and a state that breaks one raises
    InvalidStateError. ``out`` is written only at the end, whole.
    """
    cdef KState loaded
    cdef KState* s = &loaded
    cdef int pos = 0, k, i, seat, n, start, held
    memset(s, 0, sizeof(KState))
    state = _plain_rules(_reference._plain_state(state))
    rules = state.rules
    if type(rules) is not Rules:
        raise _unloadable(f"rules must be a Rules, got {short_repr(rules)}")
    players = _exact_tuple(state.players, "players")
    n = len(players)
    if not MIN_PLAYERS <= n <= MAX_PLAYERS:
        raise _unloadable(f"it seats {MIN_PLAYERS} to {MAX_PLAYERS} players, got {n}")
    gems = rules.gems(n)
    gold = rules.gold(n)
    if gems > 255 or gold > 255:
        raise InvalidArgumentError(
            f"the compiled kernel plays with at most 255 tokens of a colour, these rules have "
            f"{gems} of each gem and {gold} gold for {n} players"
        )
    turn = state.turn
    passes = state.passes
    if type(turn) is not int or type(passes) is not int or turn < 0 or passes < 0:
        raise _unloadable("turn and passes must be non-negative ints")
    if turn >= MOST_TURNS or passes >= MOST_TURNS:
        raise InvalidArgumentError(
            f"the compiled kernel counts turns and passes below 2**62, got turn {turn} "
            f"and passes {passes}"
        )
    s.reserve_limit = min(rules.reserve_limit, 255)
    s.points_to_win = min(rules.points_to_win, 255)
    s.token_limit = min(rules.token_limit, 65535)
    decks = _exact_tuple(state.decks, "decks")
    if len(decks) != 3:
        raise _unloadable("it has 3 decks")
    for k in range(3):
        start = pos
        pos = _cards_into(s, pos, decks[k], "a deck")
        s.seg[k] = pos - start
    noble_lists = []
    for seat in range(n):
        player = players[seat]
        if type(player) is not PlayerState:
            raise _unloadable(f"player {seat} is not a PlayerState: {short_repr(player)}")
        reserved = _exact_tuple(player.reserved, "reserved")
        blind = _exact_tuple(player.reserved_blind, "reserved_blind")
        if len(blind) != len(reserved):
            raise _unloadable(f"player {seat} has not one blind flag per reserved card")
        start = pos
        pos = _cards_into(s, pos, reserved, "reserved")
        for i in range(pos - start):
            if blind[i] is True:
                s.cards[start + i] |= BLIND_FLAG
            elif blind[i] is not False:
                raise _unloadable(f"player {seat}'s blind flags must be bools")
        s.seg[3 + 2 * seat] = pos - start
        start = pos
        pos = _cards_into(s, pos, player.cards, "cards")
        s.seg[4 + 2 * seat] = pos - start
        held = _counts(s.tokens[seat], player.tokens, 6, f"player {seat}'s tokens")
        if held > s.token_limit:
            raise _unloadable(f"player {seat} holds {held} tokens, over the limit")
        _counts(s.bonus[seat], player.bonuses, 5, f"player {seat}'s bonuses")
        s.points[seat] = _small(player.points, f"player {seat}'s points")
        noble_lists.append(_exact_tuple(player.nobles, "nobles"))
    board = _exact_tuple(state.board, "board")
    if len(board) != 3:
        raise _unloadable("its board has 3 rows")
    for k in range(3):
        row = _exact_tuple(board[k], "a board row")
        if len(row) != 4:
            raise _unloadable("a board row has 4 slots")
        for i in range(4):
            card = row[i]
            s.board[k * 4 + i] = 0 if card is None else _piece_id(card, Card, MAXCARDS, "cards")
    _counts(s.bank, state.bank, 6, "the bank")
    i = 0
    noble_lists.insert(0, _exact_tuple(state.nobles, "nobles"))  # the revealed ones first
    for seat in range(-1, n):
        for noble in noble_lists[seat + 1]:
            if i >= MAXNOBLES:
                raise _unloadable(f"it holds more than {MAXNOBLES} nobles")
            s.nobles[i] = _piece_id(noble, Noble, MAXNOBLES, "nobles") | ((seat + 1) << 4)
            i += 1
    s.n_nobles = i
    s.n_players = n
    current = state.current_player
    if type(current) is not int or not 0 <= current < n:
        raise _unloadable(f"current_player must be a seat, got {short_repr(current)}")
    s.current = current
    for seat in _exact_tuple(state.winners, "winners"):
        if type(seat) is not int or not 0 <= seat < n:
            raise _unloadable(f"winners must be seats, got {short_repr(seat)}")
        s.winners |= 1 << seat
    s.turn = turn
    s.passes = passes
    memcpy(out, s, sizeof(KState))


cdef tuple _tokens(const uint8_t* counts, int gold):
    return (counts[0], counts[1], counts[2], counts[3], counts[4], counts[5] if gold else 0)


cdef dump(const KState* held, rules):
    """The GameState that ``held`` holds.

    Made from a copy taken first: making the Python objects runs Python
    code, during which the game may be played on (by another thread).
    """
    cdef KState copy = held[0]
    cdef const KState* s = &copy
    cdef int n = s.n_players
    cdef int seat, k, i, pos, length, value, holder
    decks = []
    pos = 0
    for k in range(3):
        length = s.seg[k]
        decks.append(tuple([CARDS_BY_ID[s.cards[pos + i]] for i in range(length)]))
        pos += length
    received = [[] for seat in range(n)]
    revealed = []
    for i in range(s.n_nobles):
        value = s.nobles[i]
        holder = value >> 4
        if holder:
            received[holder - 1].append(NOBLES_BY_ID[value & 15])
        else:
            revealed.append(NOBLES_BY_ID[value & 15])
    players = []
    for seat in range(n):
        length = s.seg[3 + 2 * seat]
        reserved = tuple([CARDS_BY_ID[s.cards[pos + i] & 0x7F] for i in range(length)])
        blind = tuple([bool(s.cards[pos + i] & BLIND_FLAG) for i in range(length)])
        pos += length
        length = s.seg[4 + 2 * seat]
        cards = tuple([CARDS_BY_ID[s.cards[pos + i]] for i in range(length)])
        pos += length
        players.append(
            PlayerState(
                tokens=Tokens(*_tokens(s.tokens[seat], 1)),
                cards=cards,
                reserved=reserved,
                reserved_blind=blind,
                nobles=tuple(received[seat]),
                points=s.points[seat],
                bonuses=Tokens(*_tokens(s.bonus[seat], 0)),
            )
        )
    board = tuple(
        [
            tuple([CARDS_BY_ID[s.board[k * 4 + i]] if s.board[k * 4 + i] else None
                   for i in range(4)])
            for k in range(3)
        ]
    )
    return GameState(
        rules=rules,
        players=tuple(players),
        bank=Tokens(*_tokens(s.bank, 1)),
        board=board,
        decks=tuple(decks),
        nobles=tuple(revealed),
        current_player=s.current,
        turn=s.turn,
        passes=s.passes,
        winners=tuple([seat for seat in range(n) if s.winners >> seat & 1]),
    )


cdef object to_action(const Move* m):
    """The :mod:`splendor.core.actions` value of ``m``, as legal_actions lists it."""
    noble = NOBLES_BY_ID[m.noble] if m.noble else None
    if m.kind == K_TAKE:
        return Take(Tokens(*_tokens(m.tok, 1)), Tokens(*_tokens(m.ret, 1)), noble)
    if m.kind == K_RESERVE:
        return Reserve(CARDS_BY_ID[m.card], Tokens(*_tokens(m.ret, 1)), noble)
    if m.kind == K_BLIND:
        return ReserveFromDeck(m.card, Tokens(*_tokens(m.ret, 1)), noble)
    if m.kind == K_BUY:
        return Buy(CARDS_BY_ID[m.card], Tokens(*_tokens(m.tok, 1)), noble)
    return Pass(noble)


# -- The Python interface ---------------------------------------------------------------


cdef class Game:
    """A game held in the compiled kernel (see :class:`splendor.fast.Game`)."""

    cdef KState s
    cdef MoveBuf buf
    cdef bint listed  # buf holds the moves of s
    cdef Counted* counted  # the counts of the moves of s, when count_ok (allocated on first use)
    cdef bint count_ok
    cdef object _rules
    cdef tuple _codes  # the decision codes taken so far this turn
    cdef Decider dec  # the decisions of this turn (allocated on first use)
    cdef bint decided  # dec is at this state and these codes
    # A method that lists or plays runs (see _enter); the thread whose bot
    # is drawing on this game, 0 when none is.
    cdef bint busy
    cdef unsigned long drawer

    def __cinit__(self):
        # The object's memory comes zeroed (tp_alloc is PyType_GenericAlloc,
        # for Game and any subclass): s has 0 players until a game is loaded,
        # so no method plays it, the buffers are NULL (allocated on first use,
        # so a copy costs no malloc), the flags false and the decisions
        # empty. Zeroing the C fields again would double the cost of a copy.
        self._rules = None
        self._codes = ()

    def __dealloc__(self):
        free(self.buf.data)
        free(self.counted)
        dec_free(&self.dec)

    def __init__(self):
        raise InvalidArgumentError(
            "make a Game with Game.from_state(state) or Game.new(players, seed=...)"
        )

    cdef inline int _made(self) except -1:
        """Refuse a game that Game.__new__ alone made (nothing loaded)."""
        if self.s.n_players == 0:
            raise InvalidArgumentError(_reference._UNMADE)
        return 0

    cdef inline int _enter(self) except -1:
        """Start a method that lists or plays: refuse a game never made, and
        a call made while another such method of this game runs (see
        ConcurrentUseError); the method clears ``busy`` when it returns.

        Every such method keeps pointers into the game's buffers between
        calls into Python (making an action, a bot's draw, a signal check),
        during which another thread, a signal handler or a callback may call
        this game: letting it list or play would move the buffers under the
        pointers. Under the GIL, nothing runs between the test and the set.
        """
        if self.busy or self.s.n_players == 0:
            self._refuse()
        self.busy = True
        return 0

    cdef int _refuse(self) except -1:
        self._made()
        if self.drawer and self.drawer == PyThread_get_thread_ident():
            raise InvalidArgumentError(_reference._DRAWING)
        raise ConcurrentUseError(_reference._BUSY)

    @classmethod
    def from_state(cls, state):
        cdef Game game = Game.__new__(cls)
        plain = _reference._plain_state(state)
        checked = _plain_rules(plain)
        check_state(checked)
        load(&game.s, checked)
        game._rules = plain.rules  # as given (a subclass stays itself), played by its numbers
        return game

    @classmethod
    def new(cls, players, *, seed=None, rules=None):
        state = new_game(players, seed=seed, rules=rules)
        cdef Game game = Game.__new__(cls)
        load(&game.s, state)
        game._rules = state.rules
        return game

    def state(self):
        self._made()
        return dump(&self.s, self._rules)

    @cython.always_allow_keywords(False)
    def copy(self):
        self._made()
        cdef Game other = Game.__new__(type(self))
        memcpy(&other.s, &self.s, sizeof(KState))
        other._rules = self._rules
        other._codes = self._codes
        return other

    def __copy__(self):
        return self.copy()

    def __deepcopy__(self, memo):
        return self.copy()

    def __reduce__(self):
        return (_restore, (type(self), self.state()))

    @property
    def rules(self):
        self._made()
        return self._rules

    @property
    def current_player(self):
        self._made()
        return self.s.current

    @property
    def turn(self):
        self._made()
        return self.s.turn

    @property
    def is_over(self):
        self._made()
        return self.s.winners != 0

    @property
    def winners(self):
        self._made()
        return tuple([seat for seat in range(self.s.n_players) if self.s.winners >> seat & 1])

    @property
    def points(self):
        self._made()
        return tuple([self.s.points[seat] for seat in range(self.s.n_players)])

    # -- The rules (splendor.core.legal, splendor.core.play): _rules.pxi -----------

    cdef int _ready(self) except -1:
        if self.buf.data == NULL:
            self.buf.data = <Move*>malloc(256 * sizeof(Move))
            if self.buf.data == NULL:
                raise MemoryError()
            self.buf.cap = 256
        if self.counted == NULL:
            self.counted = <Counted*>malloc(sizeof(Counted))
            if self.counted == NULL:
                raise MemoryError()
        return 0

    cdef inline Py_ssize_t _count(self) except -1:
        """The number of legal moves of s: the listing's, or counted without one."""
        if self.listed:
            return self.buf.n
        if not self.count_ok:
            self._ready()
            count_moves(&self.s, self.counted)
            self.count_ok = True
        return self.counted.g.total

    cdef int _list(self) except -1:
        if not self.listed:
            self._ready()
            if gen(&self.s, &self.buf) < 0:
                raise MemoryError()
            self.listed = True
        return 0

    cdef Py_ssize_t _index(self, index) except -1:
        cdef Py_ssize_t i, n
        if type(index) is not int:
            if isinstance(index, bool) or not hasattr(index, "__index__"):
                raise InvalidArgumentError(
                    f"an action index must be an int, got {type(index).__name__}"
                )
            try:
                index = _as_int(index)
            except TypeError as error:  # an __index__ that returns no int
                raise InvalidArgumentError(f"an action index must be an int: {error}") from error
        n = self._count()
        if n == 0:
            raise IllegalActionError("the game is over")
        try:
            i = index
        except OverflowError:
            i = n  # out of range
        if not -n <= i < n:
            raise InvalidArgumentError(
                f"action index {index} is out of range: there are {n} legal actions"
            )
        return i + n if i < 0 else i

    @cython.always_allow_keywords(False)
    def action_count(self):
        self._enter()
        try:
            return self._count()
        finally:
            self.busy = False

    def action(self, index):
        cdef Py_ssize_t i
        self._enter()
        try:
            i = self._index(index)
            self._list()
            return to_action(&self.buf.data[i])
        finally:
            self.busy = False

    def actions(self):
        self._enter()
        try:
            self._list()
            return tuple([to_action(&self.buf.data[i]) for i in range(self.buf.n)])
        finally:
            self.busy = False

    @cython.always_allow_keywords(False)
    def play(self, index):
        cdef Py_ssize_t i
        cdef Move m
        self._enter()
        try:
            i = self._index(index)
            if self.listed:
                play(&self.s, &self.buf.data[i])
            else:
                # Only the move played is made (buf may hold some of its kind).
                if nth(&self.s, &self.counted.u, &self.counted.g, i, &self.buf, &m) < 0:
                    raise MemoryError()
                play(&self.s, &m)
            self.listed = False
            self.count_ok = False
            self._codes = ()
            self.decided = False
        finally:
            self.busy = False

    cdef int _moving(self) except -1:
        """Ready the move buffer for a loop of turns, forgetting this turn's listings."""
        self._ready()
        self.listed = False
        self.count_ok = False
        self._codes = ()
        self.decided = False
        return 0

    def play_random(self, seed=None, max_turns=None):
        cdef uint64_t x = _seed(_reference.fresh_seed() if seed is None else seed)
        cdef int64_t most = _most_turns(max_turns)
        cdef int64_t turns = 0
        cdef Move m
        self._enter()
        try:
            self._moving()
            while not self.s.winners and turns < most:
                if choose(&self.s, &self.buf, &x, &m) < 0:
                    raise MemoryError()
                play(&self.s, &m)
                turns += 1
                if turns & CHECK_EVERY == 0:
                    PyErr_CheckSignals()  # a game that never ends can be interrupted
            return turns
        finally:
            self.busy = False

    # -- The encoding (splendor.formats.encoding): _codes.pxi ----------------------

    @property
    def pending_codes(self):
        self._made()
        return self._codes

    cdef int _decide(self) except -1:
        """Bring the decisions to this state and the pending codes."""
        cdef int failed
        if self.decided:
            return 0
        self._ready()
        self.listed = False  # buf lists the moves for the decisions now
        failed = dec_start(&self.s, &self.dec)
        if failed == -2:
            reserved_error(&self.s)
        for code in self._codes:  # legal when they were taken
            if dec_choose(&self.s, &self.dec, code, &self.buf) == -3:
                raise MemoryError()
        self.decided = True
        return 0

    def legal_codes(self):
        self._enter()
        try:
            self._decide()
            return legal_tuple(self.dec.legal)
        finally:
            self.busy = False

    def play_code(self, code):
        self._enter()
        try:
            return self._play_code(code)
        finally:
            self.busy = False

    cdef bint _play_code(self, code) except -1:
        cdef Py_ssize_t position = len(self._codes)
        cdef Py_ssize_t chosen
        if type(code) is not int:
            if isinstance(code, bool) or not hasattr(type(code), "__index__"):
                raise EncodingError(
                    f"codes[{position}] is not an int code: {code!r}", position=position
                )
            try:
                code = _as_int(code)
            except TypeError as error:  # an __index__ that returns no int
                raise EncodingError(
                    f"codes[{position}] is not an int code: {error}", position=position
                ) from error
        self._decide()
        if not 0 <= code < A_COUNT:
            raise EncodingError(
                f"code {code} at position {position} is not a code "
                f"(codes are 0 to {A_COUNT - 1})",
                position=position,
                code=code,
            )
        if not has_bit(self.dec.legal, code):
            options = legal_tuple(self.dec.legal)
            why = (
                "the game is over" if not options
                else f"the legal codes are {', '.join(map(str, options))}"
            )
            raise EncodingError(
                f"code {code} ({_encoding.describe_code(code)}) at position {position} is "
                f"not legal here: {why}",
                position=position,
                code=code,
            )
        self.listed = False  # buf lists the moves of the code now
        chosen = dec_choose(&self.s, &self.dec, code, &self.buf)
        if chosen == -3:
            self.decided = False
            raise MemoryError()
        if chosen < 0:
            self._codes = self._codes + (code,)
            return False
        play(&self.s, dec_move(&self.dec, chosen))
        self.listed = False
        self.count_ok = False
        self._codes = ()
        self.decided = False
        return True

    # -- The built-in bots (splendor.fast.heuristics): _greedy.pxi ---------------

    def greedy_choice(self, rng):
        cdef KState before
        cdef Py_ssize_t index
        self._enter()
        try:
            if not isinstance(rng, random.Random):
                raise InvalidArgumentError(
                    f"a bot needs a random.Random, got {type(rng).__name__}"
                )
            self._list()
            if self.buf.n == 0:
                raise IllegalActionError("the game is over")
            before = self.s
            self.drawer = PyThread_get_thread_ident()
            index = greedy_pick(&self.s, self.buf.data, self.buf.n, rng)
            self._unchanged(&before)
            return index
        finally:
            self.drawer = 0
            self.busy = False

    cdef int _unchanged(self, const KState* before) except -1:
        """Refuse a bot's draw during which its generator played on this game
        (which _enter refuses first: a second guard)."""
        if memcmp(before, &self.s, sizeof(KState)) != 0 or not self.listed:
            raise InvalidArgumentError(
                "the game changed while a bot's generator was drawing: a generator "
                "must not play on the game it draws for"
            )
        return 0

    def _play_bots(self, greedy, rngs, max_turns):
        cdef int seat, n
        cdef bint kinds[4]
        cdef int64_t most = _most_turns(max_turns)
        self._enter()
        try:
            n = self.s.n_players
            greedy = tuple(greedy)
            rngs = tuple(rngs)
            if len(greedy) != n or len(rngs) != n:
                raise InvalidArgumentError(f"give a bot and a generator for each of the {n} seats")
            for seat in range(n):
                if not isinstance(rngs[seat], random.Random):
                    raise InvalidArgumentError(
                        f"a bot needs a random.Random, got {type(rngs[seat]).__name__}"
                    )
                kinds[seat] = bool(greedy[seat])
            self.drawer = PyThread_get_thread_ident()
            return self._bots(kinds, rngs, most)
        finally:
            self.drawer = 0
            self.busy = False

    cdef tuple _bots(self, const bint* kinds, tuple rngs, int64_t most):
        """The loop of _play_bots (the game is busy, its bots drawing)."""
        cdef int seat
        cdef int64_t turns = 0
        cdef Py_ssize_t index
        cdef KState before
        draws = [rng.randrange for rng in rngs]
        played = []
        self._moving()
        while not self.s.winners and turns < most:
            if gen(&self.s, &self.buf) < 0:
                raise MemoryError()
            self.listed = True
            before = self.s
            seat = self.s.current
            if kinds[seat]:
                index = greedy_pick(&self.s, self.buf.data, self.buf.n, rngs[seat])
            else:
                index = drawn(draws[seat](self.buf.n), self.buf.n)
            self._unchanged(&before)
            self.listed = False  # the move is played: buf no longer lists the state
            play(&self.s, &self.buf.data[index])
            played.append(index)
            turns += 1
            if turns & CHECK_EVERY == 0:
                PyErr_CheckSignals()  # a game that never ends can be interrupted
        return tuple(played)

    # -- The RL rows (splendor.fast.observations): _observations.pxi ---------------

    def observation_into(self, out, seat):
        self._enter()
        try:
            self._observation_into(out, seat)
        finally:
            self.busy = False

    cdef int _observation_into(self, out, seat) except -1:
        cdef float[::1] row
        cdef int failed, n = self.s.n_players
        try:
            row = _given(out)
        except _BUFFER_ERRORS as error:
            raise _not_a_row("float32", error) from None
        if type(seat) is not int or not 0 <= seat < n:
            raise InvalidArgumentError(f"seat must be a seat of this game (0 to {n - 1}), got {seat!r}")
        slots = self._rules.reserve_limit
        shown = self._rules.nobles(n)
        if row.shape[0] != observation_size(n, slots, shown):
            raise InvalidArgumentError(
                f"out must have {observation_size(n, slots, shown)} entries (the observation "
                f"of {n} players under these rules), got {row.shape[0]}"
            )
        if seat == self.s.current and not self.s.winners:
            self._decide()
            failed = write_observation(
                &self.s, seat, self.dec.prefix, self.dec.n_prefix, &row[0], row.shape[0],
                slots, shown,
            )
        else:
            failed = write_observation(&self.s, seat, NULL, 0, &row[0], row.shape[0], slots, shown)
        if failed:
            observation_error(failed)
        return 0

    def mask_into(self, out):
        cdef int8_t[::1] row
        self._enter()
        try:
            try:
                row = _given(out)
            except _BUFFER_ERRORS as error:
                raise _not_a_row("int8", error) from None
            if row.shape[0] != A_COUNT:
                raise InvalidArgumentError(f"out must have {A_COUNT} entries, got {row.shape[0]}")
            self._decide()
            write_mask(self.dec.legal, &row[0])
        finally:
            self.busy = False

    def __repr__(self):
        if self.s.n_players == 0:
            return "Game(never made)"
        return (
            f"Game(players={self.s.n_players}, turn={self.s.turn}, "
            f"current_player={self.s.current}, points={list(self.points)}, "
            f"winners={self.winners})"
        )


def _code_actions(Game game, int code):
    """The actions of the move code ``code`` in ``game``, as the first
    decision lists them (for the tests: the actions of legal_actions whose
    first code is ``code``, in their order)."""
    game._enter()
    try:
        game._ready()
        game.listed = False
        if gen_code(&game.s, code, &game.buf) < 0:
            raise MemoryError()
        return tuple([to_action(&game.buf.data[i]) for i in range(game.buf.n)])
    finally:
        game.busy = False


def _drawn_actions(Game game):
    """The actions of ``game`` as the uniform draw of its playouts makes them,
    index by index (for the tests: legal_actions, in its order)."""
    cdef Turn u
    cdef Groups g
    cdef Move m
    cdef Py_ssize_t j
    game._enter()
    try:
        game._ready()
        game.listed = False
        if game.s.winners:
            return ()
        read_turn(&game.s, &u, True)
        count_groups(&game.s, &u, &g)
        found = []
        for j in range(g.total):
            if nth(&game.s, &u, &g, j, &game.buf, &m) < 0:
                raise MemoryError()
            found.append(to_action(&m))
        return tuple(found)
    finally:
        game.busy = False


def _restore(cls, state):
    return cls.from_state(state)


cdef object _as_int(value):
    """``operator.index(value)`` as a plain int (see splendor.fast.reference._as_int)."""
    return int.__index__(operator.index(value))


cdef uint64_t _seed(seed) except? 0:
    if type(seed) is not int:
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise InvalidArgumentError(f"seed must be an int, got {seed!r}")
        seed = int.__index__(seed)
    return <uint64_t>(seed & 0xFFFFFFFFFFFFFFFF)


cdef int64_t _most_turns(max_turns) except? -1:
    if max_turns is None:
        return MOST_TURNS
    if isinstance(max_turns, bool) or not isinstance(max_turns, int) or _as_int(max_turns) < 0:
        raise InvalidArgumentError(
            f"max_turns must be a non-negative int or None, got {max_turns!r}"
        )
    return min(_as_int(max_turns), MOST_TURNS)


def random_playouts(start, games, *, seed=None, max_turns=None):
    """Play ``games`` random games from ``start`` (see :func:`splendor.fast.random_playouts`)."""
    cdef KState origin
    cdef KState s
    cdef MoveBuf buf
    cdef Move m
    cdef Game game
    if isinstance(start, Game):
        game = start
        game._made()
        memcpy(&origin, &game.s, sizeof(KState))
    elif isinstance(start, GameState):
        checked = _plain_rules(_reference._plain_state(start))
        check_state(checked)
        load(&origin, checked)
    else:
        raise InvalidArgumentError(
            f"expected a GameState or a splendor.fast.Game, got {type(start).__name__}"
        )
    games = _reference._games(games)
    cdef uint64_t x = _seed(_reference.fresh_seed() if seed is None else seed)
    cdef int64_t most = _most_turns(max_turns)
    cdef int64_t count = games
    cdef int64_t g, turns, total = 0, unfinished = 0
    cdef int64_t wins[4]
    cdef int seat, failed, n = origin.n_players
    for seat in range(4):
        wins[seat] = 0
    buf.data = <Move*>malloc(256 * sizeof(Move))
    if buf.data == NULL:
        raise MemoryError()
    buf.cap = 256
    buf.n = 0
    try:
        for g in range(count):
            memcpy(&s, &origin, sizeof(KState))
            turns = 0
            failed = 0
            while not s.winners and turns < most and not failed:
                with nogil:
                    while not s.winners and turns < most:
                        if choose(&s, &buf, &x, &m) < 0:
                            failed = 1
                            break
                        play(&s, &m)
                        turns += 1
                        if turns & CHECK_EVERY == 0:
                            break
                # A game that never ends can be interrupted.
                PyErr_CheckSignals()
            if failed:
                raise MemoryError()
            total += turns
            if s.winners:
                for seat in range(n):
                    if s.winners >> seat & 1:
                        wins[seat] += 1
            else:
                unfinished += 1
    finally:
        free(buf.data)
    return Playouts(
        games=games,
        wins=tuple([wins[seat] for seat in range(n)]),
        turns=total,
        unfinished=unfinished,
    )


include "_vector.pxi"
include "_evaluation.pxi"
include "_search.pxi"
