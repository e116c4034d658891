# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
# cython: initializedcheck=False, embedsignature=False
"""The compiled kernel behind :mod:`splendor.fast`.

A game is one flat C structure (:c:type:`KState`, 208 bytes) that holds
everything a :class:`splendor.GameState` holds; the moves are generated into
a preallocated buffer of small C structures (:c:type:`Move`, 16 bytes), in
exactly the order of :func:`splendor.legal_actions`, and played in place.
Nothing on the path of move generation and play touches a Python object.

This module mirrors ``splendor/legal.py`` and ``splendor/play.py`` line for
line where the order of the listing is decided; the differential tests
(``tests/test_fast_diff.py``, ``nox -s kernel-diff``) compare the two on
random games.
"""

from libc.stdint cimport int64_t, uint8_t, uint16_t, uint64_t
from libc.stdlib cimport free, malloc, realloc
from libc.string cimport memcpy, memmove, memset
from cpython.exc cimport PyErr_CheckSignals

import itertools
import operator

from splendor.actions import Buy, Pass, Reserve, ReserveFromDeck, Take
from splendor.components import CARDS, CARDS_BY_ID, NOBLES, NOBLES_BY_ID
from splendor.deal import new_game
from splendor.errors import IllegalActionError, InvalidArgumentError
from splendor.fast_pure import Playouts
from splendor.gems import Tokens
from splendor.state import GameState, PlayerState
from splendor.validation import check_state

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
    const uint8_t* now, int n_now,
) noexcept nogil:
    """The takes of gems of different colours (``legal._takes``)."""
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


cdef int gen(KState* s, MoveBuf* b) noexcept nogil:
    """List the legal moves of ``s`` into ``b`` (``legal.legal_actions``).

    Returns 0, or -1 when memory ran out.
    """
    b.n = 0
    if s.winners:
        return 0
    cdef int p = s.current
    cdef int c, i, j, n, tier, slot, nsub, card, start, nres
    cdef int t[6]
    cdef int bank[6]
    cdef int bonus[5]
    cdef int held = 0, bsum = 0
    for c in range(6):
        t[c] = s.tokens[p][c]
        bank[c] = s.bank[c]
        held += t[c]
    for c in range(5):
        bonus[c] = s.bonus[p][c]
        bsum += bonus[c]
    cdef int room = <int>s.token_limit - held
    cdef int gold = t[5]

    # The nobles that qualify now, and after buying a card of each colour.
    cdef uint8_t now[MAXNOBLES]
    cdef uint8_t after[5][MAXNOBLES]
    cdef int n_after[5]
    cdef int n_now = 0
    cdef int missing, colour, need, noble
    for c in range(5):
        n_after[c] = 0
    if bsum + 1 >= MIN_NOBLE_TOTAL:
        for i in range(s.n_nobles):
            if s.nobles[i] >> 4:
                continue
            noble = s.nobles[i] & 15
            missing = 0
            colour = 0
            for c in range(5):
                need = N_REQ[noble][c]
                if need > bonus[c]:
                    missing += need - bonus[c]
                    colour = c
            if missing == 0:
                now[n_now] = noble
                n_now += 1
                for c in range(5):
                    after[c][n_after[c]] = noble
                    n_after[c] += 1
            elif missing == 1:
                after[colour][n_after[colour]] = noble
                n_after[colour] += 1

    cdef Move m
    memset(&m, 0, sizeof(Move))

    # Takes.
    cdef int avail[5]
    cdef int na = 0
    cdef int subs[56 * 6]
    cdef int h[6]
    for c in range(5):
        if bank[c] > 0:
            avail[na] = c
            na += 1
    if na:
        if gen_takes(b, t, avail, na, room if room < 3 else 3, now, n_now) < 0:
            return -1
        for c in range(5):
            if bank[c] > 3:
                memset(&m, 0, sizeof(Move))
                m.kind = K_TAKE
                m.tok[c] = 2
                n = 2 - (room if room < 2 else 2)
                if n:
                    for i in range(6):
                        h[i] = t[i]
                    h[c] = 0
                    nsub = submultisets(h, n, subs)
                    for i in range(nsub):
                        for j in range(6):
                            m.ret[j] = subs[i * 6 + j]
                        if emit(b, &m, now, n_now) < 0:
                            return -1
                else:
                    if emit(b, &m, now, n_now) < 0:
                        return -1

    # Reserves.
    start = seg_start(s, 3 + 2 * p)
    nres = s.seg[3 + 2 * p]
    if nres < s.reserve_limit:
        memset(&m, 0, sizeof(Move))
        if bank[5] and room < 1:
            for i in range(6):
                h[i] = t[i]
            h[5] += 1
            nsub = submultisets(h, 1 - room, subs)
        else:
            nsub = 0
        for tier in range(3):
            for slot in range(4):
                card = s.board[tier * 4 + slot]
                if card:
                    m.kind = K_RESERVE
                    m.card = card
                    m.src = tier * 4 + slot
                    if nsub:
                        for i in range(nsub):
                            for j in range(6):
                                m.ret[j] = subs[i * 6 + j]
                            if emit(b, &m, now, n_now) < 0:
                                return -1
                    elif emit(b, &m, now, n_now) < 0:
                        return -1
            if s.seg[tier]:
                m.kind = K_BLIND
                m.card = tier + 1
                m.src = 0
                if nsub:
                    for i in range(nsub):
                        for j in range(6):
                            m.ret[j] = subs[i * 6 + j]
                        if emit(b, &m, now, n_now) < 0:
                            return -1
                else:
                    memset(m.ret, 0, 6)
                    if emit(b, &m, now, n_now) < 0:
                        return -1

    # Buys: the face-up cards, then the reserved ones.
    cdef int e[5]
    cdef int price[5]
    cdef int most[5]
    cdef int budget = gold
    cdef int short, total, whole, p0, p1, p2, p3, p4, spent
    cdef int nsrc = 12 + nres
    cdef const uint8_t* gained
    cdef int n_gained
    for c in range(5):
        e[c] = bonus[c] + t[c]
        budget += e[c]
    memset(&m, 0, sizeof(Move))
    m.kind = K_BUY
    for i in range(nsrc):
        if i < 12:
            card = s.board[i]
            if not card:
                continue
        else:
            card = s.cards[start + i - 12] & 0x7F
        if C_COST_TOTAL[card] > budget:
            continue
        short = 0
        for c in range(5):
            if C_COST[card][c] > e[c]:
                short += C_COST[card][c] - e[c]
        if short > gold:
            continue
        whole = 0
        for c in range(5):
            price[c] = C_COST[card][c] - bonus[c] if C_COST[card][c] > bonus[c] else 0
            whole += price[c]
        m.card = card
        m.src = i
        gained = after[C_BONUS[card]]
        n_gained = n_after[C_BONUS[card]]
        if gold:
            for c in range(5):
                most[c] = price[c] if price[c] < t[c] else t[c]
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
                                if spent <= gold:
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
        else:
            for c in range(5):
                m.tok[c] = price[c]
            m.tok[5] = 0
            if emit(b, &m, gained, n_gained) < 0:
                return -1

    if b.n == 0:
        memset(&m, 0, sizeof(Move))
        m.kind = K_PASS
        if emit(b, &m, now, n_now) < 0:
            return -1
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
    """The :mod:`splendor.actions` value of ``m``, as legal_actions lists it."""
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


