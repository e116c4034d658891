# The search of splendor.players.search.SearchBot, in C.
#
# Mirrors splendor.fast.search_reference line for line: the same draws from
# SplitMix64, the same doubles computed in the same order (the kernel is
# compiled with -ffp-contract=off), the same ties broken the same way, so
# that for a seed and an iteration budget both play the same move and report
# the same figures. tests/fast/test_search.py compares them. The
# evaluations it calls (the heuristic's, the value network's, the move
# policy's) are in _evaluation.pxi. Included into _kernel.pyx after it.

from libc.math cimport INFINITY, ceil, exp, log, sqrt
from libc.stdint cimport int8_t, int32_t, uint32_t
from libc.stdlib cimport calloc
from time import perf_counter as _perf_counter

from splendor.fast import search_reference as _search_reference
from splendor.fast.network import MOVE_FEATURES as _MOVE_FEATURES
from splendor.fast.network import PolicyNetwork as _PolicyNetwork
from splendor.fast.network import ValueNetwork as _ValueNetwork
from splendor.fast.search_reference import SearchOutcome

cdef int64_t S_MAX_ITERATIONS = _search_reference.MAX_ITERATIONS
cdef int S_AIMS = _search_reference.AIMS
_fits(1 <= S_AIMS <= 4, "the prior aims at 1 to 4 cards")
cdef int S_MAX_ROUNDS = _search_reference.MAX_ROLLOUT_ROUNDS
cdef double SW_BONUS = _search_reference.W_BONUS
cdef double SW_TOKEN = _search_reference.W_TOKEN
cdef double SW_GOLD = _search_reference.W_GOLD
cdef double SW_NOBLE = _search_reference.W_NOBLE
cdef double SW_REACH = _search_reference.W_REACH
# Iterations between two looks at the clock and at pending signals.
cdef int S_CHUNK = _search_reference.CHUNK

ctypedef struct SNode:
    Move move
    double reward  # the rewards of player, who chose move
    uint32_t visits
    uint32_t available
    int32_t child  # the newest child, -1 for none
    int32_t sibling  # the next older sibling, -1 for none
    int32_t hint  # where move stood in the listing when last met
    int32_t g  # where the policy's state part for this node starts in the pool, -1 for none
    int8_t player

ctypedef struct STree:
    SNode* nodes
    int32_t n
    int32_t cap


cdef inline bint same_move(const Move* a, const Move* b) noexcept nogil:
    """Whether a and b are the same action (src follows from the card)."""
    return (
        a.kind == b.kind and a.card == b.card and a.noble == b.noble
        and memcmp(a.tok, b.tok, 6) == 0 and memcmp(a.ret, b.ret, 6) == 0
    )


cdef inline int32_t s_new(STree* t, const Move* m, int player) noexcept nogil:
    """A new node for m chosen by player, or -1 when memory ran out."""
    cdef SNode* grown
    cdef int32_t cap
    if t.n == t.cap:
        cap = t.cap * 2
        grown = <SNode*>realloc(t.nodes, cap * sizeof(SNode))
        if grown == NULL:
            return -1
        t.nodes = grown
        t.cap = cap
    cdef SNode* node = &t.nodes[t.n]
    if m != NULL:
        node.move = m[0]
    else:
        memset(&node.move, 0, sizeof(Move))
    node.reward = 0.0
    node.visits = 0
    node.available = 0
    node.child = -1
    node.sibling = -1
    node.hint = 0
    node.g = -1
    node.player = player
    t.n += 1
    return t.n - 1


ctypedef struct SAims:
    # What priors() works out once per state: the player's bonuses and
    # tokens, the nobles' pull, and the cards a take aims at.
    int bonus[5]
    int gold  # the player's gold tokens
    # The player's gem tokens, a byte a colour, each capped at S_HELD_CAP (a
    # card costs at most 7 of a colour, so the shortfalls are the same).
    uint64_t held_bytes
    double pull[5]
    int n_aims
    double weight[4]
    int gap[4]
    uint64_t need_bytes[4]  # what each aim costs after the bonuses, a byte a colour
    int gold_left
    int n_reserved


cdef enum:
    S_HELD_CAP = 100
    S_PICK_KEEP = 128


cdef inline uint64_t s_bytes5(const uint8_t* counts, int cap) noexcept nogil:
    """The first five ``counts``, each capped at ``cap`` (below 128), a byte each."""
    cdef uint64_t out = 0
    cdef int c
    for c in range(5):
        out |= (<uint64_t>(counts[c] if counts[c] < cap else cap)) << (8 * c)
    return out


cdef inline int s_gap(uint64_t need_bytes, uint64_t held_bytes, int gold) noexcept nogil:
    """splendor.fast.heuristics.shortfall: the gems ``held`` leaves short of
    ``need``, less the gold (0 at least)."""
    cdef int short = hsum_bytes(short_bytes(need_bytes, held_bytes))
    return short - gold if short > gold else 0


cdef void s_pull(const KState* s, const int* bonus, double* pull) noexcept nogil:
    """search_reference._pull."""
    cdef int i, c, noble, missing
    cdef double share
    for c in range(5):
        pull[c] = 0.0
    for i in range(s.n_nobles):
        if s.nobles[i] >> 4:
            continue
        noble = s.nobles[i] & 15
        missing = 0
        for c in range(5):
            if N_REQ[noble][c] > bonus[c]:
                missing += N_REQ[noble][c] - bonus[c]
        if missing:
            share = 1.0 / <double>missing
            for c in range(5):
                if N_REQ[noble][c] > bonus[c] and share > pull[c]:
                    pull[c] = share


