# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
# cython: initializedcheck=False, embedsignature=False
"""The compiled kernel behind :mod:`splendor.fast`.

A game is one flat C structure (:c:type:`KState`, 208 bytes) that holds
everything a :class:`splendor.GameState` holds; the moves are generated into
a preallocated buffer of small C structures (:c:type:`Move`, 16 bytes), in
exactly the order of :func:`splendor.legal_actions`, and played in place.
Nothing on the path of move generation and play touches a Python object.

This module mirrors ``splendor/core/legal.py`` and ``splendor/core/play.py`` line for
line where the order of the listing is decided; the differential tests
(``tests/fast/test_diff.py``, ``nox -s kernel-diff``) compare the two on
random games.

It also works out the decisions of :mod:`splendor.formats.encoding` one at a time:
the move codes of a turn straight from the state (``legal_first``), the
moves of the chosen move code only (``gen_code``, from the same pieces as
``gen``), and their follow-up codes (:c:type:`Decider`). It writes
:func:`splendor.rl.observation` and the action mask into numpy rows, and
steps a whole :class:`splendor.fast.VectorEnv` batch (:class:`VectorCore`),
dealing finished games with SplitMix64; the tests in
``tests/fast/test_code_moves.py``, ``tests/fast/test_decisions.py`` and
``tests/fast/test_vector_exact.py`` compare them with the Python modules at
every decision.
"""

from libc.stdint cimport int8_t, int64_t, uint8_t, uint16_t, uint64_t
from libc.stdlib cimport free, malloc, realloc
from libc.string cimport memcmp, memcpy, memmove, memset
from cpython.exc cimport PyErr_CheckSignals

import itertools
import operator
import random

from splendor.core.actions import Buy, Pass, Reserve, ReserveFromDeck, Take
from splendor.core.components import CARDS, CARDS_BY_ID, NOBLES, NOBLES_BY_ID
from splendor.core.deal import new_game
from splendor.errors import IllegalActionError, InvalidArgumentError
from splendor.fast.reference import Playouts
from splendor.core.gems import Tokens
from splendor.core.state import GameState, PlayerState
from splendor.core.validation import check_state

#: The size in bytes of the C structure that holds one game.
STATE_SIZE = sizeof(KState)
#: The size in bytes of one generated move.
MOVE_SIZE = sizeof(Move)

# -- Static tables of the cards and nobles (filled once at import) ---------------

cdef uint8_t C_TIER[91]
cdef uint8_t C_BONUS[91]
cdef uint8_t C_POINTS[91]
cdef uint8_t C_COST[91][5]
cdef uint8_t C_COST_TOTAL[91]
cdef uint8_t N_POINTS[11]
cdef uint8_t N_REQ[11][5]
cdef int MIN_NOBLE_TOTAL = 0

# Combinations of up to 3 of up to 5 available colours, in the order of
# itertools.combinations: COMBO[na][size][i] is the i-th combination of
# positions (0..na-1) in the list of available colours.
cdef uint8_t COMBO[6][4][10][3]
cdef uint8_t NCOMBO[6][4]

_COLOUR_INDEX = {"white": 0, "blue": 1, "green": 2, "red": 3, "black": 4}


def _init_tables():
    global MIN_NOBLE_TOTAL
    cdef int c
    for card in CARDS:
        C_TIER[card.id] = card.tier
        C_BONUS[card.id] = _COLOUR_INDEX[card.bonus.value]
        C_POINTS[card.id] = card.points
        counts = card.cost.counts
        for c in range(5):
            C_COST[card.id][c] = counts[c]
        C_COST_TOTAL[card.id] = sum(counts[:5])
    least = 99
    for noble in NOBLES:
        N_POINTS[noble.id] = noble.points
        counts = noble.requirement.counts
        for c in range(5):
            N_REQ[noble.id][c] = counts[c]
        least = min(least, sum(counts[:5]))
    MIN_NOBLE_TOTAL = least
    for na in range(6):
        for size in range(4):
            found = list(itertools.combinations(range(na), size))
            NCOMBO[na][size] = len(found)
            for i, combo in enumerate(found):
                for j, position in enumerate(combo):
                    COMBO[na][size][i][j] = position


_init_tables()

# -- The card segments ------------------------------------------------------------------


cdef inline int seg_start(const KState* s, int k) noexcept nogil:
    cdef int i, total = 0
    for i in range(k):
        total += s.seg[i]
    return total


cdef inline uint8_t remove_at(KState* s, int k, int pos) noexcept nogil:
    """Remove and return the card at ``pos`` (in segment ``k``)."""
    cdef int total = seg_start(s, NSEG)
    cdef uint8_t value = s.cards[pos]
    memmove(&s.cards[pos], &s.cards[pos + 1], total - pos - 1)
    s.seg[k] -= 1
    return value


cdef inline void append_to(KState* s, int k, uint8_t value) noexcept nogil:
    """Add ``value`` at the end of segment ``k``."""
    cdef int total = seg_start(s, NSEG)
    cdef int pos = seg_start(s, k + 1)
    memmove(&s.cards[pos + 1], &s.cards[pos], total - pos)
    s.cards[pos] = value
    s.seg[k] += 1


# -- Decision codes (splendor.formats.encoding) -----------------------------------------------

# The code layout of splendor.formats.encoding (format version 1); tests/fast compare
# these with the module's constants.

cdef enum:
    A_COUNT = 85  # encoding.ACTION_COUNT
    A_DOUBLE = 25  # the takes of 2 gems of one colour
    A_RESERVE_BOARD = 30
    A_RESERVE_DECK = 42
    A_BUY_BOARD = 45
    A_BUY_RESERVED = 57
    A_RESERVED_SLOTS = 5
    A_PASS = 62
    A_RETURN = 63
    A_GOLD = 69
    A_NO_MORE_GOLD = 74
    A_NOBLE = 75
    # The most codes of one turn: the move, a gold code per token of the
    # dearest card's price (14), "no more gold", the noble.
    MAXF = 24
    # A code that no sequence holds: past the end of a shorter one.
    NO_CODE = 255

# The take code of a take by its gems: TAKE_BY_KEY[sum of tok[c] * 3 ** c]
# (filled with the other tables of the codes, below).
cdef uint8_t TAKE_BY_KEY[243]
# The colours of each take code of different colours (1 for a colour taken).
cdef uint8_t TAKE_TOK[A_DOUBLE][5]
cdef int POW3[5]
# The codes of every take of min(3, n) colours of the n colours in a supply,
# by the supply's colours (a bit per colour): the takes when none is given back.
cdef uint64_t FULL_TAKES[32]


cdef inline int take_key(const uint8_t* tok) noexcept nogil:
    return tok[0] + 3 * tok[1] + 9 * tok[2] + 27 * tok[3] + 81 * tok[4]


# -- Move generation ---------------------------------------------------------------------


cdef inline Move* push(MoveBuf* b) noexcept nogil:
    cdef Move* grown
    cdef Py_ssize_t cap
    if b.n == b.cap:
        cap = b.cap * 2
        grown = <Move*>realloc(b.data, cap * sizeof(Move))
        if grown == NULL:
            return NULL
        b.data = grown
        b.cap = cap
    b.n += 1
    return &b.data[b.n - 1]


cdef inline int emit(MoveBuf* b, const Move* m, const uint8_t* nobles, int n_nobles) noexcept nogil:
    """Add ``m``, once per noble of ``nobles`` (or once without a noble)."""
    cdef Move* out
    cdef int i
    if n_nobles == 0:
        out = push(b)
        if out == NULL:
            return -1
        out[0] = m[0]
        return 0
    for i in range(n_nobles):
        out = push(b)
        if out == NULL:
            return -1
        out[0] = m[0]
        out.noble = nobles[i]
    return 0


cdef int submultisets(const int* held, int size, int* out) noexcept nogil:
    """Every count vector at most ``held`` adding to ``size`` (at most 3), in
    decreasing lexicographic order, as ``_counts.sub_multisets`` lists them;
    ``out`` receives 6 counts per vector (room for 56 vectors)."""
    cdef int a, b, c, d, e, l1, l2, l3, l4, l5
    cdef int n = 0
    if size > 3:
        return 0
    a = held[0] if held[0] < size else size
    while a >= 0:
        l1 = size - a
        b = held[1] if held[1] < l1 else l1
        while b >= 0:
            l2 = l1 - b
            c = held[2] if held[2] < l2 else l2
            while c >= 0:
                l3 = l2 - c
                d = held[3] if held[3] < l3 else l3
                while d >= 0:
                    l4 = l3 - d
                    e = held[4] if held[4] < l4 else l4
                    while e >= 0:
                        l5 = l4 - e
                        if l5 <= held[5]:
                            out[n * 6 + 0] = a
                            out[n * 6 + 1] = b
                            out[n * 6 + 2] = c
                            out[n * 6 + 3] = d
                            out[n * 6 + 4] = e
                            out[n * 6 + 5] = l5
                            n += 1
                        e -= 1
                    d -= 1
                c -= 1
            b -= 1
        a -= 1
    return n


