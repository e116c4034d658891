# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
# cython: initializedcheck=False
"""The soak's compiled checker: whole games in the compiled kernel, every
invariant checked in C after every turn.

This is test infrastructure, not part of the installed package:
``python -m tools.build_soak_kernel`` (run by ``nox -s soak``) compiles it
next to this file. It plays games with the kernel's own move generation and
play (``splendor.fast._kernel``'s ``gen`` and ``play``) and checks each turn
against the rules with tables of its own, built from
:mod:`splendor.core.components`: nothing of the kernel's is trusted but the
layout of its state.

A violation is a bit of a mask (:data:`VIOLATIONS` names them in order); a
game stops at its first violating turn and reports the indices of the
moves played, so ``tools.soak.replay`` can play it again on the engine.
"""

from libc.stdint cimport int64_t, uint8_t, uint32_t, uint64_t
from libc.stdlib cimport free, malloc, realloc
from libc.string cimport memcmp, memcpy, memset

from splendor.fast._kernel cimport (
    BLIND_FLAG,
    K_BLIND,
    K_BUY,
    K_PASS,
    K_RESERVE,
    K_TAKE,
    MAXCARDS,
    MAXNOBLES,
    NSEG,
    KState,
    Move,
    MoveBuf,
    dump,
    gen,
    load,
    play,
)

from splendor.core.components import CARDS, NOBLES
from splendor.core.gems import GEMS

# -- What can go wrong, one bit each ------------------------------------------------------

#: The violations the checker tells apart, in the order of their bits.
VIOLATIONS = (
    "tokens of a colour do not add up to the setup total",
    "a token count is negative (or above the colour's total)",
    "a seat holds more tokens than the token limit",
    "a card is missing, duplicated or unknown",
    "a card is in a deck or row of another tier, or blind outside a reserve",
    "the card segments do not fit the players",
    "a face-up slot is empty while its deck has cards",
    "a dealt noble is missing or duplicated, or held by no seat",
    "a seat holds more reserved cards than the reserve limit",
    "a seat's points are not its cards' and nobles' points",
    "a seat's bonuses are not its cards' colours",
    "a seat other than the mover changed",
    "the turn counter did not move on by one",
    "the wrong seat is to move",
    "the game did not end exactly when the rules say",
    "the winners are not those of the tie-break",
    "the count of passes is wrong",
    "the move played is not listed exactly once",
    "the move breaks a rule of its kind",
    "the state changed otherwise than the move says",
    "no legal move in a game that is not over, or moves after its end",
    "a noble that qualifies was not received, or one received does not qualify",
)

cdef enum:
    V_TOTAL = 1 << 0
    V_NEGATIVE = 1 << 1
    V_TOKEN_LIMIT = 1 << 2
    V_CARDS = 1 << 3
    V_CARD_PLACE = 1 << 4
    V_SEGMENTS = 1 << 5
    V_BOARD = 1 << 6
    V_NOBLES = 1 << 7
    V_RESERVE_LIMIT = 1 << 8
    V_POINTS = 1 << 9
    V_BONUS = 1 << 10
    V_OTHER_SEAT = 1 << 11
    V_TURN = 1 << 12
    V_SEAT = 1 << 13
    V_END = 1 << 14
    V_WINNERS = 1 << 15
    V_PASSES = 1 << 16
    V_NOT_LISTED = 1 << 17
    V_ILLEGAL = 1 << 18
    V_EFFECT = 1 << 19
    V_NO_MOVES = 1 << 20
    V_NOBLE_DUE = 1 << 21


def describe(mask):
    """The names of the violations set in ``mask``."""
    return [name for bit, name in enumerate(VIOLATIONS) if mask >> bit & 1]


# -- The game's facts, from splendor.core.components (not from the kernel) ----------------

cdef uint8_t TIER[91]
cdef uint8_t BONUS[91]
cdef uint8_t POINTS[91]
cdef uint8_t COST[91][5]
cdef uint8_t NOBLE_POINTS[16]
cdef uint8_t NOBLE_REQ[16][5]


def _init_tables():
    colour = {gem: c for c, gem in enumerate(GEMS)}
    for card in CARDS:
        TIER[card.id] = card.tier
        BONUS[card.id] = colour[card.bonus]
        POINTS[card.id] = card.points
        for c in range(5):
            COST[card.id][c] = card.cost.counts[c]
    for noble in NOBLES:
        NOBLE_POINTS[noble.id] = noble.points
        for c in range(5):
            NOBLE_REQ[noble.id][c] = noble.requirement.counts[c]