cdef int s_reach(const KState* s, int p, uint8_t* out) noexcept nogil:
    """search_reference._reach: the face-up cards, then p's reserved ones."""
    cdef int i, k = 0, start
    for i in range(12):
        if s.board[i]:
            out[k] = s.board[i]
            k += 1
    start = seg_start(s, 3 + 2 * p)
    for i in range(s.seg[3 + 2 * p]):
        out[k] = s.cards[start + i] & 0x7F
        k += 1
    return k


cdef void s_aims(const KState* s, SAims* a) noexcept nogil:
    """The part of priors() that depends on the state only."""
    cdef int p = s.current
    cdef int c, i, j, k, n = 0, card
    cdef uint64_t bonus_bytes
    cdef uint64_t need
    cdef int gap
    cdef double weight
    # The S_AIMS heaviest cards in reach (the face-up cards, then p's
    # reserved ones), heaviest first, ties in that order (a stable sort):
    # each card goes in after those at least as heavy.
    cdef int top_gap[4]
    cdef double top_weight[4]
    cdef uint64_t top_need[4]
    cdef uint8_t cards[12 + MAXCARDS]
    for c in range(5):
        a.bonus[c] = s.bonus[p][c]
    a.gold = s.tokens[p][5]
    a.held_bytes = s_bytes5(s.tokens[p], S_HELD_CAP)
    bonus_bytes = s_bytes5(s.bonus[p], 127)
    s_pull(s, a.bonus, a.pull)
    for i in range(s_reach(s, p, cards)):
        card = cards[i]
        need = short_bytes(C_COST_BYTES[card], bonus_bytes)
        gap = s_gap(need, a.held_bytes, a.gold)
        weight = (1.0 + C_POINTS[card] + 1.5 * a.pull[C_BONUS[card]]) / (1.0 + gap)
        j = n if n < S_AIMS else S_AIMS
        while j > 0 and weight > top_weight[j - 1]:
            j -= 1
        if j < S_AIMS:
            k = n if n < S_AIMS - 1 else S_AIMS - 1
            while k > j:
                top_weight[k] = top_weight[k - 1]
                top_gap[k] = top_gap[k - 1]
                top_need[k] = top_need[k - 1]
                k -= 1
            top_weight[j] = weight
            top_gap[j] = gap
            top_need[j] = need
        n += 1
    a.n_aims = n if n < S_AIMS else S_AIMS
    for j in range(a.n_aims):
        a.weight[j] = top_weight[j]
        a.gap[j] = top_gap[j]
        a.need_bytes[j] = top_need[j]
    a.gold_left = 1 if s.bank[5] else 0
    a.n_reserved = s.seg[3 + 2 * p]


cdef inline double s_prior(const Move* m, const SAims* a) noexcept nogil:
    """search_reference.priors for one move."""
    cdef int j, points, colour, total, taken, returned, gold
    cdef uint64_t held
    cdef double value, gain
    if m.kind == K_BUY:
        colour = C_BONUS[m.card]
        points = C_POINTS[m.card]
        value = 10.0 + 4.0 * points + 2.5 * a.pull[colour]
        if m.noble:
            value += 12.0
        if points == 0:
            value += 0.6 * (3 - C_TIER[m.card])
        total = m.tok[0] + m.tok[1] + m.tok[2] + m.tok[3] + m.tok[4] + m.tok[5]
        return value - 0.6 * m.tok[5] - 0.15 * total
    returned = m.ret[0] + m.ret[1] + m.ret[2] + m.ret[3] + m.ret[4] + m.ret[5]
    if m.kind == K_TAKE:
        # What the player holds after the take: its capped gems (a byte each,
        # never below 0: it gives back at most what it holds and takes) and
        # its gold.
        held = a.held_bytes + s_bytes5(m.tok, 127) - s_bytes5(m.ret, 127)
        gold = a.gold + m.tok[5] - m.ret[5]
        gain = 0.0
        for j in range(a.n_aims):
            gain += a.weight[j] * (a.gap[j] - s_gap(a.need_bytes[j], held, gold))
        taken = m.tok[0] + m.tok[1] + m.tok[2] + m.tok[3] + m.tok[4]
        return 2.0 + gain - 0.3 * returned + 0.1 * taken
    if m.kind == K_RESERVE:
        colour = C_BONUS[m.card]
        value = 1.0 + 0.5 * C_POINTS[m.card] + 0.5 * a.gold_left + 0.5 * a.pull[colour]
        return value - 0.3 * returned - 0.1 * a.n_reserved
    if m.kind == K_BLIND:
        return 0.5 - 0.3 * returned
    return 0.0