cdef int gen_takes(
    MoveBuf* b, const int* t, const int* avail, int na, int room,
    const uint8_t* now, int n_now, int want,
) noexcept nogil:
    """The takes of gems of different colours (``legal._takes``); only those
    of the take code ``want`` unless it is -1."""
    cdef int k = na if na < 3 else 3
    cdef int net = k if k < room else room
    cdef int size, i, j, n, x, extra, nsub
    cdef int rest[6]
    cdef int subs[56 * 6]
    cdef uint8_t back[6]
    cdef bint used[5]
    cdef Move m
    memset(&m, 0, sizeof(Move))
    m.kind = K_TAKE
    size = k
    while size >= net:
        extra = size - net
        for i in range(NCOMBO[na][size]):
            memset(m.tok, 0, 6)
            memset(back, 0, 6)
            for j in range(na):
                used[j] = False
            for j in range(size):
                used[COMBO[na][size][i][j]] = True
                m.tok[avail[COMBO[na][size][i][j]]] = 1
            # Fillers: the first other available colours, taken and given back.
            n = k - size
            j = 0
            while n > 0:
                if not used[j]:
                    m.tok[avail[j]] = 1
                    back[avail[j]] = 1
                    n -= 1
                j += 1
            if want >= 0 and TAKE_BY_KEY[take_key(m.tok)] != want:
                continue
            if extra:
                for x in range(6):
                    rest[x] = t[x]
                for j in range(size):
                    rest[avail[COMBO[na][size][i][j]]] = 0
                nsub = submultisets(rest, extra, subs)
                for n in range(nsub):
                    for x in range(6):
                        m.ret[x] = subs[n * 6 + x] + back[x]
                    if emit(b, &m, now, n_now) < 0:
                        return -1
            else:
                memcpy(m.ret, back, 6)
                if emit(b, &m, now, n_now) < 0:
                    return -1
        size -= 1
    return 0


ctypedef struct Turn:
    # What the moves of the player to move depend on, read from the state once.
    int t[6]  # the player's tokens
    int bank[6]
    int bonus[5]
    int e[5]  # bonus + tokens, per colour
    int room  # the tokens the player may take before the limit
    int gold  # the player's gold
    int start  # where the player's reserved cards are in KState.cards
    int nres  # how many cards the player has reserved
    int n_now
    int n_after[5]
    # The nobles that qualify now, and after buying a card of each colour.
    uint8_t now[MAXNOBLES]
    uint8_t after[5][MAXNOBLES]


cdef inline void read_turn(const KState* s, Turn* u, bint nobles) noexcept nogil:
    """Fill ``u`` for the player to move in ``s`` (the nobles only if asked)."""
    cdef int p = s.current
    cdef int c, i, held = 0, bsum = 0, missing, colour, need, noble
    for c in range(6):
        u.t[c] = s.tokens[p][c]
        u.bank[c] = s.bank[c]
        held += u.t[c]
    u.gold = u.t[5]
    for c in range(5):
        u.bonus[c] = s.bonus[p][c]
        bsum += u.bonus[c]
        u.e[c] = u.bonus[c] + u.t[c]
    u.room = <int>s.token_limit - held
    u.start = seg_start(s, 3 + 2 * p)
    u.nres = s.seg[3 + 2 * p]
    u.n_now = 0
    for c in range(5):
        u.n_after[c] = 0
    if nobles and bsum + 1 >= MIN_NOBLE_TOTAL:
        for i in range(s.n_nobles):
            if s.nobles[i] >> 4:
                continue
            noble = s.nobles[i] & 15
            missing = 0
            colour = 0
            for c in range(5):
                need = N_REQ[noble][c]
                if need > u.bonus[c]:
                    missing += need - u.bonus[c]
                    colour = c
            if missing == 0:
                u.now[u.n_now] = noble
                u.n_now += 1
                for c in range(5):
                    u.after[c][u.n_after[c]] = noble
                    u.n_after[c] += 1
            elif missing == 1:
                u.after[colour][u.n_after[colour]] = noble
                u.n_after[colour] += 1


cdef inline int available(const Turn* u, int* avail) noexcept nogil:
    """The colours left in the supply, in order, into ``avail``; how many."""
    cdef int c, na = 0
    for c in range(5):
        if u.bank[c] > 0:
            avail[na] = c
            na += 1
    return na


cdef int emit_returns(
    MoveBuf* b, Move* m, const int* subs, int nsub, const uint8_t* nobles, int n_nobles,
) noexcept nogil:
    """Add ``m`` once per way to give tokens back of ``subs`` (and per noble)."""
    cdef int i, j
    for i in range(nsub):
        for j in range(6):
            m.ret[j] = subs[i * 6 + j]
        if emit(b, m, nobles, n_nobles) < 0:
            return -1
    return 0


cdef int gen_double(MoveBuf* b, const Turn* u, int c) noexcept nogil:
    """The takes of 2 gems of colour ``c`` (its supply holds 4 or more)."""
    cdef int i, nsub
    cdef int n = 2 - (u.room if u.room < 2 else 2)
    cdef int h[6]
    cdef int subs[56 * 6]
    cdef Move m
    memset(&m, 0, sizeof(Move))
    m.kind = K_TAKE
    m.tok[c] = 2
    if n:
        for i in range(6):
            h[i] = u.t[i]
        h[c] = 0
        nsub = submultisets(h, n, subs)
        return emit_returns(b, &m, subs, nsub, u.now, u.n_now)
    return emit(b, &m, u.now, u.n_now)


cdef inline int reserve_returns(const Turn* u, int* subs) noexcept nogil:
    """The tokens a reserve may give back (the gold it brings over the limit):
    how many ways, written to ``subs``; 0 when none is given back."""
    cdef int i
    cdef int h[6]
    if u.bank[5] and u.room < 1:
        for i in range(6):
            h[i] = u.t[i]
        h[5] += 1
        return submultisets(h, 1 - u.room, subs)
    return 0


cdef int gen_reserve(
    MoveBuf* b, const Turn* u, int kind, int card, int src, const int* subs, int nsub,
) noexcept nogil:
    """The reserves of one card (``kind`` K_RESERVE, or K_BLIND with the tier
    as ``card``), once per way to give tokens back."""
    cdef Move m
    memset(&m, 0, sizeof(Move))
    m.kind = kind
    m.card = card
    m.src = src
    if nsub:
        return emit_returns(b, &m, subs, nsub, u.now, u.n_now)
    return emit(b, &m, u.now, u.n_now)


cdef inline bint can_buy(const Turn* u, int card) noexcept nogil:
    """Whether the player can pay for ``card``: what its bonuses and tokens
    leave short is at most its gold (worked out without a branch per colour,
    which the processor would often guess wrong)."""
    cdef int c, d, short = 0
    for c in range(5):
        d = <int>C_COST[card][c] - u.e[c]
        short += d if d > 0 else 0
    return short <= u.gold


cdef int gen_buy(MoveBuf* b, const Turn* u, int card, int src) noexcept nogil:
    """The buys of ``card`` (one the player can pay for) from ``src``: one
    per payment and noble."""
    cdef int c, whole = 0, p0, p1, p2, p3, p4, spent
    cdef int price[5]
    cdef int most[5]
    cdef const uint8_t* gained = u.after[C_BONUS[card]]
    cdef int n_gained = u.n_after[C_BONUS[card]]
    cdef Move m
    memset(&m, 0, sizeof(Move))
    m.kind = K_BUY
    m.card = card
    m.src = src
    for c in range(5):
        price[c] = C_COST[card][c] - u.bonus[c] if C_COST[card][c] > u.bonus[c] else 0
        whole += price[c]
    if not u.gold:
        for c in range(5):
            m.tok[c] = price[c]
        return emit(b, &m, gained, n_gained)
    for c in range(5):
        most[c] = price[c] if price[c] < u.t[c] else u.t[c]
    p0 = most[0]
    while p0 >= 0:
        p1 = most[1]
        while p1 >= 0:
            p2 = most[2]
            while p2 >= 0:
                p3 = most[3]
                while p3 >= 0:
                    p4 = most[4]
                    while p4 >= 0:
                        spent = whole - p0 - p1 - p2 - p3 - p4
                        if spent <= u.gold:
                            m.tok[0] = p0
                            m.tok[1] = p1
                            m.tok[2] = p2
                            m.tok[3] = p3
                            m.tok[4] = p4
                            m.tok[5] = spent
                            if emit(b, &m, gained, n_gained) < 0:
                                return -1
                        p4 -= 1
                    p3 -= 1
                p2 -= 1
            p1 -= 1
        p0 -= 1
    return 0