# -- Decision codes (splendor.encoding) ------------------------------------------------

_ENCODING = None
_TAKE_CODE = {}


def _encoding():
    """splendor.encoding, imported on first use, with the take codes by pattern."""
    global _ENCODING
    if _ENCODING is None:
        from splendor import encoding

        patterns = [
            tuple([1 if c in chosen else 0 for c in range(6)])
            for size in (3, 2, 1)
            for chosen in itertools.combinations(range(5), size)
        ]
        patterns += [tuple([2 if c == colour else 0 for c in range(6)]) for colour in range(5)]
        for code, pattern in zip(encoding.TAKE_CODES, patterns):
            _TAKE_CODE[pattern] = code
        _ENCODING = encoding
    return _ENCODING


cdef int _move_code(const KState* s, const Move* m, enc) except -1:
    """The first decision of ``m``: its move code."""
    cdef int reserved
    if m.kind == K_TAKE:
        return _TAKE_CODE[_tokens(m.tok, 1)]
    if m.kind == K_RESERVE:
        return enc.RESERVE_CODES.start + m.src
    if m.kind == K_BLIND:
        return enc.RESERVE_CODES.start + 12 + m.card - 1
    if m.kind == K_BUY:
        if m.src < 12:
            return enc.BUY_CODES.start + m.src
        reserved = s.seg[3 + 2 * s.current]
        if reserved > enc.RESERVED_SLOTS:
            raise enc.EncodingError(
                f"the encoding tells apart at most {enc.RESERVED_SLOTS} reserved cards; "
                f"the player holds {reserved}"
            )
        return enc.BUY_CODES.start + 12 + m.src - 12
    return enc.PASS_CODE


cdef tuple _follow_ups(const KState* s, const Move* m, enc):
    """Every follow-up code of ``m``, forced ones included (encoding._follow_ups)."""
    cdef int p = s.current
    cdef int c, price, held, instead, i, place
    codes = []
    if m.kind == K_BUY:
        for c in range(5):
            price = <int>C_COST[m.card][c] - <int>s.bonus[p][c]
            held = s.tokens[p][c]
            instead = (price if price < held else held) - m.tok[c]
            if instead > 0:
                codes += [enc.GOLD_CODES.start + c] * instead
        codes.append(enc.NO_MORE_GOLD_CODE)
    elif m.kind != K_PASS:
        for c in range(6):
            if m.ret[c]:
                codes += [enc.RETURN_CODES.start + c] * m.ret[c]
    if m.noble:
        place = 0
        for i in range(s.n_nobles):
            if s.nobles[i] >> 4:
                continue
            if s.nobles[i] == m.noble:
                break
            place += 1
        codes.append(enc.NOBLE_CODES.start + place)
    return tuple(codes)


