# The decision codes of splendor.formats.encoding, in C.
#
# A turn is a sequence of codes: a move code (legal_first sets the legal
# ones straight from the state), then the follow-up codes of its moves
# (gen_code lists the moves of one move code only, from the same pieces as
# gen; follow_ups writes what encoding._follow_ups codes). A Decider walks the
# decisions of one turn a code at a time, as encoding.legal_codes and
# encoding.decode do. The code layout is read from splendor.formats.encoding
# when the kernel is imported (_init_codes); tests/fast/test_code_moves.py and
# tests/fast/test_decisions.py compare the two at every decision. Included
# into _kernel.pyx.

from splendor.errors import EncodingError
from splendor.formats import encoding as _encoding


# -- The code layout (read from splendor.formats.encoding at import) ---------------------

# The first code of each group of codes (see _init_codes).
cdef int A_COUNT = 0  # encoding.ACTION_COUNT: every code is below it
cdef int A_DOUBLE = 0  # the takes of 2 gems of one colour, by colour
cdef int A_RESERVE_BOARD = 0  # the reserves of a face-up card, by board slot
cdef int A_RESERVE_DECK = 0  # the reserves from a deck, by tier
cdef int A_BUY_BOARD = 0  # the buys of a face-up card, by board slot
cdef int A_BUY_RESERVED = 0  # the buys of a reserved card, by its place
cdef int A_RESERVED_SLOTS = 0  # encoding.RESERVED_SLOTS
cdef int A_PASS = 0
cdef int A_RETURN = 0  # "return a token", by colour (gold last)
cdef int A_GOLD = 0  # "pay gold in place of a gem", by colour
cdef int A_NO_MORE_GOLD = 0
cdef int A_NOBLE = 0  # "receive the noble", by its place among the revealed ones

cdef enum:
    # The codes a bitset holds (two 64-bit words).
    CODE_BITS = 128
    # The take codes TAKE_TOK holds (the takes of different colours).
    MAX_TAKE_CODES = 64
    # The most codes of one turn: the move, a gold code per token of the
    # dearest card's price (14), "no more gold", the noble (checked at import).
    MAXF = 24
    # A code that no sequence holds: past the end of a shorter one.
    NO_CODE = 255

# The take code of a take by its gems: TAKE_BY_KEY[sum of tok[c] * 3 ** c].
cdef uint8_t TAKE_BY_KEY[243]
# The colours of each take code of different colours (1 for a colour taken).
cdef uint8_t TAKE_TOK[MAX_TAKE_CODES][5]
cdef int POW3[5]
# The codes of every take of min(3, n) colours of the n colours in a supply,
# by the supply's colours (a bit per colour): the takes when none is given back.
cdef uint64_t FULL_TAKES[32]
# The takes when some are given back, by the supply's colours and the number
# ``size`` of colours kept: PART_KEPT[colours][size][i] the colours of the
# i-th set of ``size`` (a bit each) and PART_BIT its take code's bit (those
# colours and the first other ones of the supply, up to min(3, n) colours);
# PART_N the sets, PART_ALL the bits of them all.
cdef uint8_t PART_N[32][4]
cdef uint8_t PART_KEPT[32][4][10]
cdef uint64_t PART_BIT[32][4][10]
cdef uint64_t PART_ALL[32][4]
# The bytes of the colours of a set (a bit each): 0xFF in byte c for colour c.
cdef uint64_t COLOUR_BYTES[32]