cdef inline int reserved_card(const KState* s, const Turn* u, int i) noexcept nogil:
    """The card of buy source ``i`` (0-11 a board slot, 12 + k the k-th
    reserved card), or 0 for none."""
    if i < 12:
        return s.board[i]
    if i - 12 < u.nres:
        return s.cards[u.start + i - 12] & 0x7F
    return 0


cdef int gen_pass(MoveBuf* b, const Turn* u) noexcept nogil:
    cdef Move m
    memset(&m, 0, sizeof(Move))
    m.kind = K_PASS
    return emit(b, &m, u.now, u.n_now)


cdef int gen(KState* s, MoveBuf* b) noexcept nogil:
    """List the legal moves of ``s`` into ``b`` (``legal.legal_actions``).

    Returns 0, or -1 when memory ran out.
    """
    b.n = 0
    if s.winners:
        return 0
    cdef Turn u
    cdef int c, i, tier, slot, nsub, card, na
    cdef int avail[5]
    cdef int subs[56 * 6]
    read_turn(s, &u, True)

    # Takes.
    na = available(&u, avail)
    if na:
        if gen_takes(b, u.t, avail, na, u.room if u.room < 3 else 3, u.now, u.n_now, -1) < 0:
            return -1
        for c in range(5):
            if u.bank[c] > 3 and gen_double(b, &u, c) < 0:
                return -1

    # Reserves.
    if u.nres < s.reserve_limit:
        nsub = reserve_returns(&u, subs)
        for tier in range(3):
            for slot in range(4):
                card = s.board[tier * 4 + slot]
                if card and gen_reserve(b, &u, K_RESERVE, card, tier * 4 + slot, subs, nsub) < 0:
                    return -1
            if s.seg[tier] and gen_reserve(b, &u, K_BLIND, tier + 1, 0, subs, nsub) < 0:
                return -1

    # Buys: the face-up cards, then the reserved ones.
    for i in range(12 + u.nres):
        card = reserved_card(s, &u, i)
        if card and can_buy(&u, card) and gen_buy(b, &u, card, i) < 0:
            return -1

    if b.n == 0:
        return gen_pass(b, &u)
    return 0


# -- The moves of one decision (for the decision codes of splendor.formats.encoding) -----------

cdef inline void set_bit(uint64_t* bits, int code) noexcept nogil:
    if 0 <= code < 128:
        bits[code >> 6] |= (<uint64_t>1) << (code & 63)


cdef inline bint has_bit(const uint64_t* bits, int64_t code) noexcept nogil:
    return 0 <= code < A_COUNT and (bits[code >> 6] >> (code & 63)) & 1


cdef inline int move_code(const Move* m) noexcept nogil:
    """The first decision of ``m`` (as encoding._build codes it)."""
    cdef int key
    if m.kind == K_TAKE:
        key = take_key(m.tok)
        return TAKE_BY_KEY[key] if key < 243 else NO_CODE
    if m.kind == K_RESERVE:
        return A_RESERVE_BOARD + m.src
    if m.kind == K_BLIND:
        return A_RESERVE_DECK + m.card - 1
    if m.kind == K_BUY:
        if m.src < 12:
            return A_BUY_BOARD + m.src
        return A_BUY_RESERVED + m.src - 12
    return A_PASS


cdef void legal_first(const KState* s, uint64_t* bits) noexcept nogil:
    """Set in ``bits`` the move codes of the legal moves of ``s`` (the first
    decision of its turn), without listing the moves: each kind of move is
    legal exactly when :func:`gen` would list one of it. The player holds no
    more tokens than the limit (check_state refuses a state that does, and
    every turn ends within it)."""
    cdef Turn u
    cdef int c, i, j, n, k, net, size, extra, key, na, total, chosen
    cdef int avail[5]
    cdef bint used[5]
    bits[0] = 0
    bits[1] = 0
    if s.winners:
        return
    read_turn(s, &u, False)

    # Takes (as gen_takes lists them): every set of k colours made of
    # ``size`` colours kept and the first other ones as fillers (taken and
    # given back), when the player holds enough other tokens to give back.
    na = available(&u, avail)
    if na:
        k = na if na < 3 else 3
        total = u.t[0] + u.t[1] + u.t[2] + u.t[3] + u.t[4] + u.t[5]
        if u.room >= k:  # nothing given back: every set of k colours
            key = 0
            for j in range(na):
                key |= 1 << avail[j]
            bits[0] |= FULL_TAKES[key]
        else:
            net = u.room
            size = k
            while size >= net:
                extra = size - net
                for i in range(NCOMBO[na][size]):
                    key = 0
                    chosen = 0
                    for j in range(na):
                        used[j] = False
                    for j in range(size):
                        used[COMBO[na][size][i][j]] = True
                        key += POW3[avail[COMBO[na][size][i][j]]]
                        chosen += u.t[avail[COMBO[na][size][i][j]]]
                    if extra and total - chosen < extra:
                        continue
                    n = k - size
                    j = 0
                    while n > 0:
                        if not used[j]:
                            key += POW3[avail[j]]
                            n -= 1
                        j += 1
                    set_bit(bits, TAKE_BY_KEY[key])
                size -= 1
        n = 2 - (u.room if u.room < 2 else 2)
        for c in range(5):
            if u.bank[c] > 3 and (n == 0 or total - u.t[c] >= n):
                set_bit(bits, A_DOUBLE + c)

    # Reserves (with or without tokens given back, there is one of each).
    if u.nres < s.reserve_limit:
        for i in range(12):
            if s.board[i]:
                set_bit(bits, A_RESERVE_BOARD + i)
        for i in range(3):
            if s.seg[i]:
                set_bit(bits, A_RESERVE_DECK + i)

    # Buys.
    for i in range(12 + u.nres):
        k = reserved_card(s, &u, i)
        if k and can_buy(&u, k):
            set_bit(bits, (A_BUY_BOARD + i) if i < 12 else (A_BUY_RESERVED + i - 12))

    if bits[0] == 0 and bits[1] == 0:
        set_bit(bits, A_PASS)


cdef int gen_code(KState* s, int code, MoveBuf* b) noexcept nogil:
    """List into ``b`` the moves of :func:`gen` whose move code is ``code``,
    in the order gen lists them (none when ``code`` is not legal).

    Returns 0, or -1 when memory ran out.
    """
    cdef Turn u
    cdef int c, i, j, k, na, kept, nsub, card
    cdef int avail[5]
    cdef int subs[56 * 6]
    cdef Move m
    b.n = 0
    if s.winners or code < 0 or code > A_PASS:
        return 0
    if code == A_PASS:
        # Legal only when nothing else is: gen lists it alone then.
        if gen(s, b) < 0:
            return -1
        if b.n and b.data[0].kind != K_PASS:
            b.n = 0
        return 0
    read_turn(s, &u, True)
    if code < A_DOUBLE:
        na = available(&u, avail)
        if not na:
            return 0
        k = na if na < 3 else 3
        if u.room >= k:
            # Nothing is given back: the take of these colours, if it is one of k.
            memset(&m, 0, sizeof(Move))
            m.kind = K_TAKE
            j = 0
            for c in range(5):
                if TAKE_TOK[code][c]:
                    if not u.bank[c]:
                        return 0
                    m.tok[c] = 1
                    j += 1
            if j != k:
                return 0
            return emit(b, &m, u.now, u.n_now)
        return gen_takes(b, u.t, avail, na, u.room if u.room < 3 else 3, u.now, u.n_now, code)
    if code < A_RESERVE_BOARD:
        c = code - A_DOUBLE
        if u.bank[c] > 3:
            return gen_double(b, &u, c)
        return 0
    if code < A_BUY_BOARD:
        if u.nres >= s.reserve_limit:
            return 0
        if code < A_RESERVE_DECK:
            card = s.board[code - A_RESERVE_BOARD]
            if not card:
                return 0
            nsub = reserve_returns(&u, subs)
            return gen_reserve(b, &u, K_RESERVE, card, code - A_RESERVE_BOARD, subs, nsub)
        if not s.seg[code - A_RESERVE_DECK]:
            return 0
        nsub = reserve_returns(&u, subs)
        return gen_reserve(b, &u, K_BLIND, code - A_RESERVE_DECK + 1, 0, subs, nsub)
    i = code - A_BUY_BOARD
    card = reserved_card(s, &u, i)
    if card and can_buy(&u, card):
        return gen_buy(b, &u, card, i)
    return 0


# -- Playing a move -----------------------------------------------------------------------


cdef inline void refill(KState* s, int index) noexcept nogil:
    """Refill board slot ``index`` from its tier's deck top, or leave it empty."""
    cdef int tier = index >> 2
    if s.seg[tier]:
        s.board[index] = remove_at(s, tier, seg_start(s, tier))
    else:
        s.board[index] = 0