_init_tables()


ctypedef struct Setup:
    int n
    int64_t total[6]  # tokens of each colour at the setup (gold last)
    int64_t token_limit
    int64_t reserve_limit
    int64_t points_to_win
    uint8_t nobles[MAXNOBLES]  # the ids of the nobles dealt
    int n_nobles


cdef int fill_setup(Setup* g, state) except -1:
    rules = state.rules
    n = len(state.players)
    memset(g, 0, sizeof(Setup))
    g.n = n
    for c in range(5):
        g.total[c] = rules.gems(n)
    g.total[5] = rules.gold(n)
    g.token_limit = rules.token_limit
    g.reserve_limit = rules.reserve_limit
    g.points_to_win = rules.points_to_win
    dealt = [noble.id for noble in state.nobles]
    for player in state.players:
        dealt += [noble.id for noble in player.nobles]
    for i, noble in enumerate(dealt):
        g.nobles[i] = noble
    g.n_nobles = len(dealt)
    return 0


# -- Reading the state ------------------------------------------------------------------

cdef inline int seg_start(const KState* s, int k) noexcept nogil:
    cdef int i, total = 0
    for i in range(k):
        total += s.seg[i]
    return total


cdef inline int held(const KState* s, int p) noexcept nogil:
    cdef int c, total = 0
    for c in range(6):
        total += s.tokens[p][c]
    return total


cdef inline bint same_seg(const KState* a, const KState* b, int k) noexcept nogil:
    """Segment ``k`` holds the same cards in ``a`` and ``b``."""
    return a.seg[k] == b.seg[k] and memcmp(
        &a.cards[seg_start(a, k)], &b.cards[seg_start(b, k)], a.seg[k]
    ) == 0


cdef inline bint grew_by(const KState* a, const KState* b, int k, uint8_t value) noexcept nogil:
    """Segment ``k`` of ``b`` is that of ``a`` with ``value`` added at the end."""
    cdef int n = a.seg[k]
    cdef int sb = seg_start(b, k)
    return (
        b.seg[k] == n + 1
        and memcmp(&a.cards[seg_start(a, k)], &b.cards[sb], n) == 0
        and b.cards[sb + n] == value
    )


cdef inline bint lost_at(const KState* a, const KState* b, int k, int i) noexcept nogil:
    """Segment ``k`` of ``b`` is that of ``a`` without its ``i``-th card."""
    cdef int n = a.seg[k]
    cdef int sa = seg_start(a, k)
    cdef int sb = seg_start(b, k)
    return (
        i < n
        and b.seg[k] == n - 1
        and memcmp(&a.cards[sa], &b.cards[sb], i) == 0
        and memcmp(&a.cards[sa + i + 1], &b.cards[sb + i], n - i - 1) == 0
    )


cdef int nobles_of(const KState* s, int holder, uint8_t* out) noexcept nogil:
    """The nobles of ``holder`` (0 for the revealed ones, seat + 1), in order."""
    cdef int i, n = 0
    for i in range(s.n_nobles):
        if s.nobles[i] >> 4 == holder:
            out[n] = s.nobles[i] & 15
            n += 1
    return n


cdef inline bint qualifies(const KState* s, int p, int noble) noexcept nogil:
    cdef int c
    for c in range(5):
        if s.bonus[p][c] < NOBLE_REQ[noble][c]:
            return False
    return True


cdef int tie_break(const KState* s) noexcept nogil:
    """The winners by the rules: most points, then fewest purchased cards."""
    cdef int i, best_points = -1, best_cards = 1000, mask = 0
    for i in range(s.n_players):
        if s.points[i] > best_points or (
            s.points[i] == best_points and s.seg[4 + 2 * i] < best_cards
        ):
            best_points = s.points[i]
            best_cards = s.seg[4 + 2 * i]
    for i in range(s.n_players):
        if s.points[i] == best_points and s.seg[4 + 2 * i] == best_cards:
            mask |= 1 << i
    return mask


# -- The checks -------------------------------------------------------------------------