def _init_codes():
    """Read the code layout of splendor.formats.encoding into the globals above.

    The C code relies on the order of the groups (each follows the one
    before it) and on their sizes, which are the table's; a layout that
    breaks them is refused with an ImportError (see splendor.fast.game).
    """
    global A_COUNT, A_DOUBLE, A_RESERVE_BOARD, A_RESERVE_DECK, A_BUY_BOARD, A_BUY_RESERVED
    global A_RESERVED_SLOTS, A_PASS, A_RETURN, A_GOLD, A_NO_MORE_GOLD, A_NOBLE
    cdef int c, i, key
    patterns = _encoding.TAKE_PATTERNS  # the take codes' gems, in code order
    takes = _encoding.TAKE_CODES
    different = [i for i in takes if max(patterns[i]) == 1]
    _fits(different == list(range(len(different))) and len(different) <= MAX_TAKE_CODES,
          "it codes the takes of different colours first")
    A_DOUBLE = len(different)
    _fits(
        [patterns[A_DOUBLE + c] for c in range(5)]
        == [tuple(2 if k == c else 0 for k in range(6)) for c in range(5)]
        and takes.stop == A_DOUBLE + 5,
        "it codes the takes of 2 gems by colour, after the others",
    )
    A_RESERVE_BOARD = _encoding.RESERVE_CODES.start
    A_RESERVE_DECK = A_RESERVE_BOARD + 12
    A_BUY_BOARD = _encoding.BUY_CODES.start
    A_BUY_RESERVED = A_BUY_BOARD + 12
    A_RESERVED_SLOTS = _encoding.RESERVED_SLOTS
    A_PASS = _encoding.PASS_CODE
    A_RETURN = _encoding.RETURN_CODES.start
    A_GOLD = _encoding.GOLD_CODES.start
    A_NO_MORE_GOLD = _encoding.NO_MORE_GOLD_CODE
    A_NOBLE = _encoding.NOBLE_CODES.start
    A_COUNT = _encoding.ACTION_COUNT
    _fits(
        A_RESERVE_BOARD == takes.stop
        and _encoding.RESERVE_CODES.stop == A_RESERVE_DECK + 3
        and A_BUY_BOARD == A_RESERVE_DECK + 3
        and _encoding.BUY_CODES.stop == A_BUY_RESERVED + A_RESERVED_SLOTS
        and A_PASS == A_BUY_RESERVED + A_RESERVED_SLOTS
        and len(_encoding.RETURN_CODES) == 6
        and len(_encoding.GOLD_CODES) == 5
        and len(_encoding.NOBLE_CODES) >= MAXNOBLES
        and A_PASS < 64  # the codes of a turn's first decision: in the first word
        and 16 <= A_COUNT <= CODE_BITS,
        "it codes the moves by kind in the order take, reserve, buy, pass, "
        "and the codes fit in its bitsets",
    )
    memset(TAKE_BY_KEY, NO_CODE, 243)
    memset(TAKE_TOK, 0, sizeof(TAKE_TOK))
    for c in range(5):
        POW3[c] = (1, 3, 9, 27, 81)[c]
    for i in takes:
        key = sum([patterns[i][c] * POW3[c] for c in range(5)])
        TAKE_BY_KEY[key] = i
        if i < A_DOUBLE:
            for c in range(5):
                TAKE_TOK[i][c] = patterns[i][c]
    for i in range(32):
        colours = [c for c in range(5) if i >> c & 1]
        COLOUR_BYTES[i] = sum([0xFF << (8 * colour) for colour in colours])
        FULL_TAKES[i] = 0
        for chosen in itertools.combinations(colours, min(3, len(colours))):
            FULL_TAKES[i] |= (<uint64_t>1) << TAKE_BY_KEY[sum([POW3[c] for c in chosen])]
        for size in range(4):
            PART_N[i][size] = 0
            PART_ALL[i][size] = 0
            for k, kept in enumerate(itertools.combinations(colours, size)):
                fillers = [c for c in colours if c not in kept][: min(3, len(colours)) - size]
                bit = (<uint64_t>1) << TAKE_BY_KEY[sum([POW3[c] for c in (*kept, *fillers)])]
                PART_KEPT[i][size][k] = sum([1 << c for c in kept])
                PART_BIT[i][size][k] = bit
                PART_ALL[i][size] |= bit
                PART_N[i][size] = k + 1
    for card in CARDS:
        _fits(C_COST_TOTAL[card.id] + 3 <= MAXF, "a turn of its decisions holds at most "
              f"{MAXF} codes, the card {card.id} costs more than that allows")