cdef double s_score(const KState* s, int p) noexcept nogil:
    """search_reference.score."""
    cdef int bonus[5]
    cdef int held[6]
    cdef uint8_t cards[12 + MAXCARDS]
    cdef uint64_t bonus_bytes = s_bytes5(s.bonus[p], 127)
    cdef uint64_t held_bytes = s_bytes5(s.tokens[p], S_HELD_CAP)
    cdef int c, i, n, noble, missing, total
    cdef double value, part, worth, first = 0.0, second = 0.0
    for c in range(5):
        bonus[c] = s.bonus[p][c]
    for c in range(6):
        held[c] = s.tokens[p][c]
    value = <double>s.points[p]
    value += SW_BONUS * (s.seg[4 + 2 * p] if s.seg[4 + 2 * p] < 12 else 12)
    value += SW_TOKEN * (held[0] + held[1] + held[2] + held[3] + held[4]) + SW_GOLD * held[5]
    for i in range(s.n_nobles):
        if s.nobles[i] >> 4:
            continue
        noble = s.nobles[i] & 15
        missing = 0
        total = 0
        for c in range(5):
            total += N_REQ[noble][c]
            if N_REQ[noble][c] > bonus[c]:
                missing += N_REQ[noble][c] - bonus[c]
        part = <double>(total - missing) / <double>total
        value += SW_NOBLE * (part * part)
    n = s_reach(s, p, cards)
    for i in range(n):
        worth = (C_POINTS[cards[i]] + SW_BONUS) / (
            1.0 + s_gap(short_bytes(C_COST_BYTES[cards[i]], bonus_bytes), held_bytes, held[5])
        )
        if worth > first:
            second = first
            first = worth
        elif worth > second:
            second = worth
    return value + SW_REACH * (first + 0.5 * second)


cdef Py_ssize_t s_rollout_pick(const KState* s, const Move* moves, Py_ssize_t n, uint64_t* x) noexcept nogil:
    """search_reference._rollout_pick."""
    cdef SAims a
    cdef Py_ssize_t i, ties = 0, pick
    cdef int c, kind = -1
    cdef double kept[S_PICK_KEEP]  # the priors of the first moves, for the second pass
    cdef bint any_buy = False, any_take = False
    cdef double v, top = 0.0
    for i in range(n):
        if moves[i].kind == K_BUY:
            any_buy = True
            break
    if not any_buy:
        for i in range(n):
            if moves[i].kind == K_TAKE and s_plain_take(&moves[i]):
                any_take = True
                break
    if any_buy:
        # Only buys compete, and a buy's prior needs only the nobles' pull.
        for c in range(5):
            a.bonus[c] = s.bonus[s.current][c]
        s_pull(s, a.bonus, a.pull)
    else:
        s_aims(s, &a)
    for i in range(n):
        if not s_in_pool(&moves[i], any_buy, any_take):
            continue
        v = s_prior(&moves[i], &a)
        if i < S_PICK_KEEP:
            kept[i] = v
        if ties == 0 or v > top:
            top = v
            ties = 1
        elif v == top:
            ties += 1
    pick = 0 if ties == 1 else below(x, ties)
    for i in range(n):
        if not s_in_pool(&moves[i], any_buy, any_take):
            continue
        if (kept[i] if i < S_PICK_KEEP else s_prior(&moves[i], &a)) == top:
            if pick == 0:
                return i
            pick -= 1
    return 0  # not reached: the same values are found again


cdef inline bint s_plain_take(const Move* m) noexcept nogil:
    return (m.ret[0] | m.ret[1] | m.ret[2] | m.ret[3] | m.ret[4] | m.ret[5]) == 0


cdef inline bint s_in_pool(const Move* m, bint any_buy, bint any_take) noexcept nogil:
    if any_buy:
        return m.kind == K_BUY
    if any_take:
        return m.kind == K_TAKE and s_plain_take(m)
    return True


ctypedef struct SDeal:
    # The unseen cards of each tier, by id, and where the blind reserves sit.
    uint8_t pool[3][MAXCARDS]
    int n_pool[3]
    int blind_pos[3][MAXCARDS]  # positions in KState.cards, in seat and slot order
    int n_blind[3]
    int deck_pos[3]


cdef void s_prepare_deal(const KState* s, int seat, SDeal* d) noexcept nogil:
    """search_reference._Dealer.__init__."""
    cdef int tier, p, i, j, start, card, k
    cdef uint8_t tmp
    for tier in range(3):
        d.n_pool[tier] = 0
        d.n_blind[tier] = 0
    for p in range(s.n_players):
        if p == seat:
            continue
        start = seg_start(s, 3 + 2 * p)
        for i in range(s.seg[3 + 2 * p]):
            card = s.cards[start + i]
            if card & BLIND_FLAG:
                tier = C_TIER[card & 0x7F] - 1
                d.blind_pos[tier][d.n_blind[tier]] = start + i
                d.n_blind[tier] += 1
                d.pool[tier][d.n_pool[tier]] = card & 0x7F
                d.n_pool[tier] += 1
    for tier in range(3):
        start = seg_start(s, tier)
        d.deck_pos[tier] = start
        for i in range(s.seg[tier]):
            d.pool[tier][d.n_pool[tier]] = s.cards[start + i]
            d.n_pool[tier] += 1
        # By id (an insertion sort: at most 40 cards).
        k = d.n_pool[tier]
        for i in range(1, k):
            tmp = d.pool[tier][i]
            j = i - 1
            while j >= 0 and d.pool[tier][j] > tmp:
                d.pool[tier][j + 1] = d.pool[tier][j]
                j -= 1
            d.pool[tier][j + 1] = tmp


