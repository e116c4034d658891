# The counting move generator: one uniform random move of gen's list, in C.
#
# Reads the tables of _rules.pxi and the Turn of _listing.pxi, and makes a
# group of moves with the generators of _listing.pxi. Included into
# _kernel.pyx after _play.pxi.


# -- One uniform random move, without the whole list ---------------------------------------
#
# A random playout needs one move drawn uniformly from the list gen makes. choose
# counts the moves of each group of the list (the takes of different colours,
# the double take of each colour, the reserves of each card and deck, the buys
# of each card, the pass) without writing them, draws an index below the total
# as the full list would be drawn from (the same draw, so a seed plays the same
# game), and makes only the move at that index: directly when its group is one
# move per noble, else by generating that one group. The tests compare every
# index of nth with gen's list on random states.

cdef enum:
    G_TAKES = 0
    G_DOUBLE = 1
    G_RESERVE = 2
    G_BUY = 4
    G_PASS = 5
    # The takes, 5 doubles, the reserves, 12 board buys, at most MAXCARDS
    # reserved buys, the pass.
    MAXGROUPS = 1 + 5 + 1 + 12 + MAXCARDS + 1
    # Room for the number of ways to pay for a card, by the gems paid.
    MAXPAY = 64


ctypedef struct Groups:
    Py_ssize_t total
    int n
    int count[MAXGROUPS]  # the moves of each group
    uint8_t kind[MAXGROUPS]
    uint8_t arg[MAXGROUPS]  # the colour (double), the source (buy)
    uint8_t card[MAXGROUPS]  # the card (buy)
    int nsub  # the ways a reserve gives tokens back (0: it gives none)
    int per  # the moves of each reserve: nsub or 1, once per noble
    # The reserves in gen's order, a bit each: tier t's board slots at bits
    # 5t to 5t + 3 and its deck at bit 5t + 4 (see reserve_sources).
    unsigned reserves


cdef int MAX_COST_TOTAL = 0

# SUB_COUNT[key][size]: how many vectors submultisets lists for counts held
# whose key is ``held_key`` (each count capped at 3, 2 bits a colour) and
# ``size`` (0 to 3); SUB_UPTO[key][size] adds up the sizes 0 to ``size``.
cdef uint8_t SUB_COUNT[4096][4]
cdef uint8_t SUB_UPTO[4096][4]


cdef inline int held_key(const int* held, int colours) noexcept nogil:
    """The key of SUB_COUNT for the first ``colours`` counts of ``held`` (the rest 0)."""
    cdef int c, h, key = 0
    for c in range(colours):
        h = held[c]
        key |= (3 if h > 3 else (h if h > 0 else 0)) << (2 * c)
    return key


def _init_choose():
    global MAX_COST_TOTAL
    cdef int key, size, c, n
    cdef int held[6]
    cdef int subs[56 * 6]
    MAX_COST_TOTAL = max([C_COST_TOTAL[card.id] for card in CARDS])
    _fits(MAX_COST_TOTAL < MAXPAY, f"it holds cards that cost less than {MAXPAY} gems")
    for key in range(4096):
        for c in range(6):
            held[c] = key >> (2 * c) & 3
        n = 0
        for size in range(4):
            SUB_COUNT[key][size] = submultisets(held, size, subs)
            n += SUB_COUNT[key][size]
            SUB_UPTO[key][size] = n


_init_choose()


cdef inline void sub_nth(int key, int size, int j, uint8_t* out) noexcept nogil:
    """Add to ``out`` the vector of index ``j`` of :func:`submultisets`'s list for
    counts held whose key is ``key`` (see SUB_COUNT) and ``size``, without the
    list: colour by colour, each count from the largest down, skipping the
    vectors that the colours after it complete for each larger count."""
    cdef int c, a, h, n, rest
    for c in range(6):
        if size == 0:
            return
        h = key >> (2 * c) & 3
        a = h if h < size else size
        rest = key >> (2 * c + 2) << (2 * c + 2)  # the colours after c
        while a > 0:
            n = SUB_COUNT[rest][size - a]
            if j < n:
                break
            j -= n
            a -= 1
        out[c] += a
        size -= a


cdef inline int count_sub(const int* held, int size) noexcept nogil:
    """How many vectors :func:`submultisets` lists for ``held`` and ``size``."""
    if size > 3 or size < 0:
        return 0
    return SUB_COUNT[held_key(held, 6)][size]


