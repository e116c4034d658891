# The rules of splendor.core.legal and splendor.core.play, in C.
#
# gen lists the legal moves of a state exactly as splendor.core.legal.legal_actions
# lists its actions (the same moves, in the same order), and play plays one in
# place exactly as splendor.core.play.apply does; each mirrors its Python owner
# line for line where the order of the listing is decided. The differential
# tests (tests/kernel/test_diff.py, ``nox -s kernel-diff``) compare the two on
# random games. Included into _kernel.pyx (one compilation unit: the small
# functions inline across the files).

from splendor.core.components import CARDS, NOBLES
from splendor.core.gems import GEMS
from splendor.core.rules import MAX_PLAYERS


# -- Static tables of the cards and nobles (filled once at import) ---------------

cdef uint8_t C_TIER[MAXCARDS + 1]
cdef uint8_t C_BONUS[MAXCARDS + 1]  # the colour index of the card's bonus (its place in GEMS)
cdef uint8_t C_POINTS[MAXCARDS + 1]
cdef uint8_t C_COST[MAXCARDS + 1][5]
cdef uint8_t C_COST_TOTAL[MAXCARDS + 1]
cdef uint8_t N_POINTS[MAXNOBLES + 1]
cdef uint8_t N_REQ[MAXNOBLES + 1][5]
cdef int MIN_NOBLE_TOTAL = 0

# Combinations of up to 3 of up to 5 available colours, in the order of
# itertools.combinations: COMBO[na][size][i] is the i-th combination of
# positions (0..na-1) in the list of available colours.
cdef uint8_t COMBO[6][4][10][3]
cdef uint8_t NCOMBO[6][4]


def _init_rules():
    global MIN_NOBLE_TOTAL
    cdef int c
    # The colours in the order of splendor.core.gems.GEMS (Tokens.counts'
    # order): 5 gems, then gold.
    _fits(len(GEMS) == 6 and GEMS[5].value == "gold", "it counts 5 gem colours and gold")
    _fits(2 * MAX_PLAYERS + 3 <= NSEG, f"it seats at most {(NSEG - 3) // 2} players")
    _fits(len(CARDS) <= MAXCARDS and all(1 <= card.id <= MAXCARDS for card in CARDS),
          f"it holds cards 1 to {MAXCARDS}")
    _fits(len(NOBLES) <= MAXNOBLES and all(1 <= noble.id <= MAXNOBLES for noble in NOBLES),
          f"it holds nobles 1 to {MAXNOBLES}")
    colour = {gem: c for c, gem in enumerate(GEMS)}
    for card in CARDS:
        C_TIER[card.id] = card.tier
        C_BONUS[card.id] = colour[card.bonus]
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


_init_rules()


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