cdef inline void s_deal(KState* s, const SDeal* d, uint64_t* x) noexcept nogil:
    """search_reference._Dealer.deal, into s (a copy of the template)."""
    cdef uint8_t pool[MAXCARDS]
    cdef int tier, i, j, n, k
    cdef uint8_t tmp
    for tier in range(3):
        n = d.n_pool[tier]
        memcpy(pool, d.pool[tier], n)
        for i in range(n - 1):
            j = i + below(x, n - i)
            tmp = pool[i]
            pool[i] = pool[j]
            pool[j] = tmp
        k = d.n_blind[tier]
        for i in range(k):
            s.cards[d.blind_pos[tier][i]] = pool[i] | BLIND_FLAG
        memcpy(&s.cards[d.deck_pos[tier]], &pool[k], n - k)


cdef int s_rank(const Move* moves, Py_ssize_t n, const SAims* a, const double* g, double* values, int32_t* order, int width) noexcept nogil:
    """search_reference._ranked: the first ``width`` of the moves by prior (by
    the policy with its state part ``g`` unless NULL), ties in the listing's
    order, into order; returns how many."""
    cdef Py_ssize_t i, j, best
    cdef double v
    cdef int k
    if g != NULL:
        for i in range(n):
            values[i] = s_policy_score(&moves[i], a, g)
    else:
        for i in range(n):
            values[i] = s_prior(&moves[i], a)
    if width < 8 and width < n:
        # A few of many: pick the best, then the next best, ...
        for k in range(width):
            best = -1
            for i in range(n):
                if best >= 0 and values[i] <= values[best]:
                    continue
                best = i
            order[k] = <int32_t>best
            values[best] = -INFINITY  # taken (a prior is finite)
        return width
    for i in range(n):
        # Insertion: after every earlier move of at least the same value.
        j = i
        v = values[i]
        while j > 0 and values[order[j - 1]] < v:
            order[j] = order[j - 1]
            j -= 1
        order[j] = <int32_t>i
    return width if width < n else <int>n


cdef int s_grow(Py_ssize_t* cap, Py_ssize_t n, int32_t** slot, int32_t** order, double** values) noexcept nogil:
    """Grow the per-listing arrays of a search to hold n moves; -1 when memory ran out."""
    cdef int32_t* a = <int32_t*>realloc(slot[0], n * sizeof(int32_t))
    if a == NULL:
        return -1
    slot[0] = a
    a = <int32_t*>realloc(order[0], n * sizeof(int32_t))
    if a == NULL:
        return -1
    order[0] = a
    cdef double* v = <double*>realloc(values[0], n * sizeof(double))
    if v == NULL:
        return -1
    values[0] = v
    cap[0] = n
    return 0


cdef double _s_positive(str name, value) except? -1.0:
    """A finite positive number, else the library's error."""
    if type(value) not in (int, float):
        raise InvalidArgumentError(f"{name} must be a positive number, got {value!r}")
    try:
        number = float(value)
    except OverflowError:
        number = float("inf")
    if not 0.0 < number < float("inf"):
        raise InvalidArgumentError(f"{name} must be a positive number, got {value!r}")
    return number


cdef bint s_decided(const STree* tree, int32_t root_n, int64_t remaining) noexcept nogil:
    """search_reference._decided: whether no root move but the most visited
    one could end with the most visits after ``remaining`` more iterations."""
    cdef int64_t top = 0, second = 0, visits
    cdef int32_t child = tree.nodes[0].child
    if root_n == 1:
        return True
    while child >= 0:
        visits = tree.nodes[child].visits
        if visits > top:
            second = top
            top = visits
        elif visits > second:
            second = visits
        child = tree.nodes[child].sibling
    return top - second > remaining


# -- One search: its work, and the four steps of an iteration ------------------------------
#
# An iteration deals the hidden cards (s_deal), then selects and expands
# (s_descend: s_select at a node whose candidates all have children, s_expand
# at the first that has none), rolls out (s_roll_out) and backs up
# (s_back_up), as search_reference.search does. The steps are inline: the C
# compiler makes one loop of them, as fast as one function would be.

ctypedef struct SWork:
    # What a search works with from its start to its end.
    STree tree
    MoveBuf buf  # the moves of the state being walked
    int32_t* path  # the nodes of this iteration, from the root
    Py_ssize_t path_cap
    int32_t* slot  # for each move listed, its child node, -1 for none
    int32_t* order  # the moves listed, ranked
    double* values  # their priors
    Py_ssize_t cap  # the room of slot, order and values
    Move* root_moves  # the root's moves and ranking: the same in every deal
    int32_t* root_order
    int32_t root_n
    double* shares  # per root move, four seats' sums of rewards
    SAims aims
    SNet net
    SPol pol
    bint use_net
    bint use_pol
    int players
    int rollout_rounds
    double exploration
    double widening
    double temperature
    double leaf_weight


cdef void s_work_free(SWork* w) noexcept nogil:
    """Free what a search allocated (all of it NULL in a zeroed SWork)."""
    free(w.buf.data)
    free(w.tree.nodes)
    free(w.path)
    free(w.slot)
    free(w.order)
    free(w.values)
    free(w.shares)
    free(w.root_moves)
    free(w.root_order)
    s_net_close(&w.net)
    s_policy_close(&w.pol)


