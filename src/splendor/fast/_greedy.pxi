# GreedyBot's choice (splendor.fast.heuristics.greedy_action), in C.
#
# Mirrors greedy_action and its helpers line for line: the same values
# computed with the same double operations in the same order (so the same
# floats, compared for equality the same way: the kernel is compiled with
# -ffp-contract=off, so that no a * b + c is fused into one rounding), with
# the weights read from splendor.fast.heuristics when the kernel is
# imported; the same candidates in the order of the listing, and the same
# calls on the bot's random.Random, made through the generator's own methods
# so that its stream stays that of the bot. tests/fast/test_bot_game.py and
# tools/bot_diff.py compare the two move for move. Included into
# _kernel.pyx.

from splendor.fast import heuristics as _heuristics

# GreedyBot's weights (see _init_greedy).
cdef double W_BUY_POINTS = 0.0
cdef double W_BUY_PULL = 0.0
cdef double W_BUY_DEMAND = 0.0
cdef double W_BUY_GOLD = 0.0
cdef double W_BUY_PAID = 0.0
cdef double W_TARGET_POINTS = 0.0
cdef double W_TAKE_TARGET = 0.0
cdef double W_TAKE_REST = 0.0


def _init_greedy():
    """Read GreedyBot's weights from splendor.fast.heuristics, their one definition."""
    global W_BUY_POINTS, W_BUY_PULL, W_BUY_DEMAND, W_BUY_GOLD, W_BUY_PAID
    global W_TARGET_POINTS, W_TAKE_TARGET, W_TAKE_REST
    W_BUY_POINTS = _heuristics.BUY_POINTS
    W_BUY_PULL = _heuristics.BUY_PULL
    W_BUY_DEMAND = _heuristics.BUY_DEMAND
    W_BUY_GOLD = _heuristics.BUY_GOLD
    W_BUY_PAID = _heuristics.BUY_PAID
    W_TARGET_POINTS = _heuristics.TARGET_POINTS
    W_TAKE_TARGET = _heuristics.TAKE_TARGET
    W_TAKE_REST = _heuristics.TAKE_REST


_init_greedy()

#: GreedyBot's weights as the kernel read them from splendor.fast.heuristics at import.
GREEDY_WEIGHTS = {
    "BUY_POINTS": W_BUY_POINTS,
    "BUY_PULL": W_BUY_PULL,
    "BUY_DEMAND": W_BUY_DEMAND,
    "BUY_GOLD": W_BUY_GOLD,
    "BUY_PAID": W_BUY_PAID,
    "TARGET_POINTS": W_TARGET_POINTS,
    "TAKE_TARGET": W_TAKE_TARGET,
    "TAKE_REST": W_TAKE_REST,
}

cdef enum:
    # The most cards GreedyBot weighs: the face-up cards, then the seat's reserved ones.
    MAX_SEEN = 12 + MAXCARDS


cdef inline int g_missing(const int* need, const int* held) noexcept nogil:
    """heuristics._missing: the tokens still missing to pay ``need``, gold standing in."""
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
    # heuristics._noble_pull over the revealed nobles.
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
    """heuristics._buy_value."""
    cdef int colour = C_BONUS[m.card]
    cdef int points = C_POINTS[m.card] + (N_POINTS[m.noble] if m.noble else 0)
    cdef int gold = m.tok[5]
    cdef int paid = m.tok[0] + m.tok[1] + m.tok[2] + m.tok[3] + m.tok[4] + m.tok[5]
    return (
        W_BUY_POINTS * points + W_BUY_PULL * v.pull[colour] + W_BUY_DEMAND * demand[colour]
        - W_BUY_GOLD * gold - W_BUY_PAID * paid
    )


cdef inline void g_after(const int* held, const Move* m, int* after) noexcept nogil:
    """heuristics._after."""
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
    return -W_TAKE_TARGET * g_missing(v.need[target], after) - W_TAKE_REST * rest


cdef inline double g_value(const Move* m, const Seen* v, const int* demand, int target) noexcept nogil:
    """The value of a buy (bots._buy_value) or of a take (GreedyBot's value())."""
    if m.kind == K_BUY:
        return g_buy_value(m, v, demand)
    return g_take_value(m, v, target)


cdef Py_ssize_t g_best(
    const Move* moves, Py_ssize_t n, int kind, const Seen* v, const int* demand,
    int target, object rng,
) except -1:
    """heuristics._best over the moves of ``kind`` (K_BUY or K_TAKE): the first of
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
            g_missing(v.need[i], v.held) - W_TARGET_POINTS * C_POINTS[v.card[i]]
            - v.pull[C_BONUS[v.card[i]]]
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
    # heuristics._reserve_of: the reservation of a face-up target giving back least gold.
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