# COMBO_KEYS[colours][size][i]: the bits of held_key of the colours of
# COMBO[na][size][i], for the na colours of the bit set ``colours`` (in order).
cdef uint16_t COMBO_KEYS[32][4][10]


def _init_combo_keys():
    cdef int colours, size, i
    for colours in range(32):
        avail = [c for c in range(5) if colours >> c & 1]
        for size in range(min(len(avail), 3) + 1):
            for i, combo in enumerate(itertools.combinations(avail, size)):
                COMBO_KEYS[colours][size][i] = sum([3 << (2 * c) for c in combo])


_init_combo_keys()


cdef inline int colour_set(const int* avail, int na) noexcept nogil:
    """The bit set of the colours ``avail``."""
    cdef int j, colours = 0
    for j in range(na):
        colours |= 1 << avail[j]
    return colours


cdef inline int count_returning_takes(const Turn* u, int colours, int na, int size, int extra) noexcept nogil:
    """The takes of ``size`` colours of the set ``colours`` that give ``extra`` tokens back."""
    cdef int i, total = 0
    for i in range(NCOMBO[na][size]):
        total += SUB_COUNT[u.t_key & ~COMBO_KEYS[colours][size][i]][extra]
    return total


cdef int count_takes(const Turn* u, const int* avail, int na) noexcept nogil:
    """How many moves :func:`gen_takes` lists (before nobles), with ``want`` -1."""
    cdef int colours = colour_set(avail, na)
    cdef int k = na if na < 3 else 3
    cdef int room = u.room if u.room < 3 else 3
    cdef int net = k if k < room else room
    cdef int size, total = 0
    size = k
    while size > net:
        total += count_returning_takes(u, colours, na, size, size - net)
        size -= 1
    return total + NCOMBO[na][net]


cdef inline int double_returns(const Turn* u, int c) noexcept nogil:
    """How many moves :func:`gen_double` lists for colour ``c`` (before nobles)."""
    cdef int n = 2 - (u.room if u.room < 2 else 2)
    if n:
        return SUB_COUNT[u.t_key & ~(3 << (2 * c))][n]
    return 1


cdef inline int reserve_key(const Turn* u) noexcept nogil:
    """The key of SUB_COUNT of what a reserve may give back: the tokens held and
    the gold it brings."""
    cdef int gold = u.t[5] + 1
    return (u.t_key & 0x3FF) | (3 if gold > 3 else gold) << 10


cdef inline int count_reserve_returns(const Turn* u) noexcept nogil:
    """What :func:`reserve_returns` answers, without writing the vectors."""
    if u.bank[5] and u.room < 1 and u.room > -3:
        return SUB_COUNT[reserve_key(u)][1 - u.room]
    return 0


cdef int count_payments_dp(const Turn* u, int card) noexcept nogil:
    """How many payments :func:`gen_buy` lists for ``card``, counted by the gems paid."""
    cdef int c, v, i, k, whole = 0, top = 0, total = 0
    cdef int most, price
    cdef int ways[MAXPAY]
    cdef int nxt[MAXPAY]
    whole = 0
    ways[0] = 1
    for c in range(5):
        price = C_COST[card][c] - u.bonus[c] if C_COST[card][c] > u.bonus[c] else 0
        whole += price
        most = price if price < u.t[c] else u.t[c]
        if most <= 0:
            continue
        for v in range(top + most + 1):
            nxt[v] = 0
        for v in range(top + 1):
            for k in range(most + 1):
                nxt[v + k] += ways[v]
        top += most
        for v in range(top + 1):
            ways[v] = nxt[v]
    # The gold pays what the gems do not: at most u.gold.
    i = whole - u.gold
    if i < 0:
        i = 0
    for v in range(i, top + 1):
        total += ways[v]
    return total


cdef inline int count_payments(const Turn* u, int card, int slack) noexcept nogil:
    """How many payments :func:`gen_buy` lists for ``card`` (before nobles), which
    leaves ``slack`` gold unspent when it pays every gem it can (0 or more)."""
    cdef int key
    cdef uint64_t prices, mosts
    if not u.gold:
        return 1
    if slack > 3:
        return count_payments_dp(u, card)
    # The gems it pays (p_c from 0 to most_c, the price or the tokens held)
    # leave at most u.gold to pay in gold: counted from below, the gems it
    # does not pay (most_c - p_c) add up to at most the slack.
    prices = short_bytes(C_COST_BYTES[card], u.bonus_bytes)
    mosts = prices - short_bytes(prices, u.t_bytes)
    mosts -= short_bytes(mosts, 0x0303030303ULL)  # capped at 3
    key = <int>(
        (mosts & 0xFF) | (mosts >> 6 & 0x0C) | (mosts >> 12 & 0x30) | (mosts >> 18 & 0xC0)
        | (mosts >> 24 & 0x300)
    )
    return SUB_UPTO[key][slack]


