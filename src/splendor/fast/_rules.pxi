# The rules of splendor.core.legal and splendor.core.play, in C.
#
# gen lists the legal moves of a state exactly as splendor.core.legal.legal_actions
# lists its actions (the same moves, in the same order), and play plays one in
# place exactly as splendor.core.play.apply does; each mirrors its Python owner
# line for line where the order of the listing is decided. The differential
# tests (tests/fast/test_diff.py, ``nox -s kernel-diff``) compare the two on
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
# The cost of each card, a byte per colour (see shortfall).
cdef uint64_t C_COST_BYTES[MAXCARDS + 1]
cdef uint8_t N_POINTS[MAXNOBLES + 1]
cdef uint8_t N_REQ[MAXNOBLES + 1][5]
cdef uint64_t N_REQ_BYTES[MAXNOBLES + 1]  # N_REQ, a byte per colour (see shortfall)
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
        C_COST_BYTES[card.id] = sum([counts[c] << (8 * c) for c in range(5)])
    _fits(all(sum(card.cost.counts[:5]) <= 127 for card in CARDS),
          "it holds cards that cost at most 127 gems")
    _fits(all(sum(noble.requirement.counts[:5]) <= 127 for noble in NOBLES),
          "it holds nobles that require at most 127 cards")
    least = 99
    for noble in NOBLES:
        N_POINTS[noble.id] = noble.points
        counts = noble.requirement.counts
        for c in range(5):
            N_REQ[noble.id][c] = counts[c]
        N_REQ_BYTES[noble.id] = sum([counts[c] << (8 * c) for c in range(5)])
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


# SEG_MASKS[k]: 16 bytes, the first k 0xFF and the rest 0, as two words in
# the machine's byte order (for seg_start).
cdef uint64_t SEG_MASKS[NSEG + 1][2]


def _init_seg_masks():
    cdef int k
    cdef uint8_t ones[16]
    for k in range(NSEG + 1):
        memset(ones, 0, 16)
        memset(ones, 0xFF, k)
        memcpy(SEG_MASKS[k], ones, 16)


_init_seg_masks()


cdef inline int seg_start(const KState* s, int k) noexcept nogil:
    """Where segment ``k`` starts: the lengths of the segments before it, added
    a word at a time (16 bytes read from seg, which the board follows; the
    lengths add up to at most 90, so no byte sum carries)."""
    cdef uint64_t words[2]
    memcpy(words, s.seg, 16)
    return <int>(
        ((words[0] & SEG_MASKS[k][0]) * 0x0101010101010101ULL >> 56)
        + ((words[1] & SEG_MASKS[k][1]) * 0x0101010101010101ULL >> 56)
    )


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