cdef void play(KState* s, const Move* m) noexcept nogil:
    """Play the whole turn ``m`` (one of the moves :func:`gen` listed) in place."""
    cdef int p = s.current
    cdef int c, i, card, n, e, passed = 0
    cdef int best_points, best_cards, cards
    if m.kind == K_TAKE:
        for c in range(6):
            s.tokens[p][c] = s.tokens[p][c] + m.tok[c] - m.ret[c]
            s.bank[c] = s.bank[c] - m.tok[c] + m.ret[c]
    elif m.kind == K_RESERVE or m.kind == K_BLIND:
        if m.kind == K_RESERVE:
            card = s.board[m.src]
            refill(s, m.src)
        else:
            card = remove_at(s, m.card - 1, seg_start(s, m.card - 1)) | BLIND_FLAG
        append_to(s, 3 + 2 * p, card)
        if s.bank[5]:
            s.bank[5] -= 1
            s.tokens[p][5] += 1
        for c in range(6):
            s.tokens[p][c] -= m.ret[c]
            s.bank[c] += m.ret[c]
    elif m.kind == K_BUY:
        card = m.card
        if m.src < 12:
            refill(s, m.src)
        else:
            remove_at(s, 3 + 2 * p, seg_start(s, 3 + 2 * p) + m.src - 12)
        append_to(s, 4 + 2 * p, card)
        for c in range(6):
            s.tokens[p][c] -= m.tok[c]
            s.bank[c] += m.tok[c]
        s.points[p] += C_POINTS[card]
        s.bonus[p][C_BONUS[card]] += 1
    else:
        passed = 1
    if m.noble:
        for i in range(s.n_nobles):
            if s.nobles[i] == m.noble:
                memmove(&s.nobles[i], &s.nobles[i + 1], s.n_nobles - i - 1)
                s.nobles[s.n_nobles - 1] = m.noble | ((p + 1) << 4)
                s.points[p] += N_POINTS[m.noble]
                break
    s.passes = s.passes + 1 if passed else 0
    s.turn += 1
    n = s.n_players
    if p + 1 < n:
        s.current = p + 1
        return
    s.current = 0
    best_points = 0
    for i in range(n):
        if s.points[i] > best_points:
            best_points = s.points[i]
    if s.passes < n and best_points < s.points_to_win:
        return
    # Most points, then fewest purchased cards; ties share the win.
    best_cards = 255
    for i in range(n):
        cards = s.seg[4 + 2 * i]
        if s.points[i] == best_points and cards < best_cards:
            best_cards = cards
    e = 0
    for i in range(n):
        if s.points[i] == best_points and s.seg[4 + 2 * i] == best_cards:
            e |= 1 << i
    s.winners = e


# -- The seeded generator of random playouts ---------------------------------------


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

cdef int64_t MOST_TURNS = (<int64_t>1) << 62
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


cdef object _NO_TOKENS = Tokens()


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


# -- splendor.formats.encoding, for its errors and descriptions -----------------------------

_ENCODING = None


def _encoding():
    """splendor.formats.encoding, imported on first use."""
    global _ENCODING
    if _ENCODING is None:
        from splendor.formats import encoding

        _ENCODING = encoding
    return _ENCODING


# -- Decision codes (splendor.formats.encoding) in C -------------------------------------------

# The card ids of each tier, and the noble ids, in the order of
# splendor.core.components.CARDS and NOBLES: what a VectorEnv deal shuffles.
cdef uint8_t TIER_IDS[3][40]
cdef int TIER_N[3]
cdef uint8_t NOBLE_IDS[10]
cdef int NOBLE_N = 0
# The observation rows of splendor.rl.observations: row 0 an empty slot, rows
# 1-90 the cards by id, rows 91-93 a hidden card of tier 1-3; nobles by id.
cdef float CARD_ROW[94][16]
cdef float NOBLE_ROW[11][7]


def _init_decisions():
    global NOBLE_N
    cdef int c, i, tier
    patterns = [
        [c for c in range(5) if c in chosen]
        for size in (3, 2, 1)
        for chosen in itertools.combinations(range(5), size)
    ]
    memset(TAKE_BY_KEY, NO_CODE, 243)
    memset(TAKE_TOK, 0, sizeof(TAKE_TOK))
    for c in range(5):
        POW3[c] = (1, 3, 9, 27, 81)[c]
    for i, chosen in enumerate(patterns):
        TAKE_BY_KEY[sum([(1, 3, 9, 27, 81)[c] for c in chosen])] = i
        for c in chosen:
            TAKE_TOK[i][c] = 1
    for c in range(5):
        TAKE_BY_KEY[2 * (1, 3, 9, 27, 81)[c]] = 25 + c
    for i in range(32):
        colours = [c for c in range(5) if i >> c & 1]
        FULL_TAKES[i] = 0
        for chosen in itertools.combinations(colours, min(3, len(colours))):
            FULL_TAKES[i] |= (<uint64_t>1) << TAKE_BY_KEY[sum([(1, 3, 9, 27, 81)[c] for c in chosen])]
    for tier in range(3):
        TIER_N[tier] = 0
    memset(CARD_ROW, 0, sizeof(CARD_ROW))
    for card in CARDS:
        tier = card.tier - 1
        TIER_IDS[tier][TIER_N[tier]] = card.id
        TIER_N[tier] += 1
        CARD_ROW[card.id][0] = 1.0
        CARD_ROW[card.id][2 + tier] = 1.0
        CARD_ROW[card.id][5 + C_BONUS[card.id]] = 1.0
        CARD_ROW[card.id][10] = C_POINTS[card.id]
        for c in range(5):
            CARD_ROW[card.id][11 + c] = C_COST[card.id][c]
        if C_COST_TOTAL[card.id] + 3 > MAXF:
            raise AssertionError("a card costs more than the decision buffers hold")
    for tier in range(3):
        CARD_ROW[91 + tier][1] = 1.0
        CARD_ROW[91 + tier][2 + tier] = 1.0
    memset(NOBLE_ROW, 0, sizeof(NOBLE_ROW))
    NOBLE_N = 0
    for noble in NOBLES:
        NOBLE_IDS[NOBLE_N] = noble.id
        NOBLE_N += 1
        NOBLE_ROW[noble.id][0] = 1.0
        NOBLE_ROW[noble.id][1] = N_POINTS[noble.id]
        for c in range(5):
            NOBLE_ROW[noble.id][2 + c] = N_REQ[noble.id][c]


_init_decisions()

#: The size in bytes of the decisions of one game's turn (the first moves of
#: its chosen move code in place).
DECISIONS_SIZE = sizeof(Decider)

#: The codes' layout the kernel writes (checked against splendor.formats.encoding by the tests).
CODE_LAYOUT = {
    "ACTION_COUNT": A_COUNT,
    "RESERVE_BOARD": A_RESERVE_BOARD,
    "RESERVE_DECK": A_RESERVE_DECK,
    "BUY_BOARD": A_BUY_BOARD,
    "BUY_RESERVED": A_BUY_RESERVED,
    "RESERVED_SLOTS": A_RESERVED_SLOTS,
    "PASS": A_PASS,
    "RETURN": A_RETURN,
    "GOLD": A_GOLD,
    "NO_MORE_GOLD": A_NO_MORE_GOLD,
    "NOBLE": A_NOBLE,
}


cdef enum:
    # The moves of one move code a Decider keeps in place (a take or a
    # reserve with its ways to give tokens back, a buy with its payments, by
    # noble); more go to a heap block.
    INLINE_MOVES = 16
    # The candidates of a follow-up decision it keeps in place.
    INLINE_CANDIDATES = 12


ctypedef struct Decider:
    # The decisions of one turn: the codes legal now; once the move code is
    # chosen, its moves, and the moves still possible with every follow-up
    # code of each (forced ones included). What a decision reads first comes
    # first, then the first moves.
    uint64_t legal[2]  # the codes legal now, a bit each
    int depth  # -1 at the first decision, else the place in the follow-ups
    int n_prefix
    int n_cand
    Py_ssize_t n_moves
    uint8_t prefix[MAXF]  # the codes chosen so far this turn
    Move moves[INLINE_MOVES]  # the moves of the chosen move code
    Move* extra  # its moves INLINE_MOVES and later
    Py_ssize_t extra_cap
    # The moves still possible (cand) and MAXF follow-up codes of each (fol,
    # NO_CODE past the end): in this block (cand_in, fol_in) for up to
    # INLINE_CANDIDATES moves, else in heap blocks of room fcap.
    uint16_t* cand
    uint8_t* fol
    uint16_t* heap_cand
    uint8_t* heap_fol
    Py_ssize_t fcap
    uint16_t cand_in[INLINE_CANDIDATES]
    uint8_t fol_in[INLINE_CANDIDATES * MAXF]