cdef inline void add_group(Groups* g, int count, int kind, int arg, int card) noexcept nogil:
    if count > 0:
        g.count[g.n] = count
        g.kind[g.n] = kind
        g.arg[g.n] = arg
        g.card[g.n] = card
        g.n += 1
        g.total += count


cdef inline void add_buys(Groups* g, const Turn* u, int card, int src) noexcept nogil:
    """Add the group of the buys of ``card`` from ``src``, if the player can pay for it."""
    cdef int per
    cdef int slack = u.gold - shortfall(C_COST_BYTES[card], u.e_bytes)
    if slack >= 0:  # it can pay
        per = u.n_after[C_BONUS[card]]
        add_group(g, count_payments(u, card, slack) * (per if per else 1), G_BUY, src, card)


cdef inline unsigned reserve_sources(const KState* s) noexcept nogil:
    """What a player may reserve, in gen's order, a bit each: tier t's filled
    board slots at bits 5t to 5t + 3, and its deck, if not empty, at 5t + 4."""
    cdef unsigned filled = splendor_filled(s.board)
    return (
        (filled & 0xF) | (filled & 0xF0) << 1 | (filled & 0xF00) << 2
        | (s.seg[0] != 0) << 4 | (s.seg[1] != 0) << 9 | (s.seg[2] != 0) << 14
    )


cdef void count_groups(const KState* s, const Turn* u, Groups* g) noexcept nogil:
    """Count the moves gen lists for ``s`` (not over), group by group, in its order."""
    cdef int c, i, na
    cdef int avail[5]
    cdef int now = u.n_now if u.n_now else 1
    g.n = 0
    g.total = 0
    g.nsub = 0
    na = available(u, avail)
    if na:
        add_group(g, count_takes(u, avail, na) * now, G_TAKES, 0, 0)
        for c in range(5):
            if u.bank[c] > 3:
                add_group(g, double_returns(u, c) * now, G_DOUBLE, c, 0)
    if u.nres < s.reserve_limit:
        g.nsub = count_reserve_returns(u)
        g.per = (g.nsub if g.nsub else 1) * now
        g.reserves = reserve_sources(s)
        add_group(g, g.per * SPLENDOR_BITS(g.reserves), G_RESERVE, 0, 0)
    cdef unsigned buyable = splendor_affordable(s.board, C_COST_BYTES, u.e_bytes, u.gold)
    while buyable:
        i = SPLENDOR_LOWEST_BIT(buyable)
        buyable &= buyable - 1
        add_buys(g, u, s.board[i], i)
    for i in range(u.nres):
        add_buys(g, u, s.cards[u.start + i] & 0x7F, 12 + i)
    if g.total == 0:
        add_group(g, now, G_PASS, 0, 0)


