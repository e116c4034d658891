# The search of splendor.players.search.SearchBot, in C.
#
# Mirrors splendor.fast.search_reference line for line: the same draws from
# SplitMix64, the same doubles computed in the same order (the kernel is
# compiled with -ffp-contract=off), the same ties broken the same way, so
# that for a seed and an iteration budget both play the same move and report
# the same figures. tests/fast/test_search.py compares them. Included into
# _kernel.pyx.

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


cdef enum:
    # The most layers of a value network the search evaluates.
    S_MAX_LAYERS = 6

ctypedef struct SNet:
    # A value network (splendor.fast.network.ValueNetwork): its layer sizes,
    # pointers into its payload (float32 weights, row-major, then biases, per
    # layer), the observation row it reads and two scratch rows.
    int n_layers
    int sizes[S_MAX_LAYERS + 1]
    const float* w[S_MAX_LAYERS]
    const float* b[S_MAX_LAYERS]
    float* row
    Py_ssize_t row_size
    int slots
    int shown
    double* a
    double* z
    int* nz  # the indices of a layer's inputs that are not 0


cdef extern from *:
    """
    #include <stddef.h>
    /* out[j] += in[i] * w[i * outputs + j] for each i of nz in order, for the
       outputs j >= j0: a product rounded, then a sum rounded, output by output
       (the order of evaluate's, whatever the blocking). */
    static void splendor_dense_rest(const double* in, const int* nz, int n_nz, const float* w,
                                    int outputs, int j0, double* out) {
        int j, k;
        for (j = j0; j < outputs; j++) {
            double acc = out[j];
            for (k = 0; k < n_nz; k++)
                acc += in[nz[k]] * (double)w[(size_t)nz[k] * outputs + j];
            out[j] = acc;
        }
    }
    #if (defined(__GNUC__) || defined(__clang__)) && (defined(__x86_64__) || defined(__i386__)) \
        && defined(__SSE2__)
    #include <immintrin.h>
    #define SPLENDOR_DENSE_X86 1
    /* Sixteen outputs at a time in four AVX registers of accumulators (multiply
       and add apart: the target has no FMA). */
    __attribute__((target("avx2")))
    static int splendor_dense_avx2(const double* in, const int* nz, int n_nz, const float* w,
                                   int outputs, double* out) {
        int j = 0, k;
        for (; j + 16 <= outputs; j += 16) {
            __m256d a0 = _mm256_loadu_pd(out + j), a1 = _mm256_loadu_pd(out + j + 4);
            __m256d a2 = _mm256_loadu_pd(out + j + 8), a3 = _mm256_loadu_pd(out + j + 12);
            for (k = 0; k < n_nz; k++) {
                const float* row = w + (size_t)nz[k] * outputs + j;
                __m256d x = _mm256_set1_pd(in[nz[k]]);
                a0 = _mm256_add_pd(a0, _mm256_mul_pd(x, _mm256_cvtps_pd(_mm_loadu_ps(row))));
                a1 = _mm256_add_pd(a1, _mm256_mul_pd(x, _mm256_cvtps_pd(_mm_loadu_ps(row + 4))));
                a2 = _mm256_add_pd(a2, _mm256_mul_pd(x, _mm256_cvtps_pd(_mm_loadu_ps(row + 8))));
                a3 = _mm256_add_pd(a3, _mm256_mul_pd(x, _mm256_cvtps_pd(_mm_loadu_ps(row + 12))));
            }
            _mm256_storeu_pd(out + j, a0);
            _mm256_storeu_pd(out + j + 4, a1);
            _mm256_storeu_pd(out + j + 8, a2);
            _mm256_storeu_pd(out + j + 12, a3);
        }
        return j;
    }
    /* Eight outputs at a time in four SSE2 registers. */
    static int splendor_dense_sse2(const double* in, const int* nz, int n_nz, const float* w,
                                   int outputs, double* out) {
        int j = 0, k;
        for (; j + 8 <= outputs; j += 8) {
            __m128d a0 = _mm_loadu_pd(out + j), a1 = _mm_loadu_pd(out + j + 2);
            __m128d a2 = _mm_loadu_pd(out + j + 4), a3 = _mm_loadu_pd(out + j + 6);
            for (k = 0; k < n_nz; k++) {
                const float* row = w + (size_t)nz[k] * outputs + j;
                __m128d x = _mm_set1_pd(in[nz[k]]);
                __m128 lo = _mm_loadu_ps(row), hi = _mm_loadu_ps(row + 4);
                a0 = _mm_add_pd(a0, _mm_mul_pd(x, _mm_cvtps_pd(lo)));
                a1 = _mm_add_pd(a1, _mm_mul_pd(x, _mm_cvtps_pd(_mm_movehl_ps(lo, lo))));
                a2 = _mm_add_pd(a2, _mm_mul_pd(x, _mm_cvtps_pd(hi)));
                a3 = _mm_add_pd(a3, _mm_mul_pd(x, _mm_cvtps_pd(_mm_movehl_ps(hi, hi))));
            }
            _mm_storeu_pd(out + j, a0);
            _mm_storeu_pd(out + j + 2, a1);
            _mm_storeu_pd(out + j + 4, a2);
            _mm_storeu_pd(out + j + 6, a3);
        }
        return j;
    }
    static int splendor_has_avx2(void) {
        __builtin_cpu_init();
        return __builtin_cpu_supports("avx2");
    }
    #endif
    /* out[j] (each output's bias) += in[i] * w[i * outputs + j] for the inputs
       i that are not 0, in order; nz is scratch for ``inputs`` indices. ``path``:
       2 AVX2, 1 SSE2, 0 neither (as splendor_dense_path answers, or lower). */
    static void splendor_dense(const double* in, int inputs, const float* w, int outputs,
                               double* out, int* nz, int path) {
        int i, n_nz = 0, j0 = 0;
        for (i = 0; i < inputs; i++)
            if (in[i] != 0.0) nz[n_nz++] = i;
    #ifdef SPLENDOR_DENSE_X86
        if (path == 2) j0 = splendor_dense_avx2(in, nz, n_nz, w, outputs, out);
        else if (path == 1) j0 = splendor_dense_sse2(in, nz, n_nz, w, outputs, out);
    #else
        (void)path;
    #endif
        splendor_dense_rest(in, nz, n_nz, w, outputs, j0, out);
    }
    /* The fastest path of splendor_dense this processor runs. */
    static int splendor_dense_path(void) {
    #ifdef SPLENDOR_DENSE_X86
        return splendor_has_avx2() ? 2 : 1;
    #else
        return 0;
    #endif
    }
    """
    # A layer's sums (see the C above): ``out`` holds the biases and gets the
    # products of the inputs that are not 0 added, in order, output by output.
    void splendor_dense(const double* values, int inputs, const float* w, int outputs,
                        double* out, int* nz, int path) noexcept nogil
    # The fastest path of splendor_dense here: 2 AVX2, 1 SSE2, 0 plain C.
    int splendor_dense_path() noexcept nogil