cdef int s_work_open(SWork* w, KState* origin) except -1:
    """Allocate the buffers of a search from ``origin``, list and rank the
    root's moves, make the root node; MemoryError when memory runs out."""
    cdef const double* g = NULL
    cdef int64_t g_at
    w.buf.data = <Move*>malloc(256 * sizeof(Move))
    w.buf.cap = 256
    w.buf.n = 0
    w.tree.nodes = <SNode*>malloc(1024 * sizeof(SNode))
    w.tree.cap = 1024
    w.tree.n = 0
    w.path_cap = 1024
    w.path = <int32_t*>malloc(w.path_cap * sizeof(int32_t))
    w.cap = 1024
    w.slot = <int32_t*>malloc(w.cap * sizeof(int32_t))
    w.order = <int32_t*>malloc(w.cap * sizeof(int32_t))
    w.values = <double*>malloc(w.cap * sizeof(double))
    if (
        w.buf.data == NULL or w.tree.nodes == NULL or w.path == NULL or w.slot == NULL
        or w.order == NULL or w.values == NULL
    ):
        raise MemoryError()
    if gen(origin, &w.buf) < 0:
        raise MemoryError()
    w.root_n = <int32_t>w.buf.n
    if w.root_n > w.cap and s_grow(&w.cap, w.root_n, &w.slot, &w.order, &w.values) < 0:
        raise MemoryError()
    w.root_moves = <Move*>malloc(w.root_n * sizeof(Move))
    w.root_order = <int32_t*>malloc(w.root_n * sizeof(int32_t))
    if w.root_moves == NULL or w.root_order == NULL:
        raise MemoryError()
    memcpy(w.root_moves, w.buf.data, w.root_n * sizeof(Move))
    s_aims(origin, &w.aims)
    if w.use_pol:
        g_at = s_policy_state(origin, &w.pol)
        if g_at < 0:
            raise MemoryError()
        g = s_policy_load(&w.pol, g_at)
    s_rank(w.root_moves, w.root_n, &w.aims, g, w.values, w.root_order, w.root_n)
    w.shares = <double*>calloc(w.root_n * 4 + 4, sizeof(double))
    if w.shares == NULL:
        raise MemoryError()
    s_new(&w.tree, NULL, -1)
    return 0


cdef inline int s_width(double widening, uint32_t visits) noexcept nogil:
    """How many of a node's ranked moves are candidates after ``visits``
    visits: ceil(widening * sqrt(visits + 1)) in double, at least 2, capped
    (a huge widening admits every move)."""
    cdef double wide = ceil(widening * sqrt(<double>visits + 1))
    return 2 if wide < 2.0 else (1 << 30 if wide > <double>(1 << 30) else <int>wide)


cdef inline void s_root_slots(SWork* w) noexcept nogil:
    """w.slot for the root: its children keep the places of their moves."""
    cdef Py_ssize_t j
    cdef int32_t child
    for j in range(w.root_n):
        w.slot[j] = -1
    child = w.tree.nodes[0].child
    while child >= 0:
        w.slot[w.tree.nodes[child].hint] = child
        child = w.tree.nodes[child].sibling


cdef inline Py_ssize_t s_list(SWork* w, KState* s, int32_t node) noexcept nogil:
    """List the moves of ``s`` at ``node`` (not the root) into w.buf, with
    where each child's move stands in the listing (w.slot, -1 for none) and
    the aims of the seat to move; how many moves, -1 when memory ran out."""
    cdef Py_ssize_t j, n
    cdef int k
    cdef int32_t child
    cdef const Move* moves
    if gen(s, &w.buf) < 0:
        return -1
    moves = w.buf.data
    n = w.buf.n
    if n > w.cap and s_grow(&w.cap, n, &w.slot, &w.order, &w.values) < 0:
        return -1
    for j in range(n):
        w.slot[j] = -1
    child = w.tree.nodes[node].child
    while child >= 0:
        k = w.tree.nodes[child].hint
        if not (k < n and same_move(&moves[k], &w.tree.nodes[child].move)):
            k = -1
            for j in range(n):
                if same_move(&moves[j], &w.tree.nodes[child].move):
                    k = <int>j
                    break
            if k >= 0:
                w.tree.nodes[child].hint = k
        if k >= 0:
            w.slot[k] = child
        child = w.tree.nodes[child].sibling
    s_aims(s, &w.aims)
    return n


cdef inline int s_candidates(SWork* w, KState* s, int32_t node, Py_ssize_t n, int width) noexcept nogil:
    """Rank the ``n`` moves listed at ``node`` into w.order, by the policy when
    the search has one; how many are candidates, -1 when memory ran out."""
    cdef const double* g = NULL
    cdef int64_t g_at
    if w.use_pol:
        if w.tree.nodes[node].g < 0:
            g_at = s_policy_state(s, &w.pol)
            if g_at < 0:
                return -1
            w.tree.nodes[node].g = <int32_t>g_at
        g = s_policy_load(&w.pol, w.tree.nodes[node].g)
    return s_rank(w.buf.data, n, &w.aims, g, w.values, w.order, width)


cdef inline int s_fresh(const SWork* w, const int32_t* ranked, int n_cand) noexcept nogil:
    """The first candidate, in rank order, that has no child yet; -1 for none."""
    cdef int i
    for i in range(n_cand):
        if w.slot[ranked[i]] < 0:
            return ranked[i]
    return -1