# The bytes of a Decider that a decision reads first (up to its first move).
cdef Py_ssize_t DECIDER_HEAD = 0


def _init_head():
    global DECIDER_HEAD
    cdef Decider probe
    DECIDER_HEAD = <char*>&probe.moves[1] - <char*>&probe


_init_head()


cdef inline Move* dec_move(Decider* d, Py_ssize_t i) noexcept nogil:
    return &d.moves[i] if i < INLINE_MOVES else &d.extra[i - INLINE_MOVES]


cdef void dec_init(Decider* d) noexcept nogil:
    """An empty Decider (its heap blocks come when needed)."""
    memset(d, 0, sizeof(Decider))


cdef void dec_free(Decider* d) noexcept nogil:
    free(d.extra)
    free(d.heap_cand)
    free(d.heap_fol)
    d.extra = NULL
    d.heap_cand = NULL
    d.heap_fol = NULL
    d.cand = NULL
    d.fol = NULL
    d.extra_cap = 0
    d.fcap = 0


cdef int dec_extra(Decider* d, Py_ssize_t n) noexcept nogil:
    """Room for ``n`` moves in all; 0, or -1 when memory ran out."""
    cdef Py_ssize_t cap = n - INLINE_MOVES
    cdef void* grown
    if cap <= d.extra_cap:
        return 0
    if n > 65535:
        return -1
    grown = realloc(d.extra, cap * sizeof(Move))
    if grown == NULL:
        return -1
    d.extra = <Move*>grown
    d.extra_cap = cap
    return 0


cdef int dec_room(Decider* d, Py_ssize_t needed) noexcept nogil:
    """Room for the follow-ups of ``needed`` candidates; 0, or -1."""
    cdef void* grown
    cdef Py_ssize_t cap = d.fcap if d.fcap else 32
    if needed <= INLINE_CANDIDATES:
        d.cand = d.cand_in
        d.fol = d.fol_in
        return 0
    if needed > d.fcap:
        while cap < needed:
            cap *= 2
        grown = realloc(d.heap_cand, cap * sizeof(uint16_t))
        if grown == NULL:
            return -1
        d.heap_cand = <uint16_t*>grown
        grown = realloc(d.heap_fol, cap * MAXF)
        if grown == NULL:
            return -1
        d.heap_fol = <uint8_t*>grown
        d.fcap = cap
    d.cand = d.heap_cand
    d.fol = d.heap_fol
    return 0


cdef int follow_ups(const KState* s, const Move* m, uint8_t* out) noexcept nogil:
    """Write every follow-up code of ``m`` (encoding._follow_ups) to ``out``
    (MAXF - 1 codes at most, NO_CODE after them); returns how many."""
    cdef int p = s.current
    cdef int c, k, price, held, instead, i, place
    cdef int n = 0
    memset(out, NO_CODE, MAXF)
    if m.kind == K_BUY:
        for c in range(5):
            price = <int>C_COST[m.card][c] - <int>s.bonus[p][c]
            held = s.tokens[p][c]
            instead = (price if price < held else held) - m.tok[c]
            for k in range(instead):
                if n < MAXF - 2:
                    out[n] = A_GOLD + c
                    n += 1
        out[n] = A_NO_MORE_GOLD
        n += 1
    elif m.kind != K_PASS:
        for c in range(6):
            for k in range(m.ret[c]):
                if n < MAXF - 2:
                    out[n] = A_RETURN + c
                    n += 1
    if m.noble:
        place = 0
        for i in range(s.n_nobles):
            if s.nobles[i] >> 4:
                continue
            if s.nobles[i] == m.noble:
                break
            place += 1
        out[n] = A_NOBLE + place
        n += 1
    return n


cdef int dec_start(const KState* s, Decider* d) noexcept nogil:
    """Start the decisions of the turn of ``s`` at its first one: the legal
    move codes.

    Returns 0; -2 when the player to move holds more reserved cards than the
    encoding tells apart (nothing is legal then).
    """
    d.n_prefix = 0
    d.depth = -1
    d.n_cand = 0
    d.n_moves = 0
    d.legal[0] = 0
    d.legal[1] = 0
    if s.winners:
        return 0
    if s.seg[3 + 2 * s.current] > A_RESERVED_SLOTS:
        return -2
    legal_first(s, d.legal)
    return 0


cdef Py_ssize_t dec_choose(KState* s, Decider* d, int code, MoveBuf* scratch) noexcept nogil:
    """Take the legal decision ``code``: the index of the move it completes
    (see dec_move), or -1 when more decisions follow (then ``d.legal`` holds
    them); -2 (and nothing changes) when ``code`` is not legal; -3 when
    memory ran out. The first decision lists the moves of its move code in
    ``scratch`` (a MoveBuf with room for one move or more)."""
    cdef int j, kept = 0, depth = d.depth
    cdef Py_ssize_t n
    cdef uint8_t first
    cdef bint same
    if not has_bit(d.legal, code):
        return -2
    if depth < 0:
        if gen_code(s, code, scratch) < 0:
            return -3
        n = scratch.n
        if n == 1:  # the common case: the move code is the whole turn
            d.moves[0] = scratch.data[0]
            d.n_moves = 1
            return 0
        if n == 0:  # not listed after all (cannot happen: legal_first agrees)
            return -2
        if dec_extra(d, n) < 0 or dec_room(d, n) < 0:
            return -3
        for j in range(n):
            dec_move(d, j)[0] = scratch.data[j]
            d.cand[j] = <uint16_t>j
            follow_ups(s, &scratch.data[j], &d.fol[j * MAXF])
        d.n_moves = n
        d.n_cand = <int>n
    else:
        for j in range(d.n_cand):
            if d.fol[j * MAXF + depth] == code:
                if kept != j:
                    d.cand[kept] = d.cand[j]
                    memcpy(&d.fol[kept * MAXF], &d.fol[j * MAXF], MAXF)
                kept += 1
        d.n_cand = kept
        if kept == 1:
            return d.cand[0]
    depth += 1
    # A decision with one option is implied, never asked.
    while depth < MAXF - 1:
        first = d.fol[depth]
        same = True
        for j in range(1, d.n_cand):
            if d.fol[j * MAXF + depth] != first:
                same = False
                break
        if not same:
            break
        depth += 1
    d.depth = depth
    d.legal[0] = 0
    d.legal[1] = 0
    for j in range(d.n_cand):
        set_bit(d.legal, d.fol[j * MAXF + depth])
    if d.n_prefix < MAXF:
        d.prefix[d.n_prefix] = code
        d.n_prefix += 1
    return -1


cdef tuple legal_tuple(const uint64_t* bits):
    return tuple([code for code in range(A_COUNT) if (bits[code >> 6] >> (code & 63)) & 1])


# The 8 mask bytes of each byte of a bitset (the byte order of the machine).
cdef uint8_t SPREAD[256][8]


def _init_spread():
    cdef int byte, k
    for byte in range(256):
        for k in range(8):
            SPREAD[byte][k] = (byte >> k) & 1


_init_spread()


cdef inline void write_mask(const uint64_t* bits, int8_t* out) noexcept nogil:
    cdef int k
    cdef uint64_t word = bits[0]
    for k in range(8):
        memcpy(&out[8 * k], SPREAD[(word >> (8 * k)) & 255], 8)
    word = bits[1]
    memcpy(&out[64], SPREAD[word & 255], 8)
    memcpy(&out[72], SPREAD[(word >> 8) & 255], 8)
    for k in range(80, A_COUNT):
        out[k] = (word >> (k - 64)) & 1


# -- Observations (splendor.rl.observation) in C -----------------------------------------


