# The listing move generator of splendor.core.legal, in C.
#
# gen lists the legal moves of a state exactly as
# splendor.core.legal.legal_actions lists its actions (the same moves, in the
# same order), into a MoveBuf; gen_buys lists only the buys. It mirrors its
# Python owner line for line where the order of the listing is decided. The
# turn as the generators read it (Turn, read_turn) is here too: _counting.pxi
# counts the same moves from it. Reads the tables of _rules.pxi. Included
# into _kernel.pyx after _rules.pxi.


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
    cdef int size, i, j, n, x, extra, nsub, c
    cdef unsigned kept, fill, wanted = 0
    cdef int rest[6]
    cdef int subs[56 * 6]
    cdef uint8_t back[6]
    cdef Move m
    memset(&m, 0, sizeof(Move))
    memset(back, 0, 6)
    m.kind = K_TAKE
    if want >= 0:
        for c in range(5):
            if TAKE_TOK[want][c]:
                wanted |= 1u << c
    size = k
    while size >= net:
        extra = size - net
        for i in range(NCOMBO[na][size]):
            # The colours kept (a bit each), then the fillers: the first other
            # available colours, taken and given back.
            kept = 0
            for j in range(size):
                kept |= 1u << avail[COMBO[na][size][i][j]]
            if want >= 0 and kept & ~wanted:
                continue
            fill = 0
            n = k - size
            j = 0
            while n > 0:
                if not kept >> avail[j] & 1:
                    fill |= 1u << avail[j]
                    n -= 1
                j += 1
            if want >= 0 and (kept | fill) != wanted:
                continue
            for c in range(5):
                m.tok[c] = (kept | fill) >> c & 1
                back[c] = fill >> c & 1
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


cdef inline uint64_t short_bytes(uint64_t cost, uint64_t have) noexcept nogil:
    """What ``have`` leaves short of ``cost``, colour by colour (a byte a colour,
    each below 128): the five subtractions at once, in one 64-bit word,
    without a branch."""
    cdef uint64_t high = 0x8080808080ULL
    # A byte of d is 0x80 + cost - have, which has its high bit set when
    # cost >= have, and then its low 7 bits are the shortfall: keep - (keep
    # >> 7) is 0x7F in those bytes, 0 in the others.
    cdef uint64_t d = (cost | high) - have
    cdef uint64_t keep = d & high
    return d & (keep - (keep >> 7))


cdef inline int hsum_bytes(uint64_t x) noexcept nogil:
    """The sum of the low 5 bytes of ``x`` (a sum below 256)."""
    # The bytes summed into byte 4 of the product (no carries: the sum is below 256).
    return <int>((x * 0x0101010101ULL) >> 32 & 0xFF)


cdef inline int shortfall(uint64_t cost, uint64_t have) noexcept nogil:
    """The sum of :func:`short_bytes` (the costs adding up to at most 127)."""
    return hsum_bytes(short_bytes(cost, have))