cdef inline int32_t s_expand(
    SWork* w, KState* s, int32_t node, const Move* moves, const int32_t* ranked, int n_cand,
    int fresh,
) noexcept nogil:
    """Expand: add the child of ``node`` for the move ``fresh`` (the other
    candidates were available once more) and play it in ``s``; the new
    node, -1 when memory ran out."""
    cdef int i
    cdef int32_t child
    for i in range(n_cand):
        if w.slot[ranked[i]] >= 0:
            w.tree.nodes[w.slot[ranked[i]]].available += 1
    child = s_new(&w.tree, &moves[fresh], s.current)
    if child < 0:
        return -1
    w.tree.nodes[child].available = 1
    w.tree.nodes[child].hint = fresh
    w.tree.nodes[child].sibling = w.tree.nodes[node].child
    w.tree.nodes[node].child = child
    play(s, &moves[fresh])
    return child


cdef inline int32_t s_select(SWork* w, const int32_t* ranked, int n_cand, int* chosen) noexcept nogil:
    """Select: the candidate child with the highest upper confidence bound
    (its mean reward plus the exploration term), the first of equals; each
    candidate was available once more. Its move's index goes to ``chosen``."""
    cdef int i
    cdef int32_t child, best = -1
    cdef double value, best_value = 0.0
    for i in range(n_cand):
        child = w.slot[ranked[i]]
        w.tree.nodes[child].available += 1
        value = w.tree.nodes[child].reward / w.tree.nodes[child].visits + w.exploration * sqrt(
            log(<double>w.tree.nodes[child].available) / w.tree.nodes[child].visits
        )
        if best < 0 or value > best_value:
            best_value = value
            best = child
            chosen[0] = ranked[i]
    return best


cdef inline int64_t s_descend(SWork* w, KState* s) noexcept nogil:
    """Walk ``s`` (a deal of the origin) down the tree from the root: select
    while every candidate of a node has a child, expand at the first node
    where one has none (or stop where the game ends). The nodes walked are
    w.path[0] to w.path[depth]; returns depth, -1 when memory ran out."""
    cdef int32_t node = 0
    cdef int64_t depth = 0
    cdef int32_t* grown
    cdef const Move* moves
    cdef const int32_t* ranked
    cdef Py_ssize_t n
    cdef int width, n_cand, fresh, chosen = 0
    w.path[0] = 0
    while not s.winners:
        if depth + 1 >= w.path_cap:
            w.path_cap *= 2
            grown = <int32_t*>realloc(w.path, w.path_cap * sizeof(int32_t))
            if grown == NULL:
                return -1
            w.path = grown
        width = s_width(w.widening, w.tree.nodes[node].visits)
        if node == 0:
            s_root_slots(w)
            moves = w.root_moves
            ranked = w.root_order
            n_cand = width if width < w.root_n else <int>w.root_n
        else:
            n = s_list(w, s, node)
            if n < 0:
                return -1
            n_cand = s_candidates(w, s, node, n, width)
            if n_cand < 0:
                return -1
            moves = w.buf.data
            ranked = w.order
        fresh = s_fresh(w, ranked, n_cand)
        if fresh >= 0:
            node = s_expand(w, s, node, moves, ranked, n_cand, fresh)
            if node < 0:
                return -1
            depth += 1
            w.path[depth] = node
            return depth
        node = s_select(w, ranked, n_cand, &chosen)
        depth += 1
        w.path[depth] = node
        # This deal's move: the same action, but the card may lie elsewhere
        # than in the deal that made the node.
        play(s, &moves[chosen])
    return depth