# The path of splendor_dense the search takes (read once, at import).
cdef int S_DENSE = splendor_dense_path()


def _dense_path():
    """The path of the dense layers the search takes here (2 AVX2, 1 SSE2, 0 plain C)."""
    return S_DENSE


def _dense(values, weights, biases, int path):
    """One layer's sums by ``path`` of splendor_dense (2 AVX2, 1 SSE2, 0 plain
    C; a path this processor cannot run is refused): the biases plus, for each
    value that is not 0 in order, the value times its row of ``weights``
    (float32, row-major). For the tests."""
    cdef int inputs = len(values), outputs = len(biases), i
    if path not in (0, 1, 2) or path > S_DENSE:
        raise InvalidArgumentError(f"this processor has no dense path {path!r}")
    cdef array.array w = array.array("f", weights)
    if len(w) != inputs * outputs:
        raise InvalidArgumentError("the weights are not inputs times outputs floats")
    cdef array.array v = array.array("d", values)
    cdef array.array out = array.array("d", biases)
    cdef array.array nz = array.array("i", [0]) * (inputs + 1)
    splendor_dense(v.data.as_doubles, inputs, w.data.as_floats, outputs,
                   out.data.as_doubles, nz.data.as_ints, path)
    return out.tolist()


cdef void s_network(KState* s, const SNet* net, double* rewards) noexcept nogil:
    """splendor.fast.network.evaluate of the observation of the seat to move,
    rotated back to seat order (search_reference._evaluate)."""
    cdef int seat = s.current
    cdef int n = s.n_players
    cdef int layer, i, j, inputs, outputs, k
    cdef double top, total
    cdef double* cur = net.a
    cdef double* nxt = net.z
    cdef double* swap
    write_observation(s, seat, NULL, 0, net.row, net.row_size, net.slots, net.shown)
    inputs = net.sizes[0]
    for i in range(inputs):
        cur[i] = net.row[i]
    for layer in range(net.n_layers):
        outputs = net.sizes[layer + 1]
        for j in range(outputs):
            nxt[j] = net.b[layer][j]
        splendor_dense(cur, inputs, net.w[layer], outputs, nxt, net.nz, S_DENSE)
        if layer < net.n_layers - 1:
            for j in range(outputs):
                if not nxt[j] > 0.0:
                    nxt[j] = 0.0
        swap = cur
        cur = nxt
        nxt = swap
        inputs = outputs
    top = cur[0]
    for k in range(1, n):
        if cur[k] > top:
            top = cur[k]
    for k in range(n):
        nxt[k] = exp(cur[k] - top)
    total = 0.0
    for k in range(n):
        total += nxt[k]
    for k in range(n):
        rewards[(seat + k) % n] = nxt[k] / total