cdef extern from *:
    """
    #include <stdint.h>
    #if defined(__SSE2__) || defined(_M_X64) || (defined(_M_IX86_FP) && _M_IX86_FP >= 2)
    #include <emmintrin.h>
    /* The shortfalls of two cost words against e (16-bit sums in 32-bit lanes 0 and 2). */
    static inline __m128i splendor_short2(uint64_t a, uint64_t b, __m128i e) {
        __m128i costs = _mm_set_epi64x((long long)b, (long long)a);
        return _mm_sad_epu8(_mm_subs_epu8(costs, e), _mm_setzero_si128());
    }
    /* Four shortfalls, of the cards of slots i to i + 3, over gold: a bit each. */
    static inline unsigned splendor_over4(const uint8_t* board, const uint64_t* cost, int i,
                                          __m128i e, __m128i gold) {
        __m128i lo = splendor_short2(cost[board[i]], cost[board[i + 1]], e);
        __m128i hi = splendor_short2(cost[board[i + 2]], cost[board[i + 3]], e);
        __m128i four = _mm_castps_si128(_mm_shuffle_ps(
            _mm_castsi128_ps(lo), _mm_castsi128_ps(hi), _MM_SHUFFLE(2, 0, 2, 0)));
        return (unsigned)_mm_movemask_ps(_mm_castsi128_ps(_mm_cmpgt_epi32(four, gold)));
    }
    /* The slots of the board (12) that hold a card: 16 bytes compared at once
       (the board is followed by more of the state). */
    static inline unsigned splendor_filled(const uint8_t* board) {
        __m128i b = _mm_loadu_si128((const __m128i*)board);
        return ~(unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(b, _mm_setzero_si128())) & 0xFFFu;
    }
    /* The slots of the board (12) whose card leaves at most gold short. */
    static inline unsigned splendor_affordable(const uint8_t* board, const uint64_t* cost,
                                               uint64_t have, int gold) {
        __m128i e = _mm_set1_epi64x((long long)have);
        __m128i g = _mm_set1_epi32(gold);
        unsigned over = splendor_over4(board, cost, 0, e, g)
            | splendor_over4(board, cost, 4, e, g) << 4
            | splendor_over4(board, cost, 8, e, g) << 8;
        return ~over & splendor_filled(board);
    }
    #else
    static inline unsigned splendor_filled(const uint8_t* board) {
        unsigned found = 0;
        int i;
        for (i = 0; i < 12; i++) found |= (unsigned)(board[i] != 0) << i;
        return found;
    }
    static inline unsigned splendor_affordable(const uint8_t* board, const uint64_t* cost,
                                               uint64_t have, int gold) {
        unsigned found = 0;
        int i, c, missing;
        for (i = 0; i < 12; i++) {
            if (!board[i]) continue;
            missing = 0;
            for (c = 0; c < 5; c++) {
                int need = (int)(cost[board[i]] >> (8 * c) & 0xFF);
                int held = (int)(have >> (8 * c) & 0xFF);
                missing += need > held ? need - held : 0;
            }
            if (missing <= gold) found |= 1u << i;
        }
        return found;
    }
    #endif
    /* The 8 bytes at ``p`` as a word, the first the lowest. */
    static inline uint64_t splendor_bytes8(const uint8_t* p) {
        uint64_t word;
    #if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
        int k;
        word = 0;
        for (k = 7; k >= 0; k--) word = word << 8 | p[k];
    #else
        memcpy(&word, p, 8);
    #endif
        return word;
    }
    #if defined(__SSE2__) || defined(_M_X64) || (defined(_M_IX86_FP) && _M_IX86_FP >= 2)
    /* The 8 bytes of ``word`` (the lowest first) as 8 ints at ``out``. */
    static inline void splendor_ints8(uint64_t word, int* out) {
        __m128i zero = _mm_setzero_si128();
        __m128i w = _mm_unpacklo_epi8(_mm_loadl_epi64((const __m128i*)&word), zero);
        _mm_storeu_si128((__m128i*)out, _mm_unpacklo_epi16(w, zero));
        _mm_storeu_si128((__m128i*)(out + 4), _mm_unpackhi_epi16(w, zero));
    }
    /* The sum of the 8 bytes of ``word``. */
    static inline int splendor_byte_sum(uint64_t word) {
        return _mm_cvtsi128_si32(
            _mm_sad_epu8(_mm_loadl_epi64((const __m128i*)&word), _mm_setzero_si128()));
    }
    /* ``word``'s bytes, each capped at 3. */
    static inline uint64_t splendor_cap3(uint64_t word) {
        uint64_t capped;
        _mm_storel_epi64((__m128i*)&capped,
                         _mm_min_epu8(_mm_loadl_epi64((const __m128i*)&word), _mm_set1_epi8(3)));
        return capped;
    }
    #else
    static inline void splendor_ints8(uint64_t word, int* out) {
        int k;
        for (k = 0; k < 8; k++) out[k] = (int)(word >> (8 * k) & 0xFF);
    }
    static inline int splendor_byte_sum(uint64_t word) {
        int k, sum = 0;
        for (k = 0; k < 8; k++) sum += (int)(word >> (8 * k) & 0xFF);
        return sum;
    }
    static inline uint64_t splendor_cap3(uint64_t word) {
        uint64_t capped = 0, b;
        int k;
        for (k = 0; k < 8; k++) {
            b = word >> (8 * k) & 0xFF;
            capped |= (b < 3 ? b : 3) << (8 * k);
        }
        return capped;
    }
    #endif
    /* The low 6 bytes of ``word``, each capped at 3, two bits each (byte c at
       bit 2c): the bytes gathered by shifts, pairs first. */
    static inline int splendor_key6(uint64_t word) {
        uint64_t m = splendor_cap3(word & 0xFFFFFFFFFFFFULL);
        uint64_t y = m | m >> 6;  /* bytes 2j and 2j + 1 side by side at bit 16j */
        return (int)(((y | y >> 12) & 0xFF) | (y >> 24 & 0xF00));
    }
    #if defined(__GNUC__) || defined(__clang__)
    #define SPLENDOR_LOWEST_BIT(x) __builtin_ctz(x)
    #define SPLENDOR_BITS(x) __builtin_popcount(x)
    #else
    static inline int SPLENDOR_LOWEST_BIT(unsigned x) {
        int i = 0;
        while (!(x >> i & 1u)) i++;
        return i;
    }
    static inline int SPLENDOR_BITS(unsigned x) {
        int n = 0;
        for (; x; x &= x - 1) n++;
        return n;
    }
    #endif
    """
    # The board slots (a bit each, slot 0 the lowest) whose card costs, a byte
    # per colour in ``cost`` (by card id, 0 for none), at most ``gold`` more
    # than ``have`` (a byte per colour) covers. SSE2 where the compiler has it.
    unsigned splendor_affordable(const uint8_t* board, const uint64_t* cost, uint64_t have, int gold) noexcept nogil
    # The board slots (a bit each, slot 0 the lowest) that hold a card.
    unsigned splendor_filled(const uint8_t* board) noexcept nogil
    # The 8 bytes at ``p`` (all inside one object) as a word, the first the lowest.
    uint64_t splendor_bytes8(const uint8_t* p) noexcept nogil
    # The 8 bytes of ``word`` as 8 ints at ``out``; their sum.
    void splendor_ints8(uint64_t word, int* out) noexcept nogil
    int splendor_byte_sum(uint64_t word) noexcept nogil
    # The sum over the low 6 bytes of ``word`` of min(byte, 3) << 2 * its place.
    int splendor_key6(uint64_t word) noexcept nogil
    # The index of the lowest bit set in ``x`` (not 0).
    int SPLENDOR_LOWEST_BIT(unsigned x) noexcept nogil
    # How many bits ``x`` has set.
    int SPLENDOR_BITS(unsigned x) noexcept nogil