cdef int write_observation(
    const KState* s, int seat, const uint8_t* prefix, int n_prefix,
    float* out, Py_ssize_t size, int slots, int shown,
) noexcept nogil:
    """Write ``observation(view(state, seat), prefix)`` to ``out`` (``size``
    floats: the layout of splendor.rl.observation_layout with ``slots``
    reserve slots and ``shown`` noble slots).

    Returns 0; -1 when the layout has not the size of the game's; -2 when a
    player holds more reserved cards than ``slots``; -3 when more nobles are
    revealed than ``shown``.
    """
    cdef int n = s.n_players
    cdef int i, k, c, index, pos, start, count, held, tier, card, v
    cdef int decision = 11 + 15 * n + 12 * 16 + n * slots * 16 + shown * 7
    cdef int tiers[4]
    cdef int received[5]
    cdef int starts[4]
    cdef float* row
    cdef int current = -1 if s.winners else s.current
    if size != decision + 1 + 2 * A_COUNT or not 0 <= seat < n:
        return -1
    # Every entry is written once (no clearing first: the rows are long).
    for c in range(6):
        out[c] = s.bank[c]
    for k in range(3):
        out[6 + k] = s.seg[k]
    out[9] = <float>s.passes
    out[10] = 1.0 if s.winners else 0.0
    # The nobles each seat received (by holder, 0 for the revealed ones) and
    # where each seat's reserved cards start, in one pass each.
    for k in range(5):
        received[k] = 0
    for k in range(s.n_nobles):
        received[s.nobles[k] >> 4] += 1
    start = s.seg[0] + s.seg[1] + s.seg[2]
    for i in range(n):
        starts[i] = start
        start += s.seg[3 + 2 * i] + s.seg[4 + 2 * i]
    index = seat
    for i in range(n):
        row = &out[11 + 15 * i]
        for c in range(6):
            row[c] = s.tokens[index][c]
        for c in range(5):
            row[6 + c] = s.bonus[index][c]
        row[11] = s.points[index]
        row[12] = s.seg[4 + 2 * index]
        row[13] = received[index + 1]
        row[14] = 1.0 if index == current else 0.0
        index = index + 1 if index + 1 < n else 0
    pos = 11 + 15 * n
    for k in range(12):
        memcpy(&out[pos], CARD_ROW[s.board[k]], 16 * sizeof(float))
        pos += 16
    index = seat
    for i in range(n):
        start = starts[index]
        held = s.seg[3 + 2 * index]
        if held > slots:
            return -2
        row = &out[pos]
        if index == seat:
            for k in range(held):
                memcpy(&row[16 * k], CARD_ROW[s.cards[start + k] & 0x7F], 16 * sizeof(float))
        else:
            # Face-up reserves in the order reserved, then blind ones by tier.
            count = 0
            tiers[1] = tiers[2] = tiers[3] = 0
            for k in range(held):
                card = s.cards[start + k]
                if card & BLIND_FLAG:
                    tiers[C_TIER[card & 0x7F]] += 1
                else:
                    memcpy(&row[16 * count], CARD_ROW[card], 16 * sizeof(float))
                    count += 1
            for tier in range(1, 4):
                for k in range(tiers[tier]):
                    memcpy(&row[16 * count], CARD_ROW[90 + tier], 16 * sizeof(float))
                    count += 1
        memset(&row[16 * held], 0, (slots - held) * 16 * sizeof(float))
        pos += slots * 16
        index = index + 1 if index + 1 < n else 0
    count = 0
    for k in range(s.n_nobles):
        if s.nobles[k] >> 4 == 0:
            if count == shown:
                return -3
            memcpy(&out[pos + 7 * count], NOBLE_ROW[s.nobles[k] & 15], 7 * sizeof(float))
            count += 1
    memset(&out[pos + 7 * count], 0, (shown - count) * 7 * sizeof(float))
    # The decision's 1 + 2 * A_COUNT entries, by the run-time size: a size
    # known when compiling is inlined as a string instruction, slow to start.
    memset(&out[decision], 0, (size - decision) * sizeof(float))
    if n_prefix:
        out[decision] = n_prefix
        v = prefix[0]
        if v < A_COUNT:
            out[decision + 1 + v] = 1.0
        for k in range(1, n_prefix):
            v = prefix[k]
            if v < A_COUNT:
                out[decision + 1 + A_COUNT + v] += 1.0
    return 0


cdef Py_ssize_t _observation_size(int players, Py_ssize_t slots, Py_ssize_t shown):
    return 11 + 15 * players + 12 * 16 + players * slots * 16 + shown * 7 + 1 + 2 * A_COUNT


_BUFFER_ERRORS = (TypeError, ValueError, BufferError)


cdef object _given(out):
    """``out``, to be read as a typed memoryview (which would take None)."""
    if out is None:
        raise TypeError("got None")
    return out


cdef object _not_a_row(str dtype, error):
    return InvalidArgumentError(f"out must be a writable, contiguous {dtype} vector: {error}")


cdef observation_error(int failed):
    if failed == -1:
        raise InvalidArgumentError("the observation buffer does not have the game's layout")
    if failed == -2:
        raise InvalidArgumentError("a player holds more reserved cards than the rules allow")
    raise InvalidArgumentError("more nobles are revealed than the rules reveal")


cdef reserved_error(const KState* s):
    _encoding()
    raise _ENCODING.EncodingError(
        f"the encoding tells apart at most {A_RESERVED_SLOTS} reserved cards; "
        f"the player holds {s.seg[3 + 2 * s.current]}"
    )


# -- Deals of VectorEnv ----------------------------------------------------------------


cdef void shuffle(uint8_t* items, int n, uint64_t* x) noexcept nogil:
    """Fisher-Yates from the last place down, drawing with ``below``."""
    cdef int i, j
    cdef uint8_t held
    for i in range(n - 1, 0, -1):
        j = <int>below(x, i + 1)
        held = items[i]
        items[i] = items[j]
        items[j] = held


cdef void deal(KState* s, const KState* start, int shown, uint64_t* x) noexcept nogil:
    """Deal ``s`` from ``start`` (an empty table: supply, rules, seats) with
    the generator ``x``: each tier shuffled, its first 4 cards face up, the
    rest its deck, top first; then the nobles shuffled, the first ``shown``
    revealed (splendor.fast.reference.deal_with does the same in Python)."""
    cdef uint8_t cards[40]
    cdef int tier, k, n, pos = 0
    memcpy(s, start, sizeof(KState))
    for tier in range(3):
        n = TIER_N[tier]
        memcpy(cards, TIER_IDS[tier], n)
        shuffle(cards, n, x)
        for k in range(4):
            s.board[tier * 4 + k] = cards[k] if k < n else 0
        for k in range(4, n):
            s.cards[pos] = cards[k]
            pos += 1
        s.seg[tier] = n - 4 if n > 4 else 0
    memcpy(cards, NOBLE_IDS, NOBLE_N)
    shuffle(cards, NOBLE_N, x)
    if shown > NOBLE_N:
        shown = NOBLE_N
    memcpy(s.nobles, cards, shown)
    s.n_nobles = shown


# -- GreedyBot's choice (splendor.players.bots.GreedyBot) ----------------------------------------
#
# Mirrors GreedyBot.__call__ and its helpers line for line: the same values
# computed with the same double operations in the same order (so the same
# floats, compared for equality the same way), the same candidates in the
# order of the listing, and the same calls on the bot's random.Random, made
# through the generator's own methods so that its stream stays that of the
# bot. tests/fast/test_bot_game.py compares the two move for move.

cdef enum:
    # The most cards GreedyBot weighs: the face-up cards, then the seat's reserved ones.
    MAX_SEEN = 12 + MAXCARDS


cdef inline int g_missing(const int* need, const int* held) noexcept nogil:
    """bots._missing: the tokens still missing to pay ``need``, gold standing in."""
    cdef int c, short = 0
    for c in range(5):
        if need[c] > held[c]:
            short += need[c] - held[c]
    return short - held[5] if short > held[5] else 0


ctypedef struct Seen:
    # What GreedyBot reads from its view: the seat's bonuses and tokens, the
    # pull of the revealed nobles, and the cards it weighs with their needs.
    int bonus[5]
    int held[6]
    double pull[5]
    int n  # cards weighed
    int n_board  # of which face up (the first n_board)
    uint8_t card[MAX_SEEN]
    int need[MAX_SEEN][5]


cdef void g_seen(const KState* s, Seen* v) noexcept nogil:
    cdef int p = s.current
    cdef int c, i, k, noble, missing, start
    cdef uint8_t card
    cdef double share
    for c in range(5):
        v.bonus[c] = s.bonus[p][c]
        v.pull[c] = 0.0
    for c in range(6):
        v.held[c] = s.tokens[p][c]
    # bots._noble_pull over the revealed nobles.
    for i in range(s.n_nobles):
        if s.nobles[i] >> 4:
            continue
        noble = s.nobles[i] & 15
        missing = 0
        for c in range(5):
            if N_REQ[noble][c] > v.bonus[c]:
                missing += N_REQ[noble][c] - v.bonus[c]
        for c in range(5):
            if N_REQ[noble][c] > v.bonus[c]:
                share = 1.0 / <double>missing
                if share > v.pull[c]:
                    v.pull[c] = share
    k = 0
    for i in range(12):
        if s.board[i]:
            v.card[k] = s.board[i]
            k += 1
    v.n_board = k
    start = seg_start(s, 3 + 2 * p)
    for i in range(s.seg[3 + 2 * p]):
        v.card[k] = s.cards[start + i] & 0x7F
        k += 1
    v.n = k
    for i in range(k):
        card = v.card[i]
        for c in range(5):
            v.need[i][c] = C_COST[card][c] - v.bonus[c] if C_COST[card][c] > v.bonus[c] else 0