# -- The Python interface ---------------------------------------------------------------


cdef class Game:
    """A game held in the compiled kernel (see :class:`splendor.fast.Game`)."""

    cdef KState s
    cdef MoveBuf buf
    cdef bint listed  # buf holds the moves of s
    cdef object _rules
    cdef tuple _codes  # the decision codes taken so far this turn
    cdef object _decisions  # (move codes, follow-ups) of the listed moves, or None

    def __cinit__(self):
        # The move buffer is allocated on first use, so a copy costs no malloc.
        self.buf.data = NULL
        self.buf.cap = 0
        self.buf.n = 0
        self.listed = False
        self._rules = None
        self._codes = ()

    def __dealloc__(self):
        free(self.buf.data)

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
            index = operator.index(index)
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
        self._decisions = None

    def play_random(self, seed, max_turns=None):
        cdef uint64_t x = _seed(seed)
        cdef int64_t most = _most_turns(max_turns)
        cdef int64_t turns = 0
        self._ready()
        self.listed = False
        self._codes = ()
        self._decisions = None
        while not self.s.winners and turns < most:
            if gen(&self.s, &self.buf) < 0:
                raise MemoryError()
            play(&self.s, &self.buf.data[below(&x, self.buf.n)])
            turns += 1
            if turns & CHECK_EVERY == 0:
                PyErr_CheckSignals()  # a game that never ends can be interrupted
        return turns

    # -- Decision codes of splendor.encoding, one at a time ------------------------

    @property
    def pending_codes(self):
        return self._codes

    def legal_codes(self):
        options, complete = self._walk(self._codes)
        return options

    def play_code(self, code):
        if type(code) is not int:
            if isinstance(code, bool) or not hasattr(type(code), "__index__"):
                raise _encoding().EncodingError(
                    f"codes[{len(self._codes)}] is not an int code: {code!r}",
                    position=len(self._codes),
                )
            code = operator.index(code)
        codes = self._codes + (code,)
        options, complete = self._walk(codes)
        if complete < 0:
            self._codes = codes
            return False
        play(&self.s, &self.buf.data[complete])
        self.listed = False
        self._codes = ()
        self._decisions = None
        return True

    cdef tuple _walk(self, tuple codes):
        """Follow ``codes`` through the decisions of this turn, as
        splendor.encoding does: (the next legal codes, -1), or ((), the index
        of the move the codes complete). Raises EncodingError at a bad code."""
        enc = _encoding()
        self._list()
        cdef Py_ssize_t n = self.buf.n
        cdef Py_ssize_t i
        if self._decisions is None:
            # Kept until the next move is played: the follow-ups fill in as asked.
            self._decisions = (
                [_move_code(&self.s, &self.buf.data[i], enc) for i in range(n)],
                [None] * n,
            )
        moves, follow = self._decisions
        candidates = list(range(n))
        cdef Py_ssize_t depth = -1
        cdef Py_ssize_t position = 0
        while True:
            if depth < 0:
                options = sorted({moves[i] for i in candidates})
            else:
                for i in candidates:
                    if follow[i] is None:
                        follow[i] = _follow_ups(&self.s, &self.buf.data[i], enc)
                # A decision with one option is implied, never asked.
                while len(candidates) > 1 and len({follow[i][depth] for i in candidates}) == 1:
                    depth += 1
                if len(candidates) == 1:
                    if position < len(codes):
                        code = codes[position]
                        raise enc.EncodingError(
                            f"code {code} at position {position} comes after the end of "
                            f"the turn: the first {position} code(s) already make the action "
                            f"{to_action(&self.buf.data[candidates[0]])}",
                            position=position,
                            code=code,
                        )
                    return (), candidates[0]
                options = sorted({follow[i][depth] for i in candidates})
            if position == len(codes):
                return tuple(options), -1
            code = codes[position]
            if not 0 <= code < enc.ACTION_COUNT:
                raise enc.EncodingError(
                    f"code {code} at position {position} is not a code "
                    f"(codes are 0 to {enc.ACTION_COUNT - 1})",
                    position=position,
                    code=code,
                )
            if code not in options:
                why = (
                    "the game is over" if not options
                    else f"the legal codes are {', '.join(map(str, options))}"
                )
                raise enc.EncodingError(
                    f"code {code} ({enc.describe_code(code)}) at position {position} is not "
                    f"legal here: {why}",
                    position=position,
                    code=code,
                )
            if depth < 0:
                candidates = [i for i in candidates if moves[i] == code]
            else:
                candidates = [i for i in candidates if follow[i][depth] == code]
            depth += 1
            position += 1

    def __repr__(self):
        return (
            f"Game(players={self.s.n_players}, turn={self.s.turn}, "
            f"current_player={self.s.current}, points={list(self.points)}, "
            f"winners={self.winners})"
        )


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