cdef uint32_t check_state(const KState* s, const Setup* g) noexcept nogil:
    """The invariants every state between turns keeps."""
    cdef uint32_t bad = 0
    cdef int n = g.n
    cdef int p, c, k, i, pos, value, card, holder, total
    cdef int64_t sum
    cdef int seen[91]
    cdef int points, noble
    cdef int bonus[5]
    if s.n_players != n or s.current >= n:
        return V_SEGMENTS
    # Tokens.
    for c in range(6):
        sum = s.bank[c]
        if s.bank[c] > g.total[c]:
            bad |= V_NEGATIVE
        for p in range(n):
            sum += s.tokens[p][c]
            if s.tokens[p][c] > g.total[c]:
                bad |= V_NEGATIVE
        for p in range(n, 4):
            if s.tokens[p][c]:
                bad |= V_SEGMENTS
        if sum != g.total[c]:
            bad |= V_TOTAL
    for p in range(n):
        if held(s, p) > g.token_limit:
            bad |= V_TOKEN_LIMIT
    # Cards: each of the 90 in exactly one place, decks and rows of their tier.
    total = seg_start(s, NSEG)
    if total > MAXCARDS:
        return bad | V_SEGMENTS
    for k in range(3 + 2 * n, NSEG):
        if s.seg[k]:
            bad |= V_SEGMENTS
    memset(seen, 0, sizeof(seen))
    pos = 0
    for k in range(NSEG):
        for i in range(s.seg[k]):
            value = s.cards[pos]
            pos += 1
            card = value & 0x7F
            if card < 1 or card > 90:
                bad |= V_CARDS
                continue
            seen[card] += 1
            if value & BLIND_FLAG and (k < 3 or (k - 3) % 2 == 1):
                bad |= V_CARD_PLACE
            if k < 3 and TIER[card] != k + 1:
                bad |= V_CARD_PLACE
    for i in range(12):
        card = s.board[i]
        if card == 0:
            if s.seg[i // 4]:
                bad |= V_BOARD
            continue
        if card > 90:
            bad |= V_CARDS
            continue
        seen[card] += 1
        if TIER[card] != i // 4 + 1:
            bad |= V_CARD_PLACE
    for card in range(1, 91):
        if seen[card] != 1:
            bad |= V_CARDS
    # Nobles: the dealt ones, each once, held by a seat that qualifies.
    if s.n_nobles != g.n_nobles:
        bad |= V_NOBLES
    for i in range(g.n_nobles):
        total = 0
        for k in range(s.n_nobles):
            if s.nobles[k] & 15 == g.nobles[i]:
                total += 1
        if total != 1:
            bad |= V_NOBLES
    for k in range(s.n_nobles):
        holder = s.nobles[k] >> 4
        if holder > n:
            bad |= V_NOBLES
        elif holder and not qualifies(s, holder - 1, s.nobles[k] & 15):
            bad |= V_NOBLES
    # Each seat: reserves, bonuses and points.
    for p in range(n):
        if s.seg[3 + 2 * p] > g.reserve_limit:
            bad |= V_RESERVE_LIMIT
        pos = seg_start(s, 4 + 2 * p)
        points = 0
        for c in range(5):
            bonus[c] = 0
        for i in range(s.seg[4 + 2 * p]):
            card = s.cards[pos + i] & 0x7F
            points += POINTS[card]
            bonus[BONUS[card]] += 1
        for k in range(s.n_nobles):
            if s.nobles[k] >> 4 == p + 1:
                points += NOBLE_POINTS[s.nobles[k] & 15]
        if points != s.points[p]:
            bad |= V_POINTS
        for c in range(5):
            if bonus[c] != s.bonus[p][c]:
                bad |= V_BONUS
    if s.winners >> n:
        bad |= V_WINNERS
    return bad


cdef inline int excess(int before, int gained, int64_t limit) noexcept nogil:
    """The tokens a player must give back: what passes the limit."""
    return before + gained - limit if before + gained > limit else 0


cdef uint32_t check_move(
    const KState* a, const Move* m, const KState* b, const Setup* g
) noexcept nogil:
    """The move ``m`` from ``a`` is legal by the rules and ``b`` is what it does."""
    cdef uint32_t bad = 0
    cdef int p = a.current
    cdef int c, i, k, colours, taken, returned, gain, need, short, card, tier, slot
    cdef int start = held(a, p)
    cdef uint8_t before_nobles[MAXNOBLES]
    cdef uint8_t after_nobles[MAXNOBLES]
    cdef int nb, na
    cdef bint board_same = memcmp(a.board, b.board, 12) == 0
    cdef bint decks_same = same_seg(a, b, 0) and same_seg(a, b, 1) and same_seg(a, b, 2)
    cdef bint reserved_same = same_seg(a, b, 3 + 2 * p)
    cdef bint bought_same = same_seg(a, b, 4 + 2 * p)
    # Tokens are given back only from those held after the gains of the turn.
    gain = 1 if (m.kind == K_RESERVE or m.kind == K_BLIND) and a.bank[5] else 0
    returned = 0
    for c in range(6):
        returned += m.ret[c]
        if m.ret[c] > a.tokens[p][c] + (m.tok[c] if m.kind == K_TAKE else 0) + (
            gain if c == 5 else 0
        ):
            bad |= V_ILLEGAL
    if m.kind == K_TAKE:
        taken = 0
        colours = 0
        for c in range(5):
            taken += m.tok[c]
            if a.bank[c]:
                colours += 1
        if m.tok[5]:
            bad |= V_ILLEGAL  # never gold
        if taken == 2 and colours and any_two(m):
            for c in range(5):
                if m.tok[c] == 2 and a.bank[c] < 4:
                    bad |= V_ILLEGAL
        else:
            for c in range(5):
                if m.tok[c] > 1 or m.tok[c] > a.bank[c]:
                    bad |= V_ILLEGAL
            if taken != (colours if colours < 3 else 3):
                bad |= V_ILLEGAL
        if returned != excess(start, taken, g.token_limit):
            bad |= V_ILLEGAL
        for c in range(6):
            if b.tokens[p][c] != a.tokens[p][c] + m.tok[c] - m.ret[c]:
                bad |= V_EFFECT
        if not (board_same and decks_same and reserved_same and bought_same):
            bad |= V_EFFECT
    elif m.kind == K_RESERVE or m.kind == K_BLIND:
        if a.seg[3 + 2 * p] >= g.reserve_limit:
            bad |= V_ILLEGAL
        if returned != excess(start, gain, g.token_limit):
            bad |= V_ILLEGAL
        for c in range(6):
            if b.tokens[p][c] != a.tokens[p][c] + (gain if c == 5 else 0) - m.ret[c]:
                bad |= V_EFFECT
        if not bought_same:
            bad |= V_EFFECT
        if m.kind == K_RESERVE:
            slot = m.src
            card = m.card
            if slot >= 12 or card == 0 or a.board[slot] != card:
                bad |= V_ILLEGAL
            else:
                tier = slot // 4
                if not grew_by(a, b, 3 + 2 * p, card) or not refilled(a, b, slot):
                    bad |= V_EFFECT
        else:
            tier = m.card - 1
            if tier < 0 or tier > 2 or a.seg[tier] == 0:
                bad |= V_ILLEGAL
            else:
                card = a.cards[seg_start(a, tier)]
                if not (
                    grew_by(a, b, 3 + 2 * p, card | BLIND_FLAG)
                    and lost_at(a, b, tier, 0)
                    and board_same
                ):
                    bad |= V_EFFECT
                for k in range(3):
                    if k != tier and not same_seg(a, b, k):
                        bad |= V_EFFECT
    elif m.kind == K_BUY:
        card = m.card
        if returned:
            bad |= V_ILLEGAL
        if m.src < 12:
            if a.board[m.src] != card or card == 0:
                bad |= V_ILLEGAL
            elif not (refilled(a, b, m.src) and reserved_same):
                bad |= V_EFFECT
        elif m.src - 12 >= a.seg[3 + 2 * p] or (
            a.cards[seg_start(a, 3 + 2 * p) + m.src - 12] & 0x7F != card
        ):
            bad |= V_ILLEGAL
        elif not (lost_at(a, b, 3 + 2 * p, m.src - 12) and board_same and decks_same):
            bad |= V_EFFECT
        if card < 1 or card > 90:
            return bad | V_ILLEGAL
        # The price: the cost less the bonuses, paid in tokens, gold for the rest.
        short = 0
        for c in range(5):
            need = COST[card][c] - a.bonus[p][c] if COST[card][c] > a.bonus[p][c] else 0
            if m.tok[c] > need or m.tok[c] > a.tokens[p][c]:
                bad |= V_ILLEGAL
            else:
                short += need - m.tok[c]
        if m.tok[5] != short or m.tok[5] > a.tokens[p][5]:
            bad |= V_ILLEGAL
        for c in range(6):
            if b.tokens[p][c] != a.tokens[p][c] - m.tok[c]:
                bad |= V_EFFECT
        if not grew_by(a, b, 4 + 2 * p, card):
            bad |= V_EFFECT
    elif m.kind == K_PASS:
        if returned:
            bad |= V_ILLEGAL
        if memcmp(a.tokens[p], b.tokens[p], 6) != 0:
            bad |= V_EFFECT
        if not (board_same and decks_same and reserved_same and bought_same):
            bad |= V_EFFECT
    else:
        bad |= V_ILLEGAL
    for c in range(6):
        if <int>b.bank[c] - <int>a.bank[c] != <int>a.tokens[p][c] - <int>b.tokens[p][c]:
            bad |= V_EFFECT
    # The noble: received if one qualifies at the end of the turn, one at most.
    nb = nobles_of(a, 0, before_nobles)
    na = nobles_of(b, 0, after_nobles)
    if m.noble:
        k = -1
        for i in range(nb):
            if before_nobles[i] == m.noble:
                k = i
        if k < 0 or not qualifies(b, p, m.noble):
            bad |= V_NOBLE_DUE
        elif na != nb - 1 or memcmp(before_nobles, after_nobles, k) != 0 or memcmp(
            &before_nobles[k + 1], &after_nobles[k], nb - k - 1
        ) != 0:
            bad |= V_EFFECT
        nb = nobles_of(a, p + 1, before_nobles)
        na = nobles_of(b, p + 1, after_nobles)
        if na != nb + 1 or memcmp(before_nobles, after_nobles, nb) != 0 or (
            after_nobles[nb] != m.noble
        ):
            bad |= V_EFFECT
    else:
        for i in range(na):
            if qualifies(b, p, after_nobles[i]):
                bad |= V_NOBLE_DUE
        if na != nb or memcmp(before_nobles, after_nobles, nb) != 0:
            bad |= V_EFFECT
        nb = nobles_of(a, p + 1, before_nobles)
        na = nobles_of(b, p + 1, after_nobles)
        if na != nb or memcmp(before_nobles, after_nobles, nb) != 0:
            bad |= V_EFFECT
    return bad


cdef inline bint any_two(const Move* m) noexcept nogil:
    cdef int c
    for c in range(5):
        if m.tok[c] == 2:
            return True
    return False


cdef bint refilled(const KState* a, const KState* b, int slot) noexcept nogil:
    """Slot ``slot`` of ``b`` holds the top of its deck in ``a`` (or nothing), the
    other slots and decks unchanged."""
    cdef int tier = slot // 4, i, k
    for i in range(12):
        if i != slot and a.board[i] != b.board[i]:
            return False
    for k in range(3):
        if k != tier and not same_seg(a, b, k):
            return False
    if a.seg[tier] == 0:
        return b.board[slot] == 0 and b.seg[tier] == 0
    return b.board[slot] == a.cards[seg_start(a, tier)] and lost_at(a, b, tier, 0)


cdef uint32_t check_turn(
    const KState* a, const MoveBuf* listed, const Move* m, const KState* b, const Setup* g
) noexcept nogil:
    """Every rule broken by the turn ``m`` (listed for ``a``) from ``a`` to ``b``."""
    cdef uint32_t bad = check_state(b, g)
    cdef int n = g.n
    cdef int p = a.current
    cdef int q, i, c, k, best = 0
    cdef Py_ssize_t copies = 0
    cdef bint over, should_end
    cdef uint8_t na[MAXNOBLES]
    cdef uint8_t nb[MAXNOBLES]
    if bad & V_SEGMENTS:
        return bad
    for i in range(listed.n):
        if memcmp(&listed.data[i], m, sizeof(Move)) == 0:
            copies += 1
    if copies != 1:
        bad |= V_NOT_LISTED
    if m.kind == K_PASS and listed.n != 1:
        bad |= V_ILLEGAL  # a pass only when nothing else is legal
    bad |= check_move(a, m, b, g)
    # Only the mover's holdings change.
    for q in range(n):
        if q == p:
            continue
        if (
            memcmp(a.tokens[q], b.tokens[q], 6) != 0
            or memcmp(a.bonus[q], b.bonus[q], 5) != 0
            or a.points[q] != b.points[q]
            or not same_seg(a, b, 3 + 2 * q)
            or not same_seg(a, b, 4 + 2 * q)
        ):
            bad |= V_OTHER_SEAT
        k = nobles_of(a, q + 1, na)
        if nobles_of(b, q + 1, nb) != k or memcmp(na, nb, k) != 0:
            bad |= V_OTHER_SEAT
    if b.turn != a.turn + 1:
        bad |= V_TURN
    if b.passes != (a.passes + 1 if m.kind == K_PASS else 0):
        bad |= V_PASSES
    # The end: after a whole round, when someone reached the target or all passed.
    for q in range(n):
        if b.points[q] > best:
            best = b.points[q]
    should_end = b.turn % n == 0 and (best >= g.points_to_win or b.passes >= n)
    over = b.winners != 0
    if over != should_end:
        bad |= V_END
    if over:
        if b.winners != tie_break(b):
            bad |= V_WINNERS
        if b.current != 0:
            bad |= V_SEAT
    elif b.current != (p + 1) % n:
        bad |= V_SEAT
    return bad


# -- Playing ----------------------------------------------------------------------------


cdef inline Py_ssize_t below(uint64_t* x, uint64_t n) noexcept nogil:
    """A uniform integer in [0, n) from the xorshift64* generator (Vigna, 2016) in
    ``x``; draws that would favour the low values are made again."""
    cdef uint64_t limit = 0xFFFFFFFFFFFFFFFFULL - 0xFFFFFFFFFFFFFFFFULL % n
    cdef uint64_t r
    while True:
        x[0] ^= x[0] >> 12
        x[0] ^= x[0] << 25
        x[0] ^= x[0] >> 27
        r = x[0] * 0x2545F4914F6CDD1DULL
        if r < limit:
            return <Py_ssize_t>(r % n)


cdef class Walker:
    """One game in the kernel, checked after every turn.

    ``Walker(state, seed)`` starts from a :class:`splendor.GameState` (the
    deal, or any state that passed ``check_state``); :meth:`pick` and
    :meth:`run` choose moves uniformly at random with a generator seeded
    with ``seed``, so a game is repeatable from its deal and its seed.
    """

    cdef KState s
    cdef KState before
    cdef MoveBuf buf
    cdef Setup g
    cdef object rules
    cdef int* chosen
    cdef Py_ssize_t n_chosen
    cdef Py_ssize_t cap_chosen
    cdef uint64_t rng
    #: The violations found so far (a mask; a game stops at its first).
    cdef readonly uint32_t violations

    def __cinit__(self):
        self.buf.data = <Move*>malloc(64 * sizeof(Move))
        self.chosen = <int*>malloc(256 * sizeof(int))
        if self.buf.data == NULL or self.chosen == NULL:
            raise MemoryError()
        self.buf.cap = 64
        self.buf.n = 0
        self.cap_chosen = 256
        self.n_chosen = 0

    def __dealloc__(self):
        free(self.buf.data)
        free(self.chosen)

    def __init__(self, state, seed=0):
        fill_setup(&self.g, state)
        load(&self.s, state)
        self.rules = state.rules
        # xorshift64* must not start at 0: mix the seed, and keep a bit set.
        self.rng = <uint64_t>((seed * 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF) | 1
        self.violations = check_state(&self.s, &self.g)
        self._list()

    cdef int _list(self) except -1:
        if gen(&self.s, &self.buf) < 0:
            raise MemoryError()
        if (self.buf.n == 0) != (self.s.winners != 0):
            self.violations |= V_NO_MOVES
        return 0

    cdef int _chose(self, int index) except -1:
        cdef int* grown
        if self.n_chosen == self.cap_chosen:
            grown = <int*>realloc(self.chosen, 2 * self.cap_chosen * sizeof(int))
            if grown == NULL:
                raise MemoryError()
            self.chosen = grown
            self.cap_chosen *= 2
        self.chosen[self.n_chosen] = index
        self.n_chosen += 1
        return 0

    @property
    def moves(self):
        """The number of legal moves now (0 once the game is over)."""
        return self.buf.n

    @property
    def is_over(self):
        """Whether the game has ended."""
        return self.s.winners != 0

    @property
    def turn(self):
        """The number of turns played since the deal."""
        return self.s.turn

    @property
    def picks(self):
        """The indices of the moves played, each into its turn's legal actions."""
        return [self.chosen[i] for i in range(self.n_chosen)]

    def state(self):
        """The game now, as a :class:`splendor.GameState`."""
        return dump(&self.s, self.rules)

    def pick(self):
        """A move index drawn from this game's generator."""
        if self.buf.n == 0:
            raise ValueError("the game is over")
        return below(&self.rng, <uint64_t>self.buf.n)

    def step(self, Py_ssize_t index, corruption=None):
        """Play move ``index`` and check the turn; the violations of the turn (a mask).

        ``corruption`` (for the tests of the checker) names a change made to
        the state after the move and before the check, one of
        :data:`CORRUPTIONS`.
        """
        if not 0 <= index < self.buf.n:
            raise IndexError(f"move {index} of {self.buf.n}")
        cdef Move m = self.buf.data[index]
        cdef uint32_t bad
        memcpy(&self.before, &self.s, sizeof(KState))
        play(&self.s, &m)
        if corruption is not None:
            _corrupt(&self.s, corruption)
        self._chose(index)
        # The listing of the state before is still in buf: check against it.
        bad = check_turn(&self.before, &self.buf, &m, &self.s, &self.g)
        self.violations |= bad
        self._list()
        return bad | (self.violations & V_NO_MOVES)

    def run(self, int64_t max_turns):
        """Play random moves until the end, a violation or turn ``max_turns``;
        the turns played."""
        cdef int64_t played = 0
        cdef Py_ssize_t index
        cdef Move m
        while self.violations == 0 and self.buf.n and self.s.turn < max_turns:
            index = below(&self.rng, <uint64_t>self.buf.n)
            m = self.buf.data[index]
            memcpy(&self.before, &self.s, sizeof(KState))
            play(&self.s, &m)
            self._chose(<int>index)
            self.violations = check_turn(&self.before, &self.buf, &m, &self.s, &self.g)
            played += 1
            self._list()
        return played


#: The changes ``Walker.step`` can make to test the checker, by name.
CORRUPTIONS = (
    "bank gem underflow",
    "gold from nowhere",
    "card duplicated",
    "blind card in a deck",
    "card of another tier in a row",
    "noble lost",
    "other seat scores",
    "turn stays",
    "winners too early",
    "points without a card",
    "empty slot over a full deck",
)


cdef int _corrupt(KState* s, name) except -1:
    cdef int p = (s.current + s.n_players - 1) % s.n_players  # the seat that moved
    cdef int pos
    if name == "bank gem underflow":
        s.bank[0] = 255  # what 0 - 1 is in a byte
    elif name == "gold from nowhere":
        s.tokens[p][5] += 1
    elif name == "card duplicated":
        pos = seg_start(s, 0)
        s.cards[pos] = s.board[0]
    elif name == "blind card in a deck":
        s.cards[seg_start(s, 0)] |= BLIND_FLAG
    elif name == "card of another tier in a row":
        pos = s.board[0]
        s.board[0] = s.board[8]
        s.board[8] = pos
    elif name == "noble lost":
        s.n_nobles -= 1
    elif name == "other seat scores":
        s.points[(p + 1) % s.n_players] += 1
    elif name == "turn stays":
        s.turn -= 1
    elif name == "winners too early":
        s.winners = 1
    elif name == "points without a card":
        s.points[p] += 1
    elif name == "empty slot over a full deck":
        s.board[4] = 0
    else:
        raise ValueError(f"no corruption named {name!r}")
    return 0


def check_turn_of(before, Py_ssize_t index, after):
    """The violations (a mask) of the turn from ``before`` to ``after`` said to
    play move ``index`` of ``before``'s legal actions (states that ``load``
    can hold)."""
    cdef Walker walker = Walker(before)
    cdef KState b
    if not 0 <= index < walker.buf.n:
        raise IndexError(f"move {index} of {walker.buf.n}")
    load(&b, after)
    return check_turn(&walker.s, &walker.buf, &walker.buf.data[index], &b, &walker.g)