ctypedef struct SPol:
    # A move policy (splendor.fast.network.PolicyNetwork): a hidden layer over
    # the observation row, then one weight per move feature (the state part,
    # kept per node in pool as float32, policy_state's rounding).
    int inputs
    int hidden
    int feats
    const float* w1
    const float* b1
    const float* w2
    const float* b2
    float* row
    Py_ssize_t row_size
    int slots
    int shown
    double* a
    double* h
    double* out
    double* g  # the state part in use, as doubles
    int* nz
    float* pool
    int64_t n_pool  # slots used
    int64_t cap_pool  # slots allocated


cdef bint s_policy_open(SPol* p, const unsigned char* payload, int slots, int shown,
                        int players, int64_t cap) noexcept:
    """Point p (its sizes set) at its weights in ``payload`` and allocate its
    rows and a pool of ``cap`` slots; False when memory ran out (then
    s_policy_close frees what was allocated)."""
    p.w1 = <const float*>payload
    p.b1 = p.w1 + p.inputs * p.hidden
    p.w2 = p.b1 + p.hidden
    p.b2 = p.w2 + p.hidden * p.feats
    p.slots = slots
    p.shown = shown
    p.row_size = observation_size(players, slots, shown)
    p.row = <float*>malloc(p.row_size * sizeof(float))
    p.a = <double*>malloc(p.inputs * sizeof(double))
    p.h = <double*>malloc(p.hidden * sizeof(double))
    p.nz = <int*>malloc((p.inputs + p.hidden) * sizeof(int))
    p.out = <double*>malloc(p.feats * sizeof(double))
    p.g = <double*>malloc(p.feats * sizeof(double))
    p.cap_pool = cap
    p.n_pool = 0
    p.pool = <float*>malloc(cap * p.feats * sizeof(float))
    return not (
        p.row == NULL or p.a == NULL or p.h == NULL or p.nz == NULL
        or p.out == NULL or p.g == NULL or p.pool == NULL
    )


cdef void s_policy_close(SPol* p) noexcept nogil:
    """Free what s_policy_open allocated (free of NULL does nothing)."""
    free(p.row)
    free(p.a)
    free(p.h)
    free(p.nz)
    free(p.out)
    free(p.g)
    free(p.pool)


cdef int64_t s_policy_state(const KState* s, SPol* p) noexcept nogil:
    """network.policy_state for the seat to move in s, kept in a new slot of
    the pool; returns the slot, or -1 when memory ran out."""
    cdef int i
    cdef float* grown
    cdef int64_t at
    if p.n_pool == p.cap_pool:
        grown = <float*>realloc(p.pool, 2 * p.cap_pool * p.feats * sizeof(float))
        if grown == NULL:
            return -1
        p.pool = grown
        p.cap_pool *= 2
    write_observation(s, s.current, NULL, 0, p.row, p.row_size, p.slots, p.shown)
    for i in range(p.inputs):
        p.a[i] = p.row[i]
    for i in range(p.hidden):
        p.h[i] = p.b1[i]
    splendor_dense(p.a, p.inputs, p.w1, p.hidden, p.h, p.nz, S_DENSE)
    for i in range(p.hidden):
        if not p.h[i] > 0.0:
            p.h[i] = 0.0
    for i in range(p.feats):
        p.out[i] = p.b2[i]
    splendor_dense(p.h, p.hidden, p.w2, p.feats, p.out, p.nz, S_DENSE)
    at = p.n_pool * p.feats
    for i in range(p.feats):
        p.pool[at + i] = <float>p.out[i]
    p.n_pool += 1
    return p.n_pool - 1