cdef inline double g_buy_value(const Move* m, const Seen* v, const int* demand) noexcept nogil:
    """bots._buy_value."""
    cdef int colour = C_BONUS[m.card]
    cdef int points = C_POINTS[m.card] + (N_POINTS[m.noble] if m.noble else 0)
    cdef int gold = m.tok[5]
    cdef int paid = m.tok[0] + m.tok[1] + m.tok[2] + m.tok[3] + m.tok[4] + m.tok[5]
    return (
        10.0 * points + 3.0 * v.pull[colour] + 0.5 * demand[colour] - 2.0 * gold - 0.1 * paid
    )


cdef inline void g_after(const int* held, const Move* m, int* after) noexcept nogil:
    """bots._after."""
    cdef int c
    for c in range(6):
        after[c] = held[c] + m.tok[c] - m.ret[c]


cdef inline double g_take_value(const Move* m, const Seen* v, int target) noexcept nogil:
    """The value GreedyBot gives a take: nearer the target, then the other cards."""
    cdef int after[6]
    cdef int i, rest = 0
    g_after(v.held, m, after)
    for i in range(v.n):
        rest += g_missing(v.need[i], after)
    return -10.0 * g_missing(v.need[target], after) - 0.1 * rest


cdef inline double g_value(const Move* m, const Seen* v, const int* demand, int target) noexcept nogil:
    """The value of a buy (bots._buy_value) or of a take (GreedyBot's value())."""
    if m.kind == K_BUY:
        return g_buy_value(m, v, demand)
    return g_take_value(m, v, target)


cdef Py_ssize_t g_best(
    const Move* moves, Py_ssize_t n, int kind, const Seen* v, const int* demand,
    int target, object rng,
) except -1:
    """bots._best over the moves of ``kind`` (K_BUY or K_TAKE): the first of
    the highest value, or one of them drawn with ``rng.randrange``. -2 when
    there are no such moves."""
    cdef Py_ssize_t i, ties = 0, first = -2, pick
    cdef double value, top = 0.0
    for i in range(n):
        if moves[i].kind != kind:
            continue
        value = g_value(&moves[i], v, demand, target)
        if first == -2 or value > top:
            top = value
            first = i
            ties = 1
        elif value == top:
            ties += 1
    if ties <= 1:
        return first
    pick = drawn(rng.randrange(ties), ties)
    for i in range(first, n):
        if moves[i].kind != kind:
            continue
        value = g_value(&moves[i], v, demand, target)
        if value == top:
            if pick == 0:
                return i
            pick -= 1
    return first  # not reached: the same values are computed again


cdef Py_ssize_t drawn(object value, Py_ssize_t below) except -1:
    """A bot's draw ``value`` from ``randrange(below)``, refused unless an int in range.

    A generator that returns anything else (a subclass of random.Random that
    misbehaves) gets the library's error, not a wrong move or a crash.
    """
    try:
        number = operator.index(value)
    except TypeError:
        number = None
    if number is None or not 0 <= number < below:
        raise InvalidArgumentError(
            f"the bot's generator drew {value!r} from randrange({below}), not an int below it"
        )
    return number


cdef Py_ssize_t greedy_pick(const KState* s, const Move* moves, Py_ssize_t n, object rng) except -1:
    """The index of the move GreedyBot plays among the ``n`` moves gen listed for ``s``.

    The choice calls back into Python (the bot's draws on ``rng``), which may
    change the game the pointers point into: it works on copies of the state
    and of the moves.
    """
    cdef KState copy = s[0]
    cdef Move* own
    if n == 1:
        return 0
    own = <Move*>malloc(n * sizeof(Move))
    if own == NULL:
        raise MemoryError()
    memcpy(own, moves, n * sizeof(Move))
    try:
        return greedy_pick_in(&copy, own, n, rng)
    finally:
        free(own)