cdef void take_nth(const Turn* u, const int* avail, int na, Py_ssize_t j, Move* out) noexcept nogil:
    """Write to ``out`` the move at index ``j`` of :func:`gen_takes`'s list (``want`` -1)."""
    cdef int k = na if na < 3 else 3
    cdef int room = u.room if u.room < 3 else 3
    cdef int net = k if k < room else room
    cdef int now = u.n_now if u.n_now else 1
    cdef int key = u.t_key
    cdef int colours = colour_set(avail, na)
    cdef int size, i, x, n, count, f, mask
    cdef bint used[5]
    size = k
    while size >= net:
        for i in range(NCOMBO[na][size]):
            mask = COMBO_KEYS[colours][size][i]
            count = (1 if size == net else SUB_COUNT[key & ~mask][size - net]) * now
            if j >= count:
                j -= count
                continue
            out.kind = K_TAKE
            for x in range(5):
                used[x] = False
            for x in range(size):
                used[COMBO[na][size][i][x]] = True
                out.tok[avail[COMBO[na][size][i][x]]] = 1
            # Fillers: the first other available colours, taken and given back.
            n = k - size
            f = 0
            while n > 0:
                if not used[f]:
                    out.tok[avail[f]] = 1
                    out.ret[avail[f]] = 1
                    n -= 1
                f += 1
            if size > net:
                sub_nth(key & ~mask, size - net, <int>(j // now), out.ret)
            out.noble = u.now[j % now] if u.n_now else 0
            return
        size -= 1


cdef inline void with_noble(Move* m, const uint8_t* nobles, int n_nobles, int j) noexcept nogil:
    """Give ``m`` the noble of index ``j`` among its copies (``emit``'s order)."""
    m.noble = nobles[j % n_nobles] if n_nobles else 0


cdef int nth(
    const KState* s, const Turn* u, const Groups* g, Py_ssize_t j, MoveBuf* b, Move* out,
) noexcept nogil:
    """Write to ``out`` the move at index ``j`` of gen's list (``g`` counted for ``s``).

    Moves of a group with several tokens returned or payments are generated
    into ``b`` (its earlier contents lost). Returns 0, or -1 when memory ran out.
    """
    cdef int k = 0, c, i, na, kind, card, src, now, failed = 0
    cdef unsigned sources
    cdef int avail[5]
    while j >= g.count[k]:
        j -= g.count[k]
        k += 1
    kind = g.kind[k]
    memset(out, 0, sizeof(Move))
    now = u.n_now if u.n_now else 1
    b.n = 0
    if kind == G_TAKES:
        na = available(u, avail)
        if u.room >= 3 or u.room >= na:
            # One size (all the colours it can, up to 3), nothing given back.
            out.kind = K_TAKE
            i = <int>(j // now)
            for c in range(na if na < 3 else 3):
                out.tok[avail[COMBO[na][na if na < 3 else 3][i][c]]] = 1
            with_noble(out, u.now, u.n_now, <int>(j % now))
            return 0
        take_nth(u, avail, na, j, out)
        return 0
    elif kind == G_DOUBLE:
        if u.room >= 2:
            out.kind = K_TAKE
            out.tok[g.arg[k]] = 2
            with_noble(out, u.now, u.n_now, <int>j)
            return 0
        out.kind = K_TAKE
        out.tok[g.arg[k]] = 2
        sub_nth(u.t_key & ~(3 << (2 * g.arg[k])), 2 - u.room, <int>(j // now), out.ret)
        with_noble(out, u.now, u.n_now, <int>(j % now))
        return 0
    elif kind == G_RESERVE:
        sources = g.reserves
        for i in range(j // g.per):  # the reserve of that rank in gen's order
            sources &= sources - 1
        i = SPLENDOR_LOWEST_BIT(sources)
        src = (i // 5) * 4 + i % 5 if i % 5 < 4 else 12 + i // 5
        j = j % g.per
        if src < 12:
            out.kind = K_RESERVE
            out.card = s.board[src]
            out.src = src
        else:
            out.kind = K_BLIND
            out.card = src - 11
        if g.nsub:
            sub_nth(reserve_key(u), 1 - u.room, <int>(j // now), out.ret)
        with_noble(out, u.now, u.n_now, <int>(j % now))
        return 0
    elif kind == G_BUY:
        card = g.card[k]
        src = g.arg[k]
        if not u.gold:
            out.kind = K_BUY
            out.card = card
            out.src = src
            for c in range(5):
                out.tok[c] = C_COST[card][c] - u.bonus[c] if C_COST[card][c] > u.bonus[c] else 0
            with_noble(out, u.after[C_BONUS[card]], u.n_after[C_BONUS[card]], <int>j)
            return 0
        failed = gen_buy(b, u, card, src)
    else:
        out.kind = K_PASS
        with_noble(out, u.now, u.n_now, <int>j)
        return 0
    if failed < 0:
        return -1
    out[0] = b.data[j]
    return 0


ctypedef struct Counted:
    # The moves of a state, counted (see count_moves).
    Turn u
    Groups g


cdef void count_moves(const KState* s, Counted* c) noexcept nogil:
    """Count the moves gen lists for ``s`` into ``c`` (0 once the game is over),
    ready for :func:`nth`."""
    if s.winners:
        c.g.n = 0
        c.g.total = 0
        return
    read_turn(s, &c.u, True)
    count_groups(s, &c.u, &c.g)


cdef int choose(KState* s, MoveBuf* b, uint64_t* x, Move* out) noexcept nogil:
    """Draw the move a uniform choice from gen's list for ``s`` (not over) with
    ``x`` draws (``below(x, n)`` for the list's n), into ``out``.

    Returns 0, or -1 when memory ran out.
    """
    cdef Turn u
    cdef Groups g
    read_turn(s, &u, True)
    count_groups(s, &u, &g)
    return nth(s, &u, &g, below(x, g.total), b, out)