cdef inline const double* s_policy_load(SPol* p, int64_t slot) noexcept nogil:
    """The state part kept in ``slot``, as doubles (in p.g)."""
    cdef int i
    cdef int64_t at = slot * p.feats
    for i in range(p.feats):
        p.g[i] = p.pool[at + i]
    return p.g


cdef double s_policy_score(const Move* m, const SAims* a, const double* g) noexcept nogil:
    """search_reference.policy_score: the move's features times the state
    part ``g``, feature by feature in order, the features that are 0 left out."""
    cdef double v = 0.0, prior
    cdef int c, card, total, top
    if m.kind == K_BUY or m.kind == K_RESERVE:
        card = m.card
        v += g[0] if m.kind == K_BUY else g[2]
        if C_POINTS[card]:
            v += C_POINTS[card] * g[5]
        v += g[5 + C_TIER[card]]
        v += g[9 + C_BONUS[card]]
        if m.kind == K_BUY:
            if m.src >= 12:
                v += g[14]
            for c in range(6):
                if m.tok[c]:
                    v += m.tok[c] * g[15 + c]
    elif m.kind == K_TAKE:
        v += g[1]
        total = 0
        top = 0
        for c in range(5):
            if m.tok[c]:
                v += m.tok[c] * g[21 + c]
                total += m.tok[c]
                if m.tok[c] > top:
                    top = m.tok[c]
        if top == 2:
            v += g[26]
        if total:
            v += total * g[27]
    elif m.kind == K_BLIND:
        v += g[3]
        v += g[5 + m.card]
    else:
        v += g[4]
    total = m.ret[0] + m.ret[1] + m.ret[2] + m.ret[3] + m.ret[4] + m.ret[5]
    if total:
        v += total * g[28]
    if m.ret[5]:
        v += m.ret[5] * g[29]
    if m.noble:
        v += g[30]
    prior = s_prior(m, a)
    if prior != 0.0:
        v += (prior / 10.0) * g[31]
    if m.kind == K_BUY or m.kind == K_RESERVE:
        total = hsum_bytes(C_COST_BYTES[m.card])
        if total:
            v += (total / 5.0) * g[32]
    if m.kind == K_BUY:
        total = m.tok[0] + m.tok[1] + m.tok[2] + m.tok[3] + m.tok[4] + m.tok[5]
        if total:
            v += total * g[33]
    return v


cdef void s_evaluate(const KState* s, double temperature, double* rewards) noexcept nogil:
    """search_reference._evaluate."""
    cdef int i, n = s.n_players, winners = 0
    cdef double scores[4]
    cdef double top, total, share
    if s.winners:
        for i in range(n):
            if s.winners >> i & 1:
                winners += 1
        share = 1.0 / winners
        for i in range(n):
            rewards[i] = share if s.winners >> i & 1 else 0.0
        return
    for i in range(n):
        scores[i] = s_score(s, i)
    top = scores[0]
    for i in range(1, n):
        if scores[i] > top:
            top = scores[i]
    total = 0.0
    for i in range(n):
        rewards[i] = exp((scores[i] - top) / temperature)
    for i in range(n):
        total += rewards[i]
    for i in range(n):
        rewards[i] = rewards[i] / total


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