cdef Py_ssize_t greedy_pick_in(
    const KState* s, const Move* moves, Py_ssize_t n, object rng
) except -1:
    """greedy_pick on moves and a state that no call into Python can change."""
    cdef Seen v
    cdef int demand[5]
    cdef int i, c, target
    cdef int after[6]
    cdef double ranks[MAX_SEEN]
    cdef double lowest = 0.0
    cdef Py_ssize_t j, take, reserve, reserves
    if n == 1:
        return 0
    g_seen(s, &v)
    for c in range(5):
        demand[c] = 0
    if moves[n - 1].kind == K_BUY:  # the buys come last in the listing
        for i in range(v.n):
            for c in range(5):
                if v.need[i][c]:
                    demand[c] += 1
        return g_best(moves, n, K_BUY, &v, demand, 0, rng)
    if v.n == 0:
        return 0  # no card left to aim at: GreedyBot plays the first legal action
    # The target: the least missing tokens, a little less for points and nobles.
    for i in range(v.n):
        ranks[i] = (
            g_missing(v.need[i], v.held) - 0.5 * C_POINTS[v.card[i]] - v.pull[C_BONUS[v.card[i]]]
        )
        if i == 0 or ranks[i] < lowest:
            lowest = ranks[i]
    tied = [i for i in range(v.n) if ranks[i] == lowest]
    chosen = rng.choice(tied)
    if chosen not in tied:
        # Only a generator whose choice() returns none of the candidates gets here.
        raise InvalidArgumentError(
            f"the bot's generator chose {chosen!r}, not one of the candidates {tied!r}"
        )
    target = tied[tied.index(chosen)]
    take = g_best(moves, n, K_TAKE, &v, demand, target, rng)
    if take >= 0:
        g_after(v.held, &moves[take], after)
        if g_missing(v.need[target], after) < g_missing(v.need[target], v.held):
            return take
    # bots._reserve_of: the reservation of a face-up target giving back least gold.
    if target < v.n_board:
        reserve = -1
        for j in range(n):
            if moves[j].kind == K_RESERVE and moves[j].card == v.card[target]:
                if reserve < 0 or moves[j].ret[5] < moves[reserve].ret[5]:
                    reserve = j
        if reserve >= 0:
            return reserve
    if take >= 0:
        return take
    reserves = 0
    for j in range(n):
        if moves[j].kind == K_RESERVE or moves[j].kind == K_BLIND:
            reserves += 1
    if reserves:
        reserve = drawn(rng.randrange(reserves), reserves)
        for j in range(n):
            if moves[j].kind == K_RESERVE or moves[j].kind == K_BLIND:
                if reserve == 0:
                    return j
                reserve -= 1
    return 0


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

    # -- The built-in bots, inside the kernel -------------------------------------

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

    # -- Decision codes of splendor.formats.encoding, one at a time ------------------------

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
                raise _encoding().EncodingError(
                    f"codes[{position}] is not an int code: {code!r}", position=position
                )
            try:
                code = operator.index(code)
            except TypeError as error:  # an __index__ that returns no int
                raise _encoding().EncodingError(
                    f"codes[{position}] is not an int code: {error}", position=position
                ) from error
        self._decide()
        if not 0 <= code < A_COUNT:
            raise _encoding().EncodingError(
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
            raise _encoding().EncodingError(
                f"code {code} ({_encoding().describe_code(code)}) at position {position} is "
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
        if row.shape[0] != _observation_size(n, slots, shown):
            raise InvalidArgumentError(
                f"out must have {_observation_size(n, slots, shown)} entries (the observation "
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


# -- Many games stepped together (splendor.fast.VectorEnv) -----------------------------

cdef extern from *:
    """
    #if defined(__GNUC__) || defined(__clang__)
    #define SPLENDOR_PREFETCH(p) __builtin_prefetch(p)
    #else
    #define SPLENDOR_PREFETCH(p) ((void)0)
    #endif
    """
    # A hint to load memory into the cache ahead of its use (nothing else).
    void SPLENDOR_PREFETCH(const void* p) noexcept nogil


cdef inline void prefetch_bytes(const void* p, Py_ssize_t size) noexcept nogil:
    cdef Py_ssize_t k = 0
    while k < size:
        SPLENDOR_PREFETCH(<const char*>p + k)
        k += 64




cdef class VectorCore:
    """The games of a :class:`splendor.fast.VectorEnv`, stepped in C.

    Each game has its state, the decisions of its turn and its own
    SplitMix64 generator of deals (seeded with the i-th output of
    SplitMix64(seed)). Made and driven by :mod:`splendor.fast.vector`, which
    checks the arguments and allocates the arrays.
    """

    cdef int n_envs
    cdef int n_ready  # deciders allocated
    cdef int slots
    cdef int shown
    cdef Py_ssize_t size
    cdef int64_t max_turns
    cdef bint dealt
    cdef KState start
    cdef KState* states
    cdef Decider* decs
    cdef uint64_t* rngs
    cdef MoveBuf scratch  # where the moves of a turn are generated
    cdef uint8_t* started  # per game: its last decision started a turn
    cdef object rules

    def __cinit__(self):
        self.states = NULL
        self.decs = NULL
        self.rngs = NULL
        self.scratch.data = NULL
        self.started = NULL
        self.n_ready = 0
        self.dealt = False

    def __dealloc__(self):
        cdef int i
        if self.decs != NULL:
            for i in range(self.n_ready):
                dec_free(&self.decs[i])
        free(self.decs)
        free(self.states)
        free(self.rngs)
        free(self.scratch.data)
        free(self.started)

    def __init__(self, int num_envs, int players, seed, rules, max_turns, int slots, int shown,
                 Py_ssize_t size):
        cdef int i
        cdef uint64_t x = _seed(seed)
        if num_envs < 1 or slots < 0 or shown < 0 or size < 1:
            raise InvalidArgumentError("a VectorCore needs at least one game and a layout")
        if self.states != NULL:
            raise InvalidArgumentError("a VectorCore is made once")
        table = new_game(players, seed=0, rules=rules)
        load(&self.start, table)
        self.start.seg[0] = self.start.seg[1] = self.start.seg[2] = 0
        memset(self.start.cards, 0, MAXCARDS)
        memset(self.start.board, 0, 12)
        memset(self.start.nobles, 0, MAXNOBLES)
        self.start.n_nobles = 0
        self.rules = table.rules
        self.n_envs = num_envs
        self.slots = slots
        self.shown = shown
        self.size = size
        self.max_turns = MOST_TURNS if max_turns is None else min(max_turns, MOST_TURNS)
        self.states = <KState*>malloc(num_envs * sizeof(KState))
        self.decs = <Decider*>malloc(num_envs * sizeof(Decider))
        self.rngs = <uint64_t*>malloc(num_envs * sizeof(uint64_t))
        self.scratch.data = <Move*>malloc(256 * sizeof(Move))
        self.started = <uint8_t*>malloc(num_envs)
        if (
            self.states == NULL or self.decs == NULL or self.rngs == NULL
            or self.scratch.data == NULL or self.started == NULL
        ):
            raise MemoryError()
        self.scratch.cap = 256
        self.scratch.n = 0
        for i in range(num_envs):
            dec_init(&self.decs[i])
            self.n_ready += 1
            self.rngs[i] = splitmix64(&x)

    cdef int _check(self, obs, masks, seats) except -1:
        if (
            obs.shape[0] != self.n_envs or obs.shape[1] != self.size
            or masks.shape[0] != self.n_envs or masks.shape[1] != A_COUNT
            or seats.shape[0] != self.n_envs
        ):
            raise InvalidArgumentError("the arrays do not have the shapes of the batch")
        return 0

    cdef int _observe(self, int i, bint start, float* obs, int8_t* mask,
                      int64_t* seat) noexcept nogil:
        """Start the turn of game ``i`` if asked, then write its decision.

        Returns 0, or what failed: -2 the reserved cards (see dec_start),
        -11 to -13 the observation (see write_observation)."""
        cdef KState* s = &self.states[i]
        cdef Decider* d = &self.decs[i]
        cdef int failed
        if start:
            failed = dec_start(s, d)
            if failed:
                return failed
        seat[0] = s.current
        write_mask(d.legal, mask)
        failed = write_observation(
            s, s.current, d.prefix, d.n_prefix, obs, self.size, self.slots, self.shown
        )
        return failed - 10 if failed else 0

    cdef _failed(self, int failed, int i):
        """Raise the error of what ``_observe`` returned (-1: a decision ran
        out of memory)."""
        if failed == -1:
            raise MemoryError()
        if failed == -2:
            reserved_error(&self.states[i])
        observation_error(failed + 10)

    def reset(self, float[:, ::1] obs not None, int8_t[:, ::1] masks not None,
              int64_t[::1] seats not None):
        """Deal every game anew and write its first decision."""
        cdef int i, failed = 0
        self._check(obs, masks, seats)
        with nogil:
            for i in range(self.n_envs):
                deal(&self.states[i], &self.start, self.shown, &self.rngs[i])
                failed = self._observe(i, True, &obs[i, 0], &masks[i, 0], &seats[i])
                if failed:
                    break
        if failed:
            self._failed(failed, i)
        self.dealt = True

    def first_illegal(self, int64_t[::1] codes not None):
        """The index of the first game whose code is not legal, or -1."""
        if codes.shape[0] != self.n_envs:
            raise InvalidArgumentError("the codes do not have the shape of the batch")
        return self._first_illegal(&codes[0])

    cdef Py_ssize_t _first_illegal(self, const int64_t* codes) noexcept nogil:
        cdef Py_ssize_t i
        for i in range(self.n_envs):
            if not has_bit(self.decs[i].legal, codes[i]):
                return i
        return -1

    def step(self, int64_t[::1] codes not None, float[:, ::1] obs not None,
             int8_t[:, ::1] masks not None, float[:, ::1] rewards not None,
             uint8_t[::1] dones not None, uint8_t[::1] truncated not None,
             int64_t[::1] seats not None):
        """Play one code in every game and write every entry of the arrays;
        -1. When a code is not legal, nothing is played: the index of its game."""
        cdef int i, seat, n = self.start.n_players, failed = 0
        cdef Py_ssize_t bad
        cdef Py_ssize_t chosen
        cdef KState* s
        cdef Decider* d
        self._check(obs, masks, seats)
        if (
            codes.shape[0] != self.n_envs or rewards.shape[0] != self.n_envs
            or rewards.shape[1] != n or dones.shape[0] != self.n_envs
            or truncated.shape[0] != self.n_envs
        ):
            raise InvalidArgumentError("the arrays do not have the shapes of the batch")
        if not self.dealt:
            raise InvalidArgumentError("call reset() before using the environment")
        bad = self._first_illegal(&codes[0])
        if bad >= 0:
            return bad
        with nogil:
            # First every game takes its decision (and plays its move), then
            # every game lists its next decision: two tight loops.
            for i in range(self.n_envs):
                # Ask ahead for the memory of the games coming next: the head
                # of the decisions (up to the first move), then the state.
                if i + 8 < self.n_envs:
                    prefetch_bytes(&self.decs[i + 8], DECIDER_HEAD)
                if i + 4 < self.n_envs:
                    prefetch_bytes(&self.states[i + 4], sizeof(KState))
                    d = &self.decs[i + 4]
                    if d.depth >= 0:  # a follow-up: the candidates' codes too
                        prefetch_bytes(d.fol, d.n_cand * MAXF)
                s = &self.states[i]
                d = &self.decs[i]
                chosen = dec_choose(s, d, <int>codes[i], &self.scratch)
                if chosen == -3:
                    failed = -1
                    break
                dones[i] = 0
                truncated[i] = 0
                self.started[i] = chosen >= 0
                for seat in range(n):
                    rewards[i, seat] = 0.0
                if chosen >= 0:
                    play(s, dec_move(d, chosen))
                    if s.winners:
                        dones[i] = 1
                        for seat in range(n):
                            rewards[i, seat] = 1.0 if s.winners >> seat & 1 else -1.0
                    elif s.turn >= self.max_turns:
                        dones[i] = 1
                        truncated[i] = 1
                    if dones[i]:
                        deal(s, &self.start, self.shown, &self.rngs[i])
            if not failed:
                for i in range(self.n_envs):
                    if i + 4 < self.n_envs and self.started[i + 4]:
                        prefetch_bytes(&self.states[i + 4], sizeof(KState))
                        prefetch_bytes(&self.decs[i + 4], DECIDER_HEAD)
                    failed = self._observe(
                        i, self.started[i], &obs[i, 0], &masks[i, 0], &seats[i]
                    )
                    if failed:
                        break
        if failed:
            self._failed(failed, i)
        return -1

    def legal_codes(self, int index):
        """The codes legal now in game ``index``."""
        if not 0 <= index < self.n_envs:
            raise InvalidArgumentError(f"env index {index} is out of range")
        return legal_tuple(self.decs[index].legal)

    def game(self, int index, cls):
        """A copy of game ``index`` as a ``cls`` (a Game of the kernel or of
        splendor.fast.reference), pending codes kept."""
        cdef Game game
        cdef Decider* d
        if not 0 <= index < self.n_envs:
            raise InvalidArgumentError(f"env index {index} is out of range")
        d = &self.decs[index]
        if not issubclass(cls, Game):
            # Another implementation of the interface (the pure one): by its state.
            other = cls.from_state(dump(&self.states[index], self.rules))
            for k in range(d.n_prefix):
                other.play_code(d.prefix[k])
            return other
        game = cls.__new__(cls)
        memcpy(&game.s, &self.states[index], sizeof(KState))
        game._rules = self.rules
        game._codes = tuple([d.prefix[k] for k in range(d.n_prefix)])
        return game