cdef inline int s_roll_out(SWork* w, KState* s, uint64_t* x, double* rewards) noexcept nogil:
    """Roll out: play ``s`` to the end of the round, then w.rollout_rounds
    more, by the rollout's policy, and evaluate the end into ``rewards``
    (mixed with the evaluation of the leaf by w.leaf_weight); -1 when memory
    ran out."""
    cdef double leaf_rewards[4]
    cdef int i, players = w.players
    cdef int64_t stop
    cdef bint mixed = w.leaf_weight > 0.0 and not s.winners
    if mixed:
        if w.use_net:
            s_network(s, &w.net, leaf_rewards)
        else:
            s_evaluate(s, w.temperature, leaf_rewards)
    stop = (s.turn // players + 1 + w.rollout_rounds) * players
    if s.turn % players == 0:
        stop -= players
    while not s.winners and s.turn < stop:
        # The rollout's policy picks among the buys when there are any (the
        # last moves gen lists, in its order).
        if gen_buys(s, &w.buf) < 0 or (w.buf.n == 0 and gen(s, &w.buf) < 0):
            return -1
        play(s, &w.buf.data[s_rollout_pick(s, w.buf.data, w.buf.n, x)])
    if w.use_net and not s.winners:
        s_network(s, &w.net, rewards)
    else:
        s_evaluate(s, w.temperature, rewards)
    if mixed:
        for i in range(players):
            rewards[i] = w.leaf_weight * leaf_rewards[i] + (1.0 - w.leaf_weight) * rewards[i]
    return 0


cdef inline void s_back_up(SWork* w, int64_t depth, const double* rewards) noexcept nogil:
    """Back up: a visit to every node of w.path[0..depth], each with the
    reward of the seat that chose its move, and the rewards of every seat to
    the shares of the root move walked."""
    cdef int64_t i
    cdef int32_t node
    cdef int k, p
    for i in range(depth + 1):
        node = w.path[i]
        w.tree.nodes[node].visits += 1
        if w.tree.nodes[node].player >= 0:
            w.tree.nodes[node].reward += rewards[w.tree.nodes[node].player]
    if depth >= 1:
        k = w.tree.nodes[w.path[1]].hint
        for p in range(w.players):
            w.shares[k * 4 + p] += rewards[p]


def search(Game game, seat_, iterations_, seconds, seed, exploration_, widening_,
           rollout_rounds_, temperature_, network=None, stop_early=False, leaf_weight_=0.0,
           policy=None, /):
    """Search from game (see splendor.fast.search_reference.search); ``network``
    is a splendor.fast.network.ValueNetwork for the game's players, or None.

    Every argument is checked (SearchBot checks them first, with its own
    messages): the library's error, never a crash or an endless search.
    """
    cdef KState origin
    cdef KState s
    cdef SWork w
    cdef SDeal deal
    cdef uint64_t x = _seed(seed)
    cdef int seat, players
    cdef int64_t iterations, done = 0, depth, chunk_end
    cdef double rewards[4]
    cdef double deadline = 0.0
    cdef bint timed = seconds is not None, failed = False, early
    cdef const unsigned char[::1] pol_payload
    game._made()
    memcpy(&origin, &game.s, sizeof(KState))
    players = origin.n_players
    if origin.winners:
        raise InvalidArgumentError("the game is over: there is no move to search")
    if type(seat_) is not int or seat_ != origin.current:
        raise InvalidArgumentError(
            f"the search is for the seat to move ({origin.current}), got seat {seat_!r}"
        )
    seat = seat_
    if type(stop_early) is not bool:
        raise InvalidArgumentError(f"stop_early must be True or False, got {stop_early!r}")
    early = stop_early
    if type(iterations_) is not int or not 1 <= iterations_ <= S_MAX_ITERATIONS:
        raise InvalidArgumentError(
            f"iterations must be from 1 to {S_MAX_ITERATIONS}, got {iterations_!r}"
        )
    iterations = iterations_
    if type(rollout_rounds_) is not int or not 0 <= rollout_rounds_ <= S_MAX_ROUNDS:
        raise InvalidArgumentError(
            f"rollout_rounds must be from 0 to {S_MAX_ROUNDS}, got {rollout_rounds_!r}"
        )
    memset(&w, 0, sizeof(SWork))
    w.players = players
    w.rollout_rounds = rollout_rounds_
    w.exploration = _s_positive("exploration", exploration_)
    w.widening = _s_positive("widening", widening_)
    w.temperature = _s_positive("temperature", temperature_)
    if type(leaf_weight_) not in (int, float) or not 0.0 <= leaf_weight_ <= 1.0:
        raise InvalidArgumentError(f"leaf_weight must be a number from 0 to 1, got {leaf_weight_!r}")
    w.leaf_weight = float(leaf_weight_)
    if seconds is not None:
        seconds = _s_positive("seconds", seconds)
    try:
        if network is not None:
            weights = s_net_open(&w.net, network, game, players)  # kept while the search runs
            w.use_net = True
        if policy is not None:
            w.pol.inputs, w.pol.hidden, w.pol.feats, pol_payload = _s_policy_parts(
                policy, game, players
            )
            if not s_policy_open(&w.pol, &pol_payload[0], game._rules.reserve_limit,
                                 game._rules.nobles(players), players, 64):
                raise MemoryError()
            w.use_pol = True
        s_prepare_deal(&origin, seat, &deal)
        s_work_open(&w, &origin)
        if timed:
            deadline = _perf_counter() + <double>seconds
        while done < iterations and not failed:
            if done and timed and _perf_counter() >= deadline:
                break
            if done and early and s_decided(&w.tree, w.root_n, iterations - done):
                break
            chunk_end = done + S_CHUNK
            if chunk_end > iterations:
                chunk_end = iterations
            with nogil:
                while done < chunk_end:
                    memcpy(&s, &origin, sizeof(KState))
                    s_deal(&s, &deal, &x)
                    depth = s_descend(&w, &s)
                    if depth < 0 or s_roll_out(&w, &s, &x, rewards) < 0:
                        failed = True
                        break
                    s_back_up(&w, depth, rewards)
                    done += 1
            if failed:
                raise MemoryError()
            PyErr_CheckSignals()
        return _s_outcome(&w.tree, &origin, w.root_n, w.shares, players, done)
    finally:
        s_work_free(&w)


cdef object _s_outcome(const STree* tree, KState* origin, int32_t root_n, const double* shares, int players, int64_t done):
    """The SearchOutcome of a finished search (search_reference.search's end)."""
    cdef MoveBuf buf
    cdef int32_t child, best, index = -1, node
    cdef int32_t* at = <int32_t*>malloc((root_n + 1) * sizeof(int32_t))
    cdef const SNode* c
    cdef const SNode* o
    cdef int i
    if at == NULL:
        raise MemoryError()
    buf.data = <Move*>malloc(256 * sizeof(Move))
    buf.cap = 256
    buf.n = 0
    try:
        if buf.data == NULL or gen(origin, &buf) < 0:
            raise MemoryError()
        for i in range(root_n):
            at[i] = -1
        child = tree.nodes[0].child
        while child >= 0:
            at[tree.nodes[child].hint] = child  # a root move keeps its place
            child = tree.nodes[child].sibling
        visits = tuple([tree.nodes[at[i]].visits if at[i] >= 0 else 0 for i in range(root_n)])
        for i in range(root_n):
            if at[i] < 0:
                continue
            if index < 0:
                index = i
                continue
            c = &tree.nodes[at[i]]
            o = &tree.nodes[at[index]]
            if c.visits > o.visits or (
                c.visits == o.visits and c.reward / c.visits > o.reward / o.visits
            ):
                index = i
        if index < 0:
            return SearchOutcome(
                0, tuple([1.0 / players] * players), (to_action(&buf.data[0]),), done, visits
            )
        node = at[index]
        win = tuple([shares[index * 4 + i] / tree.nodes[node].visits for i in range(players)])
        pv = [to_action(&buf.data[index])]
        while tree.nodes[node].child >= 0:
            # The child visited most, ties to the better mean, then the oldest
            # (the children run newest first).
            best = -1
            child = tree.nodes[node].child
            while child >= 0:
                c = &tree.nodes[child]
                if best < 0:
                    best = child
                else:
                    o = &tree.nodes[best]
                    if c.visits > o.visits or (
                        c.visits == o.visits and c.reward / c.visits >= o.reward / o.visits
                    ):
                        best = child
                child = tree.nodes[child].sibling
            node = best
            pv.append(to_action(&tree.nodes[node].move))
        return SearchOutcome(index, win, tuple(pv), done, visits)
    finally:
        free(at)
        free(buf.data)


cdef int S_POLICY_FEATS = len(_MOVE_FEATURES)
_fits(S_POLICY_FEATS == 34, "s_policy_score knows 34 move features")


def _s_policy_parts(policy, Game game, int players):
    """The sizes and weights of a PolicyNetwork, checked against the game:
    (inputs, hidden, features, the float32 weights in this machine's order)."""
    if not isinstance(policy, _PolicyNetwork):
        raise InvalidArgumentError(f"policy must be a PolicyNetwork, got {policy!r}")
    inputs, hidden, feats = policy.sizes
    row = observation_size(players, game._rules.reserve_limit, game._rules.nobles(players))
    if policy.players != players or inputs != row - 1 - 2 * A_COUNT:
        raise InvalidArgumentError(
            f"the policy ranks {policy.players}-player moves from {inputs} inputs, not this "
            f"game's ({players} players, {row - 1 - 2 * A_COUNT} inputs under its rules)"
        )
    if feats != S_POLICY_FEATS:
        raise InvalidArgumentError(f"a policy has {S_POLICY_FEATS} move features, not {feats!r}")
    payload = b"".join([part.tobytes() for pair in policy.layers for part in pair])
    return inputs, hidden, feats, payload


def _search_parts(Game game, /):
    """What the search weighs in ``game``'s state: the prior of each legal move,
    each seat's heuristic score and the rollout policy's choice with a seed of
    0 (search_reference.priors, score and _rollout_pick; for the tests)."""
    cdef MoveBuf buf
    cdef SAims aims
    cdef uint64_t x = 0
    cdef KState s
    game._made()
    memcpy(&s, &game.s, sizeof(KState))
    buf.data = <Move*>malloc(256 * sizeof(Move))
    buf.cap = 256
    buf.n = 0
    try:
        if buf.data == NULL or gen(&s, &buf) < 0:
            raise MemoryError()
        s_aims(&s, &aims)
        priors = [s_prior(&buf.data[i], &aims) for i in range(buf.n)]
        scores = [s_score(&s, p) for p in range(s.n_players)]
        pick = s_rollout_pick(&s, buf.data, buf.n, &x) if buf.n else -1
        return priors, scores, pick
    finally:
        free(buf.data)


def _policy_parts(Game game, policy, /):
    """The policy's state part in ``game``'s state and each legal move's score
    under it (network.policy_state and search_reference.policy_scores; for
    the tests)."""
    cdef MoveBuf buf
    cdef SAims aims
    cdef SPol pol
    cdef KState s
    cdef const unsigned char[::1] payload
    cdef const double* g
    cdef int64_t slot
    cdef int players
    cdef bint opened
    game._made()
    memcpy(&s, &game.s, sizeof(KState))
    if s.winners:
        raise InvalidArgumentError("the game is over: no move to rank")
    players = s.n_players
    pol.inputs, pol.hidden, pol.feats, payload = _s_policy_parts(policy, game, players)
    opened = s_policy_open(&pol, &payload[0], game._rules.reserve_limit,
                           game._rules.nobles(players), players, 1)
    buf.data = <Move*>malloc(256 * sizeof(Move))
    buf.cap = 256
    buf.n = 0
    try:
        if not opened or buf.data == NULL:
            raise MemoryError()
        if gen(&s, &buf) < 0:
            raise MemoryError()
        slot = s_policy_state(&s, &pol)
        if slot < 0:
            raise MemoryError()
        g = s_policy_load(&pol, slot)
        s_aims(&s, &aims)
        weights = [g[i] for i in range(pol.feats)]
        scores = [s_policy_score(&buf.data[i], &aims, g) for i in range(buf.n)]
        return weights, scores
    finally:
        s_policy_close(&pol)
        free(buf.data)