def search(Game game, seat_, iterations_, seconds, seed, exploration_, widening_,
           rollout_rounds_, temperature_, network=None, stop_early=False, leaf_weight_=0.0,
           policy=None):
    """Search from game (see splendor.fast.search_reference.search); ``network``
    is a splendor.fast.network.ValueNetwork for the game's players, or None.

    Every argument is checked (SearchBot checks them first, with its own
    messages): the library's error, never a crash or an endless search.
    """
    cdef KState origin
    cdef KState s
    cdef MoveBuf buf
    cdef STree tree
    cdef SDeal deal
    cdef SAims aims
    cdef uint64_t x = _seed(seed)
    cdef int seat, rollout_rounds
    cdef int64_t iterations
    cdef double exploration, widening, temperature, wide
    cdef int players, i, k, width, n_cand, fresh, chosen = 0
    cdef int32_t node, child, best, root_n, found
    cdef int32_t* path = NULL
    cdef int32_t* slot = NULL
    cdef int32_t* order = NULL
    cdef double* values = NULL
    cdef double* shares = NULL
    cdef double rewards[4]
    cdef double leaf_rewards[4]
    cdef double leaf_weight
    cdef double value, best_value, deadline = 0.0
    cdef bint timed = seconds is not None, failed = False, early, mixed
    cdef int64_t done = 0, stop, depth, chunk_end
    cdef Py_ssize_t j, n, cap = 1024, path_cap = 1024
    cdef int32_t* grown_path
    cdef Move* moves
    cdef Move* root_moves = NULL
    cdef int32_t* ranked
    cdef int32_t* root_order = NULL
    cdef SNet net
    cdef bint use_net = network is not None
    cdef SPol pol
    cdef bint use_pol = policy is not None
    cdef const unsigned char[::1] pol_payload
    cdef const double* g = NULL
    cdef int64_t g_at
    cdef const unsigned char[::1] payload
    cdef Py_ssize_t offset, widest
    cdef int layer
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
    rollout_rounds = rollout_rounds_
    exploration = _s_positive("exploration", exploration_)
    widening = _s_positive("widening", widening_)
    temperature = _s_positive("temperature", temperature_)
    if type(leaf_weight_) not in (int, float) or not 0.0 <= leaf_weight_ <= 1.0:
        raise InvalidArgumentError(f"leaf_weight must be a number from 0 to 1, got {leaf_weight_!r}")
    leaf_weight = float(leaf_weight_)
    if seconds is not None:
        seconds = _s_positive("seconds", seconds)
    net.row = NULL
    net.a = NULL
    net.z = NULL
    net.nz = NULL
    if use_net:
        if not isinstance(network, _ValueNetwork):
            raise InvalidArgumentError(f"network must be a ValueNetwork, got {network!r}")
        sizes = tuple(network.sizes)
        if len(sizes) > S_MAX_LAYERS + 1:
            raise InvalidArgumentError(
                f"the kernel evaluates networks of at most {S_MAX_LAYERS} layers, "
                f"not {len(sizes) - 1}"
            )
        if sizes[len(sizes) - 1] != players or min(sizes) < 1:  # (no negative indexing here)
            raise InvalidArgumentError(f"a network for {players} players ends in {players} outputs")
        net.slots = game._rules.reserve_limit
        net.shown = game._rules.nobles(players)
        net.row_size = observation_size(players, net.slots, net.shown)
        if (
            network.players != players or len(sizes) < 2
            or sizes[0] != net.row_size - 1 - 2 * A_COUNT
        ):
            raise InvalidArgumentError(
                f"the network evaluates {network.players}-player positions of {sizes[0]} "
                f"inputs, not this game's ({players} players, "
                f"{net.row_size - 1 - 2 * A_COUNT} inputs under its rules)"
            )
        # The weights in this machine's byte order (the file's payload is
        # little-endian).
        payload = b"".join([part.tobytes() for pair in network.layers for part in pair])
        net.n_layers = len(sizes) - 1
        widest = 0
        offset = 0
        for layer in range(net.n_layers + 1):
            net.sizes[layer] = sizes[layer]
            if sizes[layer] > widest:
                widest = sizes[layer]
        for layer in range(net.n_layers):
            net.w[layer] = <const float*>&payload[offset]
            offset += 4 * sizes[layer] * sizes[layer + 1]
            net.b[layer] = <const float*>&payload[offset]
            offset += 4 * sizes[layer + 1]
        if offset != payload.shape[0]:
            raise InvalidArgumentError("the network's payload does not fit its sizes")
        net.row = <float*>malloc(net.row_size * sizeof(float))
        net.a = <double*>malloc((widest + players) * sizeof(double))
        net.z = <double*>malloc((widest + players) * sizeof(double))
        net.nz = <int*>malloc((widest + players) * sizeof(int))
        if net.row == NULL or net.a == NULL or net.z == NULL or net.nz == NULL:
            free(net.row)
            free(net.a)
            free(net.z)
            free(net.nz)
            raise MemoryError()
    pol.row = NULL
    pol.a = NULL
    pol.h = NULL
    pol.nz = NULL
    pol.out = NULL
    pol.g = NULL
    pol.pool = NULL
    if use_pol:
        pol.inputs, pol.hidden, pol.feats, pol_payload = _s_policy_parts(policy, game, players)
        if not s_policy_open(&pol, &pol_payload[0], game._rules.reserve_limit,
                             game._rules.nobles(players), players, 64):
            s_policy_close(&pol)
            free(net.row)
            free(net.a)
            free(net.z)
            free(net.nz)
            raise MemoryError()
    s_prepare_deal(&origin, seat, &deal)
    buf.data = <Move*>malloc(256 * sizeof(Move))
    buf.cap = 256
    buf.n = 0
    tree.nodes = <SNode*>malloc(1024 * sizeof(SNode))
    tree.cap = 1024
    tree.n = 0
    path = <int32_t*>malloc(path_cap * sizeof(int32_t))
    slot = <int32_t*>malloc(cap * sizeof(int32_t))
    order = <int32_t*>malloc(cap * sizeof(int32_t))
    values = <double*>malloc(cap * sizeof(double))
    try:
        if buf.data == NULL or tree.nodes == NULL or path == NULL or slot == NULL or order == NULL or values == NULL:
            raise MemoryError()
        if gen(&origin, &buf) < 0:
            raise MemoryError()
        root_n = <int32_t>buf.n
        if root_n > cap and s_grow(&cap, root_n, &slot, &order, &values) < 0:
            raise MemoryError()
        root_moves = <Move*>malloc(root_n * sizeof(Move))
        root_order = <int32_t*>malloc(root_n * sizeof(int32_t))
        if root_moves == NULL or root_order == NULL:
            raise MemoryError()
        memcpy(root_moves, buf.data, root_n * sizeof(Move))
        s_aims(&origin, &aims)
        if use_pol:
            g_at = s_policy_state(&origin, &pol)
            if g_at < 0:
                raise MemoryError()
            g = s_policy_load(&pol, g_at)
        s_rank(root_moves, root_n, &aims, g, values, root_order, root_n)
        shares = <double*>calloc(root_n * 4 + 4, sizeof(double))
        if shares == NULL:
            raise MemoryError()
        s_new(&tree, NULL, -1)
        if timed:
            deadline = _perf_counter() + <double>seconds
        while done < iterations and not failed:
            if done and timed and _perf_counter() >= deadline:
                break
            if done and early and s_decided(&tree, root_n, iterations - done):
                break
            chunk_end = done + S_CHUNK
            if chunk_end > iterations:
                chunk_end = iterations
            with nogil:
                while done < chunk_end:
                    memcpy(&s, &origin, sizeof(KState))
                    s_deal(&s, &deal, &x)
                    node = 0
                    depth = 0
                    path[0] = 0
                    while not s.winners:
                        if depth + 1 >= path_cap:
                            path_cap *= 2
                            grown_path = <int32_t*>realloc(path, path_cap * sizeof(int32_t))
                            if grown_path == NULL:
                                failed = True
                                break
                            path = grown_path
                        # ceil in double, then capped (a huge widening admits every move).
                        wide = ceil(widening * sqrt(<double>tree.nodes[node].visits + 1))
                        width = 2 if wide < 2.0 else (1 << 30 if wide > <double>(1 << 30) else <int>wide)
                        if node == 0:
                            # The root: the same moves and ranking in every deal.
                            moves = root_moves
                            n = root_n
                            ranked = root_order
                            for j in range(n):
                                slot[j] = -1
                            child = tree.nodes[0].child
                            while child >= 0:
                                slot[tree.nodes[child].hint] = child
                                child = tree.nodes[child].sibling
                        else:
                            if gen(&s, &buf) < 0:
                                failed = True
                                break
                            moves = buf.data
                            n = buf.n
                            if n > cap and s_grow(&cap, n, &slot, &order, &values) < 0:
                                failed = True
                                break
                            # Where each child's move stands in this listing (-1 for none).
                            for j in range(n):
                                slot[j] = -1
                            child = tree.nodes[node].child
                            while child >= 0:
                                k = tree.nodes[child].hint
                                if not (k < n and same_move(&moves[k], &tree.nodes[child].move)):
                                    k = -1
                                    for j in range(n):
                                        if same_move(&moves[j], &tree.nodes[child].move):
                                            k = <int>j
                                            break
                                    if k >= 0:
                                        tree.nodes[child].hint = k
                                if k >= 0:
                                    slot[k] = child
                                child = tree.nodes[child].sibling
                            s_aims(&s, &aims)
                            ranked = order
                        if node == 0:
                            n_cand = width if width < n else <int>n
                        else:
                            g = NULL
                            if use_pol:
                                if tree.nodes[node].g < 0:
                                    g_at = s_policy_state(&s, &pol)
                                    if g_at < 0:
                                        failed = True
                                        break
                                    tree.nodes[node].g = <int32_t>g_at
                                g = s_policy_load(&pol, tree.nodes[node].g)
                            n_cand = s_rank(moves, n, &aims, g, values, order, width)
                        fresh = -1
                        for i in range(n_cand):
                            if slot[ranked[i]] < 0:
                                fresh = ranked[i]
                                break
                        if fresh >= 0:
                            for i in range(n_cand):
                                if slot[ranked[i]] >= 0:
                                    tree.nodes[slot[ranked[i]]].available += 1
                            child = s_new(&tree, &moves[fresh], s.current)
                            if child < 0:
                                failed = True
                                break
                            tree.nodes[child].available = 1
                            tree.nodes[child].hint = fresh
                            tree.nodes[child].sibling = tree.nodes[node].child
                            tree.nodes[node].child = child
                            depth += 1
                            path[depth] = child
                            play(&s, &moves[fresh])
                            break
                        best = -1
                        best_value = 0.0
                        for i in range(n_cand):
                            child = slot[ranked[i]]
                            tree.nodes[child].available += 1
                            value = tree.nodes[child].reward / tree.nodes[child].visits + exploration * sqrt(
                                log(<double>tree.nodes[child].available) / tree.nodes[child].visits
                            )
                            if best < 0 or value > best_value:
                                best_value = value
                                best = child
                                chosen = ranked[i]
                        node = best
                        depth += 1
                        path[depth] = node
                        # This deal's move: the same action, but the card may
                        # lie elsewhere than in the deal that made the node.
                        play(&s, &moves[chosen])
                    if failed:
                        break
                    mixed = leaf_weight > 0.0 and not s.winners
                    if mixed:
                        if use_net:
                            s_network(&s, &net, leaf_rewards)
                        else:
                            s_evaluate(&s, temperature, leaf_rewards)
                    # Roll out to the end of the round, then rollout_rounds more.
                    stop = (s.turn // players + 1 + rollout_rounds) * players
                    if s.turn % players == 0:
                        stop -= players
                    while not s.winners and s.turn < stop:
                        # The rollout's policy picks among the buys when there
                        # are any (the last moves gen lists, in its order).
                        if gen_buys(&s, &buf) < 0 or (buf.n == 0 and gen(&s, &buf) < 0):
                            failed = True
                            break
                        play(&s, &buf.data[s_rollout_pick(&s, buf.data, buf.n, &x)])
                    if failed:
                        break
                    if use_net and not s.winners:
                        s_network(&s, &net, rewards)
                    else:
                        s_evaluate(&s, temperature, rewards)
                    if mixed:
                        for i in range(players):
                            rewards[i] = leaf_weight * leaf_rewards[i] + (1.0 - leaf_weight) * rewards[i]
                    for i in range(depth + 1):
                        node = path[i]
                        tree.nodes[node].visits += 1
                        if tree.nodes[node].player >= 0:
                            tree.nodes[node].reward += rewards[tree.nodes[node].player]
                    if depth >= 1:
                        k = tree.nodes[path[1]].hint
                        for i in range(players):
                            shares[k * 4 + i] += rewards[i]
                    done += 1
            if failed:
                raise MemoryError()
            PyErr_CheckSignals()
        return _s_outcome(&tree, &origin, root_n, shares, players, done)
    finally:
        free(buf.data)
        free(tree.nodes)
        free(path)
        free(slot)
        free(order)
        free(values)
        free(shares)
        free(root_moves)
        free(root_order)
        free(net.row)
        free(net.a)
        free(net.z)
        free(net.nz)
        s_policy_close(&pol)


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


def _search_parts(Game game):
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


def _policy_parts(Game game, policy):
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