ctypedef struct Turn:
    # What the moves of the player to move depend on, read from the state once.
    int t[8]  # the player's tokens (6; 8 are written at once)
    int bank[8]  # likewise
    int bonus[8]  # likewise (5)
    int e[5]  # bonus + tokens, per colour
    uint64_t e_bytes  # e, a byte per colour, each capped at 127 (see shortfall)
    uint64_t bonus_bytes  # bonus, likewise
    uint64_t t_bytes  # the gem tokens, likewise
    uint64_t t_word  # the tokens, a byte a colour (gems then gold), not capped
    int t_key  # held_key of t
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
    cdef int c, i, bsum, held, missing, colour, noble
    cdef uint64_t short
    # A byte a colour in one word each (gems then gold; bonuses of the gems),
    # turned into ints, summed and keyed eight bytes at a time.
    cdef uint64_t tokens = splendor_bytes8(&s.tokens[p][0]) & 0xFFFFFFFFFFFFULL
    cdef uint64_t bonus = splendor_bytes8(&s.bonus[p][0]) & 0xFFFFFFFFFFULL
    splendor_ints8(tokens, u.t)
    splendor_ints8(splendor_bytes8(s.bank) & 0xFFFFFFFFFFFFULL, u.bank)
    splendor_ints8(bonus, u.bonus)
    for c in range(5):
        u.e[c] = u.bonus[c] + u.t[c]
    held = splendor_byte_sum(tokens)
    bsum = splendor_byte_sum(bonus)
    u.gold = u.t[5]
    u.t_key = splendor_key6(tokens)
    u.bonus_bytes = bonus
    u.t_bytes = tokens & 0xFFFFFFFFFFULL
    u.t_word = tokens
    if (u.bonus_bytes | u.t_bytes) & 0xC0C0C0C0C0ULL:
        # A count of 64 or more (house rules): each byte capped at 127.
        u.e_bytes = 0
        u.bonus_bytes = 0
        u.t_bytes = 0
        for c in range(5):
            u.bonus_bytes |= (<uint64_t>(u.bonus[c] if u.bonus[c] < 127 else 127)) << (8 * c)
            u.t_bytes |= (<uint64_t>(u.t[c] if u.t[c] < 127 else 127)) << (8 * c)
            u.e_bytes |= (<uint64_t>(u.e[c] if u.e[c] < 127 else 127)) << (8 * c)
    else:
        u.e_bytes = u.bonus_bytes + u.t_bytes  # each byte below 128: no carry
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
            short = short_bytes(N_REQ_BYTES[noble], u.bonus_bytes)
            missing = hsum_bytes(short)
            if missing == 0:
                u.now[u.n_now] = noble
                u.n_now += 1
                for c in range(5):
                    u.after[c][u.n_after[c]] = noble
                    u.n_after[c] += 1
            elif missing == 1:
                colour = 0  # the colour short of one: the byte that is not 0
                while not (short >> (8 * colour)) & 0xFF:
                    colour += 1
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
    leave short is at most its gold."""
    return shortfall(C_COST_BYTES[card], u.e_bytes) <= u.gold


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


cdef inline int list_buys(const KState* s, const Turn* u, MoveBuf* b) noexcept nogil:
    """Add the buys of ``s`` to ``b``: the face-up cards, then the reserved ones
    (gen's last moves). Returns 0, or -1 when memory ran out."""
    cdef int i, card
    for i in range(12 + u.nres):
        card = reserved_card(s, u, i)
        if card and can_buy(u, card) and gen_buy(b, u, card, i) < 0:
            return -1
    return 0


cdef int gen(KState* s, MoveBuf* b) noexcept nogil:
    """List the legal moves of ``s`` into ``b`` (``legal.legal_actions``).

    Returns 0, or -1 when memory ran out.
    """
    b.n = 0
    if s.winners:
        return 0
    cdef Turn u
    cdef int c, tier, slot, nsub, card, na
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

    if list_buys(s, &u, b) < 0:
        return -1

    if b.n == 0:
        return gen_pass(b, &u)
    return 0


cdef int gen_buys(KState* s, MoveBuf* b) noexcept nogil:
    """List only the buys among the legal moves of ``s`` into ``b``, in the
    order :func:`gen` lists them (its last moves), none when the game is over.

    Returns 0, or -1 when memory ran out.
    """
    b.n = 0
    if s.winners:
        return 0
    cdef Turn u
    read_turn(s, &u, True)
    return list_buys(s, &u, b)