_init_codes()

#: The codes' layout the kernel read from splendor.formats.encoding (the tests compare them).
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


# -- The moves of one decision (for the decision codes of splendor.formats.encoding) -----------

cdef inline void set_bit(uint64_t* bits, int code) noexcept nogil:
    if 0 <= code < CODE_BITS:
        bits[code >> 6] |= (<uint64_t>1) << (code & 63)


cdef inline void set_bits(uint64_t* bits, int start, uint64_t mask) noexcept nogil:
    """Set the codes ``start + i`` for the bits ``i`` of ``mask`` (below 2**32; the
    codes below CODE_BITS)."""
    cdef int off = start & 63
    bits[start >> 6] |= mask << off
    if off > 32 and mask >> (64 - off):
        bits[(start >> 6) + 1] |= mask >> (64 - off)


cdef inline bint has_bit(const uint64_t* bits, int64_t code) noexcept nogil:
    return 0 <= code < A_COUNT and (bits[code >> 6] >> (code & 63)) & 1


cdef void legal_first(const KState* s, uint64_t* bits) noexcept nogil:
    """Set in ``bits`` the move codes of the legal moves of ``s`` (the first
    decision of its turn), without listing the moves: each kind of move is
    legal exactly when :func:`gen` would list one of it. The player holds no
    more tokens than the limit (check_state refuses a state that does, and
    every turn ends within it)."""
    cdef Turn u
    cdef int c, i, j, n, k, net, size, extra, key, na, total, chosen
    cdef int avail[5]
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
        total = <int>s.token_limit - u.room  # the tokens the player holds
        key = 0
        for j in range(na):
            key |= 1 << avail[j]
        if u.room >= k:  # nothing given back: every set of k colours
            bits[0] |= FULL_TAKES[key]
        else:
            # ``size`` colours kept and the others taken given back: all of
            # them when nothing more is, else the sets of colours whose
            # tokens leave the player enough others to give back.
            net = u.room
            bits[0] |= PART_ALL[key][net]
            for size in range(net + 1, k + 1):
                extra = size - net
                for i in range(PART_N[key][size]):
                    # The player's tokens of the colours kept: their bytes of t_word.
                    chosen = splendor_byte_sum(u.t_word & COLOUR_BYTES[PART_KEPT[key][size][i]])
                    if total - chosen >= extra:
                        bits[0] |= PART_BIT[key][size][i]
        n = 2 - (u.room if u.room < 2 else 2)
        for c in range(5):
            if u.bank[c] > 3 and (n == 0 or total - u.t[c] >= n):
                set_bit(bits, A_DOUBLE + c)

    # Reserves (with or without tokens given back, there is one of each).
    if u.nres < s.reserve_limit:
        set_bits(bits, A_RESERVE_BOARD, splendor_filled(s.board))
        set_bits(bits, A_RESERVE_DECK, (s.seg[0] != 0) | (s.seg[1] != 0) << 1 | (s.seg[2] != 0) << 2)

    # Buys: the board's four at a time (see splendor_affordable), then the reserved cards.
    set_bits(bits, A_BUY_BOARD, splendor_affordable(s.board, C_COST_BYTES, u.e_bytes, u.gold))
    for i in range(u.nres):
        if can_buy(&u, s.cards[u.start + i] & 0x7F):
            set_bit(bits, A_BUY_RESERVED + i)

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


# -- The decisions of one turn ------------------------------------------------------

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


#: The size in bytes of the decisions of one game's turn (the first moves of
#: its chosen move code in place).
DECISIONS_SIZE = sizeof(Decider)

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


cdef reserved_error(const KState* s):
    raise EncodingError(
        f"the encoding tells apart at most {A_RESERVED_SLOTS} reserved cards; "
        f"the player holds {s.seg[3 + 2 * s.current]}"
    )
