# The evaluations of the search of splendor.players.search.SearchBot, in C.
#
# The heuristic's rewards of a position (search_reference._evaluate), the
# value network's (splendor.fast.network.evaluate) and the move policy's
# scores (search_reference.policy_score), computed exactly as the Python
# owners compute them (see _search.pxi, which calls them; the tests of
# tests/fast/test_search.py and test_network.py compare them). Reads the
# aims and scores of _search.pxi. Included into _kernel.pyx before it.


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


def _dense(values, weights, biases, int path, /):
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


cdef object s_net_open(SNet* net, network, Game game, int players):
    """Point ``net`` at the value network ``network`` for ``game`` and
    allocate its rows (freed by s_net_close); returns the bytes of its
    weights (in this machine's byte order), which net points into: keep them
    while net is in use.

    Raises InvalidArgumentError for a network that is not a ValueNetwork for
    this game's players and observation row, MemoryError.
    """
    cdef const unsigned char[::1] payload
    cdef Py_ssize_t offset = 0, widest = 0
    cdef int layer
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
    weights = b"".join([part.tobytes() for pair in network.layers for part in pair])
    payload = weights
    net.n_layers = len(sizes) - 1
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
        raise MemoryError()
    return weights


cdef void s_net_close(SNet* net) noexcept nogil:
    """Free the rows s_net_open allocated (free of NULL does nothing)."""
    free(net.row)
    free(net.a)
    free(net.z)
    free(net.nz)
