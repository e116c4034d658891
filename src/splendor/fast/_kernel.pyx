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

- ``_rules.pxi``: the legal moves and their play (``splendor.core.legal``,
  ``splendor.core.play``);
- ``_codes.pxi``: the decision codes of a turn (``splendor.formats.encoding``);
- ``_observations.pxi``: the observation rows and action masks
  (``splendor.fast.observations``, offered by :mod:`splendor.rl`);
- ``_greedy.pxi``: GreedyBot's choice (``splendor.players.bots``);
- ``_vector.pxi``: the games of a :class:`splendor.fast.VectorEnv`
  (``splendor.fast.vector``);
- this file: the Python interface (:class:`Game`, :func:`random_playouts`,
  the conversions from and to :class:`~splendor.GameState`), which
  ``splendor.fast.reference`` implements in pure Python.

Every number the kernel shares with the Python modules (the colours' order,
the code layout, the observation rows, GreedyBot's weights, the turn limit)
is read from them when the kernel is imported; sizes compiled into the C
structures are checked against them then (an :class:`ImportError` if they
do not fit, and :mod:`splendor.fast` falls back to pure Python). The tests
in ``tests/kernel`` compare the kernel with the Python modules on random
games, decision by decision.
"""

from libc.stdint cimport int8_t, int64_t, uint8_t, uint16_t, uint64_t
from libc.stdlib cimport free, malloc, realloc
from libc.string cimport memcmp, memcpy, memmove, memset
from cpython.exc cimport PyErr_CheckSignals

import itertools
import operator
import random

from splendor.core.actions import Buy, Pass, Reserve, ReserveFromDeck, Take
from splendor.core.components import CARDS_BY_ID, NOBLES_BY_ID
from splendor.core.deal import new_game
from splendor.core.gems import Tokens
from splendor.core.state import GameState, PlayerState
from splendor.core.validation import check_state
from splendor.errors import IllegalActionError, InvalidArgumentError
from splendor.fast import reference as _reference
from splendor.fast.reference import Playouts

#: The size in bytes of the C structure that holds one game.
STATE_SIZE = sizeof(KState)
#: The size in bytes of one generated move.
MOVE_SIZE = sizeof(Move)


def _fits(bint holds, what):
    """Refuse to load a kernel whose compiled sizes do not hold the Python data.

    An ImportError: splendor.fast then falls back to its pure implementation.
    """
    if not holds:
        raise ImportError(f"the compiled kernel does not fit the library: {what}; rebuild it")


include "_rules.pxi"
include "_codes.pxi"
include "_observations.pxi"
include "_greedy.pxi"


# -- The seeded generator of random playouts (splendor.fast.reference.SplitMix64) -----


cdef inline uint64_t splitmix64(uint64_t* x) noexcept nogil:
    """The next output of SplitMix64 (Steele, Lea and Flood, 2014)."""
    x[0] += 0x9E3779B97F4A7C15ULL
    cdef uint64_t z = x[0]
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL
    return z ^ (z >> 31)


cdef inline Py_ssize_t below(uint64_t* x, uint64_t n) noexcept nogil:
    """A uniform integer in [0, n): outputs below 2**64 mod n are drawn again."""
    cdef uint64_t threshold = (0 - n) % n
    cdef uint64_t r = splitmix64(x)
    while r < threshold:
        r = splitmix64(x)
    return <Py_ssize_t>(r % n)


# -- Conversion from and to GameState -------------------------------------------------

# The most turns a loop plays (splendor.fast.reference's bound).
cdef int64_t MOST_TURNS = _reference._MOST_TURNS
# Long loops look for a pending signal (Ctrl-C) every this many turns, plus one.
cdef int64_t CHECK_EVERY = 0xFFFF


cdef load(KState* s, state):
    """Fill ``s`` from a GameState that passed check_state."""
    memset(s, 0, sizeof(KState))
    rules = state.rules
    players = state.players
    n = len(players)
    gems = rules.gems(n)
    gold = rules.gold(n)
    if gems > 255 or gold > 255:
        raise InvalidArgumentError(
            f"the compiled kernel plays with at most 255 tokens of a colour, these rules have "
            f"{gems} of each gem and {gold} gold for {n} players"
        )
    if state.turn >= MOST_TURNS or state.passes >= MOST_TURNS:
        raise InvalidArgumentError(
            f"the compiled kernel counts turns and passes below 2**62, got turn {state.turn} "
            f"and passes {state.passes}"
        )
    cdef int pos = 0, k, c, i, seat
    for k in range(3):
        deck = state.decks[k]
        for card in deck:
            s.cards[pos] = card.id
            pos += 1
        s.seg[k] = len(deck)
    for seat in range(n):
        player = players[seat]
        for card, blind in zip(player.reserved, player.reserved_blind):
            s.cards[pos] = card.id | (BLIND_FLAG if blind else 0)
            pos += 1
        s.seg[3 + 2 * seat] = len(player.reserved)
        for card in player.cards:
            s.cards[pos] = card.id
            pos += 1
        s.seg[4 + 2 * seat] = len(player.cards)
        tokens = player.tokens.counts
        bonuses = player.bonuses.counts
        for c in range(6):
            s.tokens[seat][c] = tokens[c]
        for c in range(5):
            s.bonus[seat][c] = bonuses[c]
        s.points[seat] = player.points
    for k in range(3):
        for i in range(4):
            card = state.board[k][i]
            s.board[k * 4 + i] = 0 if card is None else card.id
    bank = state.bank.counts
    for c in range(6):
        s.bank[c] = bank[c]
    i = 0
    for noble in state.nobles:
        s.nobles[i] = noble.id
        i += 1
    for seat in range(n):
        for noble in players[seat].nobles:
            s.nobles[i] = noble.id | ((seat + 1) << 4)
            i += 1
    s.n_nobles = i
    s.n_players = n
    s.current = state.current_player
    for seat in state.winners:
        s.winners |= 1 << seat
    s.reserve_limit = min(rules.reserve_limit, 255)
    s.points_to_win = min(rules.points_to_win, 255)
    s.token_limit = min(rules.token_limit, 65535)
    s.turn = state.turn
    s.passes = state.passes


cdef tuple _tokens(const uint8_t* counts, int gold):
    return (counts[0], counts[1], counts[2], counts[3], counts[4], counts[5] if gold else 0)


cdef dump(const KState* s, rules):
    """The GameState that ``s`` holds."""
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
    cdef object _rules
    cdef tuple _codes  # the decision codes taken so far this turn
    cdef Decider dec  # the decisions of this turn (allocated on first use)
    cdef bint decided  # dec is at this state and these codes

    def __cinit__(self):
        # The move buffer is allocated on first use, so a copy costs no malloc.
        self.buf.data = NULL
        self.buf.cap = 0
        self.buf.n = 0
        self.listed = False
        self._rules = None
        self._codes = ()
        memset(&self.dec, 0, sizeof(Decider))
        self.decided = False

    def __dealloc__(self):
        free(self.buf.data)
        dec_free(&self.dec)

    def __init__(self):
        raise InvalidArgumentError(
            "make a Game with Game.from_state(state) or Game.new(players, seed=...)"
        )

    @classmethod
    def from_state(cls, state):
        check_state(state)
        cdef Game game = cls.__new__(cls)
        load(&game.s, state)
        game._rules = state.rules
        return game

    @classmethod
    def new(cls, players, *, seed, rules=None):
        state = new_game(players, seed=seed, rules=rules)
        cdef Game game = cls.__new__(cls)
        load(&game.s, state)
        game._rules = state.rules
        return game

    def state(self):
        return dump(&self.s, self._rules)

    def copy(self):
        cdef Game other = type(self).__new__(type(self))
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
        return self._rules

    @property
    def current_player(self):
        return self.s.current

    @property
    def turn(self):
        return self.s.turn

    @property
    def is_over(self):
        return self.s.winners != 0

    @property
    def winners(self):
        return tuple([seat for seat in range(self.s.n_players) if self.s.winners >> seat & 1])

    @property
    def points(self):
        return tuple([self.s.points[seat] for seat in range(self.s.n_players)])

    # -- The rules (splendor.core.legal, splendor.core.play): _rules.pxi -----------

    cdef int _ready(self) except -1:
        if self.buf.data == NULL:
            self.buf.data = <Move*>malloc(256 * sizeof(Move))
            if self.buf.data == NULL:
                raise MemoryError()
            self.buf.cap = 256
        return 0

    cdef int _list(self) except -1:
        if not self.listed:
            self._ready()
            if gen(&self.s, &self.buf) < 0:
                raise MemoryError()
            self.listed = True
        return 0

    cdef Py_ssize_t _index(self, index) except -1:
        cdef Py_ssize_t i
        if type(index) is int and self.listed and self.buf.n:
            # The common case, without Python arithmetic.
            try:
                i = index
            except OverflowError:
                i = -1 - self.buf.n
            if 0 <= i < self.buf.n:
                return i
        if type(index) is not int:
            if isinstance(index, bool) or not hasattr(index, "__index__"):
                raise InvalidArgumentError(
                    f"an action index must be an int, got {type(index).__name__}"
                )
            try:
                index = operator.index(index)
            except TypeError as error:  # an __index__ that returns no int
                raise InvalidArgumentError(f"an action index must be an int: {error}") from error
        self._list()
        cdef Py_ssize_t n = self.buf.n
        if n == 0:
            raise IllegalActionError("the game is over")
        if not -n <= index < n:
            raise InvalidArgumentError(
                f"action index {index} is out of range: there are {n} legal actions"
            )
        return index + n if index < 0 else index

    def moves(self):
        self._list()
        return self.buf.n

    def action(self, index):
        cdef Py_ssize_t i = self._index(index)
        return to_action(&self.buf.data[i])

    def actions(self):
        self._list()
        return tuple([to_action(&self.buf.data[i]) for i in range(self.buf.n)])

    def play(self, index):
        cdef Py_ssize_t i = self._index(index)
        play(&self.s, &self.buf.data[i])
        self.listed = False
        self._codes = ()
        self.decided = False

    cdef int _moving(self) except -1:
        """Ready the move buffer for a loop of turns, forgetting this turn's listings."""
        self._ready()
        self.listed = False
        self._codes = ()
        self.decided = False
        return 0

    def play_random(self, seed, max_turns=None):
        cdef uint64_t x = _seed(seed)
        cdef int64_t most = _most_turns(max_turns)
        cdef int64_t turns = 0
        self._moving()
        while not self.s.winners and turns < most:
            if gen(&self.s, &self.buf) < 0:
                raise MemoryError()
            play(&self.s, &self.buf.data[below(&x, self.buf.n)])
            turns += 1
            if turns & CHECK_EVERY == 0:
                PyErr_CheckSignals()  # a game that never ends can be interrupted
        return turns

    # -- The encoding (splendor.formats.encoding): _codes.pxi ----------------------

    @property
    def pending_codes(self):
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
        self._decide()
        return legal_tuple(self.dec.legal)

    def play_code(self, code):
        cdef Py_ssize_t position = len(self._codes)
        cdef Py_ssize_t chosen
        if type(code) is not int:
            if isinstance(code, bool) or not hasattr(type(code), "__index__"):
                raise EncodingError(
                    f"codes[{position}] is not an int code: {code!r}", position=position
                )
            try:
                code = operator.index(code)
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
        self._codes = ()
        self.decided = False
        return True

    # -- The built-in bots (splendor.players.bots): _greedy.pxi --------------------

    def greedy_choice(self, rng):
        if not isinstance(rng, random.Random):
            raise InvalidArgumentError(f"a bot needs a random.Random, got {type(rng).__name__}")
        cdef KState before
        cdef Py_ssize_t index
        self._list()
        if self.buf.n == 0:
            raise IllegalActionError("the game is over")
        before = self.s
        index = greedy_pick(&self.s, self.buf.data, self.buf.n, rng)
        self._unchanged(&before)
        return index

    cdef int _unchanged(self, const KState* before) except -1:
        """Refuse a bot's draw during which its generator played on this game."""
        if memcmp(before, &self.s, sizeof(KState)) != 0 or not self.listed:
            raise InvalidArgumentError(
                "the game changed while a bot's generator was drawing: a generator "
                "must not play on the game it draws for"
            )
        return 0

    def _play_bots(self, greedy, rngs, max_turns):
        cdef int seat, n = self.s.n_players
        cdef bint kinds[4]
        cdef int64_t most = _most_turns(max_turns)
        cdef int64_t turns = 0
        cdef Py_ssize_t index
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

    def mask_into(self, out):
        cdef int8_t[::1] row
        try:
            row = _given(out)
        except _BUFFER_ERRORS as error:
            raise _not_a_row("int8", error) from None
        if row.shape[0] != A_COUNT:
            raise InvalidArgumentError(f"out must have {A_COUNT} entries, got {row.shape[0]}")
        self._decide()
        write_mask(self.dec.legal, &row[0])

    def __repr__(self):
        return (
            f"Game(players={self.s.n_players}, turn={self.s.turn}, "
            f"current_player={self.s.current}, points={list(self.points)}, "
            f"winners={self.winners})"
        )


def _code_actions(Game game, int code):
    """The actions of the move code ``code`` in ``game``, as the first
    decision lists them (for the tests: the actions of legal_actions whose
    first code is ``code``, in their order)."""
    game._ready()
    game.listed = False
    if gen_code(&game.s, code, &game.buf) < 0:
        raise MemoryError()
    return tuple([to_action(&game.buf.data[i]) for i in range(game.buf.n)])


def _restore(cls, state):
    return cls.from_state(state)


cdef uint64_t _seed(seed) except? 0:
    if type(seed) is not int:
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise InvalidArgumentError(f"seed must be an int, got {seed!r}")
    return <uint64_t>(int(seed) & 0xFFFFFFFFFFFFFFFF)


cdef int64_t _most_turns(max_turns) except? -1:
    if max_turns is None:
        return MOST_TURNS
    if isinstance(max_turns, bool) or not isinstance(max_turns, int) or max_turns < 0:
        raise InvalidArgumentError(
            f"max_turns must be a non-negative int or None, got {max_turns!r}"
        )
    return min(max_turns, MOST_TURNS)


def random_playouts(start, games, *, seed, max_turns=None):
    """Play ``games`` random games from ``start`` (see :func:`splendor.fast.random_playouts`)."""
    cdef KState origin
    cdef KState s
    cdef MoveBuf buf
    cdef Game game
    if isinstance(start, Game):
        game = start
        memcpy(&origin, &game.s, sizeof(KState))
    elif isinstance(start, GameState):
        check_state(start)
        load(&origin, start)
    else:
        raise InvalidArgumentError(
            f"expected a GameState or a splendor.fast.Game, got {type(start).__name__}"
        )
    if isinstance(games, bool) or not isinstance(games, int) or games < 0:
        raise InvalidArgumentError(f"games must be a non-negative int, got {games!r}")
    cdef uint64_t x = _seed(seed)
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
                        if gen(&s, &buf) < 0:
                            failed = 1
                            break
                        play(&s, &buf.data[below(&x, buf.n)])
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
