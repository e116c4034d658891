# The observation rows of splendor.fast.observations (splendor.rl.observation), in C.
#
# write_observation writes the row that observations.observe_state returns,
# entry for entry in the order of its _vector; write_mask writes the action
# mask of the legal codes (splendor.rl's mask of encoding.legal_codes). The
# card and noble rows are copied from splendor.fast.layout when the kernel is
# imported, and the sizes of the parts checked against its layout;
# tests/fast/test_decisions.py and tests/fast/test_vector_exact.py compare the
# rows at every decision. Included into _kernel.pyx.

from splendor.core.rules import Rules
from splendor.fast import layout as _layout

cdef enum:
    # The sizes of the parts of a row (checked against the layout at import):
    # compiled in, so that copying a card or a noble row is a few moves.
    OBS_HEAD = 11  # bank (6), deck sizes (3), status (2)
    PLAYER_SIZE = 15  # a player block
    CARD_SIZE = 16  # a card slot
    NOBLE_SIZE = 7  # a noble slot
    BOARD_SLOTS = 12

# The rows of layout._card_table: row 0 an empty slot, then the cards
# by id, then from HIDDEN_ROW + 1 a hidden card of tier 1-3; nobles by id.
cdef float CARD_ROW[MAXCARDS + 4][CARD_SIZE]
cdef float NOBLE_ROW[MAXNOBLES + 1][8]  # padded to 8 floats (see splendor_copy8)
cdef int HIDDEN_ROW = 0


def _init_observations():
    global HIDDEN_ROW
    cdef int i, k
    fields = {field.name: field for field in _layout.observation_layout(2, Rules())}
    _fits(
        fields["players"].start == OBS_HEAD
        and fields["players"].shape[1] == PLAYER_SIZE
        and fields["board"].shape == (BOARD_SLOTS, CARD_SIZE)
        and fields["reserved"].shape[2] == CARD_SIZE
        and fields["nobles"].shape[1] == NOBLE_SIZE
        and fields["decision"].size == 1 + 2 * A_COUNT,
        "it writes the parts of an observation with the sizes of observation_layout",
    )
    cards = _layout.CARD_ROWS
    nobles = _layout.NOBLE_ROWS
    HIDDEN_ROW = _layout.HIDDEN_ROW
    _fits(len(cards) == HIDDEN_ROW + 4 <= MAXCARDS + 4 and len(nobles) <= MAXNOBLES + 1,
          "it holds the card and noble rows of the observation")
    memset(CARD_ROW, 0, sizeof(CARD_ROW))
    memset(NOBLE_ROW, 0, sizeof(NOBLE_ROW))
    for i, row in enumerate(cards):
        for k in range(CARD_SIZE):
            CARD_ROW[i][k] = row[k]
    for i, row in enumerate(nobles):
        for k in range(NOBLE_SIZE):
            NOBLE_ROW[i][k] = row[k]


_init_observations()

cdef extern from *:
    """
    #include <stdint.h>
    #include <string.h>
    #if defined(__SSE2__) || defined(_M_X64) || (defined(_M_IX86_FP) && _M_IX86_FP >= 2)
    #include <emmintrin.h>
    static inline void splendor_floats8(const uint8_t* bytes, float* out) {
        __m128i zero = _mm_setzero_si128();
        __m128i words = _mm_unpacklo_epi8(_mm_loadl_epi64((const __m128i*)bytes), zero);
        _mm_storeu_ps(out, _mm_cvtepi32_ps(_mm_unpacklo_epi16(words, zero)));
        _mm_storeu_ps(out + 4, _mm_cvtepi32_ps(_mm_unpackhi_epi16(words, zero)));
    }
    static inline void splendor_copy8(const float* row, float* out) {
        _mm_storeu_ps(out, _mm_loadu_ps(row));
        _mm_storeu_ps(out + 4, _mm_loadu_ps(row + 4));
    }
    static inline void splendor_copy16(const float* row, float* out) {
        _mm_storeu_ps(out, _mm_loadu_ps(row));
        _mm_storeu_ps(out + 4, _mm_loadu_ps(row + 4));
        _mm_storeu_ps(out + 8, _mm_loadu_ps(row + 8));
        _mm_storeu_ps(out + 12, _mm_loadu_ps(row + 12));
    }
    static inline void splendor_zero16(float* out) {
        __m128 zero = _mm_setzero_ps();
        _mm_storeu_ps(out, zero);
        _mm_storeu_ps(out + 4, zero);
        _mm_storeu_ps(out + 8, zero);
        _mm_storeu_ps(out + 12, zero);
    }
    /* The 16 mask bytes (1 for a bit set, else 0) of the low 16 bits of ``bits``. */
    static inline void splendor_spread16(unsigned bits, int8_t* out) {
        const __m128i select = _mm_set_epi8(-128, 64, 32, 16, 8, 4, 2, 1,
                                            -128, 64, 32, 16, 8, 4, 2, 1);
        __m128i v = _mm_unpacklo_epi64(_mm_set1_epi8((char)(bits & 0xFFu)),
                                       _mm_set1_epi8((char)(bits >> 8 & 0xFFu)));
        __m128i hit = _mm_cmpeq_epi8(_mm_and_si128(v, select), select);
        _mm_storeu_si128((__m128i*)out, _mm_and_si128(hit, _mm_set1_epi8(1)));
    }
    #else
    static inline void splendor_floats8(const uint8_t* bytes, float* out) {
        int k;
        for (k = 0; k < 8; k++) out[k] = (float)bytes[k];
    }
    static inline void splendor_copy8(const float* row, float* out) {
        memcpy(out, row, 8 * sizeof(float));
    }
    static inline void splendor_copy16(const float* row, float* out) {
        memcpy(out, row, 16 * sizeof(float));
    }
    static inline void splendor_zero16(float* out) {
        memset(out, 0, 16 * sizeof(float));
    }
    static inline void splendor_spread16(unsigned bits, int8_t* out) {
        int k;
        for (k = 0; k < 16; k++) out[k] = (int8_t)(bits >> k & 1u);
    }
    #endif
    #if (defined(__GNUC__) || defined(__clang__)) && (defined(__x86_64__) || defined(__i386__)) \
        && defined(__SSE2__)
    #include <immintrin.h>
    #define SPLENDOR_WIDE_SIMD 1
    /* The 16-float rows of ``table`` named by ``ids``, one after the other at
       ``out``: two AVX stores a row. */
    __attribute__((target("avx2")))
    static void splendor_rows_avx2(float* out, const float* table, const uint8_t* ids, int n) {
        int k;
        for (k = 0; k < n; k++) {
            const float* row = table + 16 * (size_t)ids[k];
            _mm256_storeu_ps(out + 16 * k, _mm256_loadu_ps(row));
            _mm256_storeu_ps(out + 16 * k + 8, _mm256_loadu_ps(row + 8));
        }
    }
    /* The 32 bits of the code set ``bits`` (two words) from bit ``at`` (at + 32 <= 128). */
    static inline uint32_t splendor_bits32(const uint64_t* bits, int at) {
        int off = at & 63;
        uint64_t word = bits[at >> 6] >> off;
        if (off > 32)
            word |= bits[(at >> 6) + 1] << (64 - off);
        return (uint32_t)word;
    }
    /* The mask bytes of the codes 0 to ``count`` - 1 of ``bits`` at ``out``:
       32 a store (count >= 32; the last 32 in one store over some written). */
    __attribute__((target("avx2")))
    static void splendor_mask_avx2(const uint64_t* bits, int8_t* out, int count) {
        const __m256i spread = _mm256_setr_epi8(0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1,
                                                2, 2, 2, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 3, 3);
        const __m256i select = _mm256_set1_epi64x((long long)0x8040201008040201ULL);
        const __m256i ones = _mm256_set1_epi8(1);
        int k = 0, at;
        __m256i v;
        for (;;) {
            at = k + 32 <= count ? k : count - 32;
            v = _mm256_shuffle_epi8(_mm256_set1_epi32((int)splendor_bits32(bits, at)), spread);
            v = _mm256_cmpeq_epi8(_mm256_and_si256(v, select), select);
            _mm256_storeu_si256((__m256i*)(out + at), _mm256_and_si256(v, ones));
            k = at + 32;
            if (k >= count)
                break;
        }
    }
    /* The same with AVX-512 (BW and VL): 32 codes a store, each byte set from
       a mask register, the last codes by a masked store (any count up to
       128). 256-bit registers only: the 512-bit ones slow the clock of some
       processors. */
    __attribute__((target("avx512f,avx512bw,avx512vl")))
    static void splendor_mask_avx512(const uint64_t* bits, int8_t* out, int count) {
        const __m256i ones = _mm256_set1_epi8(1);
        int k = 0;
        for (; k + 32 <= count; k += 32)
            _mm256_storeu_si256((__m256i*)(out + k),
                                _mm256_maskz_mov_epi8((__mmask32)splendor_bits32(bits, k), ones));
        if (k < count)  /* k is a multiple of 32: its bits are in one word */
            _mm256_mask_storeu_epi8((void*)(out + k), (__mmask32)(0xFFFFFFFFu >> (32 - (count - k))),
                                    _mm256_maskz_mov_epi8((__mmask32)(bits[k >> 6] >> (k & 63)), ones));
    }
    /* The widest stores this processor (and its system) offers: 2 AVX-512
       (F, BW and VL, used on 256-bit registers) with AVX2, 1 AVX2, 0 no AVX2. */
    static int splendor_wide_level(void) {
        __builtin_cpu_init();
        if (!__builtin_cpu_supports("avx2"))
            return 0;
        if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw")
                && __builtin_cpu_supports("avx512vl"))
            return 2;
        return 1;
    }
    #else
    #define SPLENDOR_WIDE_SIMD 0
    static int splendor_wide_level(void) { return 0; }
    #endif
    /* The rows as above, by the widest stores ``wide`` allows (see splendor_wide_level). */
    static inline void splendor_rows(float* out, const float* table, const uint8_t* ids, int n,
                                     int wide) {
        int k;
    #if SPLENDOR_WIDE_SIMD
        if (wide >= 1) {
            splendor_rows_avx2(out, table, ids, n);
            return;
        }
    #else
        (void)wide;
    #endif
        for (k = 0; k < n; k++)
            memcpy(out + 16 * k, table + 16 * (size_t)ids[k], 16 * sizeof(float));
    }
    /* The mask bytes as above by the widest stores ``wide`` allows; 0 when
       the caller is to write them (no wide stores, or fewer than 32 codes). */
    static inline int splendor_mask_wide(const uint64_t* bits, int8_t* out, int count, int wide) {
    #if SPLENDOR_WIDE_SIMD
        if (wide == 2) {
            splendor_mask_avx512(bits, out, count);
            return 1;
        }
        if (wide == 1 && count >= 32) {
            splendor_mask_avx2(bits, out, count);
            return 1;
        }
    #else
        (void)bits; (void)out; (void)count; (void)wide;
    #endif
        return 0;
    }
    """
    # The 8 bytes from ``bytes`` (all inside one object) as 8 floats at ``out``
    # (SSE2 where the compiler has it).
    void splendor_floats8(const uint8_t* bytes, float* out) noexcept nogil
    # The mask bytes of the low 16 bits of ``bits`` at ``out`` (16 bytes).
    void splendor_spread16(unsigned bits, int8_t* out) noexcept nogil
    # The 8 (16) floats of ``row`` at ``out``; 16 zeros at ``out``.
    void splendor_copy8(const float* row, float* out) noexcept nogil
    void splendor_copy16(const float* row, float* out) noexcept nogil
    void splendor_zero16(float* out) noexcept nogil
    # The 16-float rows of ``table`` of the ``n`` ids at ``out``, in order,
    # by the widest stores ``wide`` allows (a level of splendor_wide_level).
    void splendor_rows(float* out, const float* table, const uint8_t* ids, int n, int wide) noexcept nogil
    # The mask bytes of the first ``count`` codes of ``bits`` at ``out`` by
    # wide stores: 1, or 0 when ``wide`` offers none for them.
    int splendor_mask_wide(const uint64_t* bits, int8_t* out, int count, int wide) noexcept nogil
    # 2 where the processor offers AVX-512 (F, BW, VL) and AVX2, 1 AVX2 alone, else 0.
    int splendor_wide_level() noexcept nogil


# The widest stores the rows and masks use: splendor_wide_level, read once at
# import (a test may lower it with _wide_stores).
cdef int WIDE = splendor_wide_level()
# What the processor offers (the most _wide_stores allows).
cdef int WIDE_MOST = WIDE


def _wide_stores(level=None):
    """The widest stores the masks use (2 AVX-512, 1 AVX2, 0 neither; the
    card rows use AVX2 at 1 and 2); with ``level``, use at most that (never more than the
    processor offers) and return the level used before. For the tests,
    which compare every level's arrays."""
    global WIDE
    cdef int before = WIDE
    if level is not None:
        WIDE = max(0, min(int(level), WIDE_MOST))
    return before


cdef inline void write_mask(const uint64_t* bits, int8_t* out) noexcept nogil:
    """Write the mask of the code set ``bits`` to ``out`` (A_COUNT bytes, 1 for a code in it)."""
    cdef int k, last, off
    cdef uint64_t word
    if splendor_mask_wide(bits, out, A_COUNT, WIDE):
        return
    for k in range(A_COUNT >> 4):
        splendor_spread16(<unsigned>(bits[k >> 2] >> (16 * (k & 3))), &out[16 * k])
    if A_COUNT & 15:
        # The last 16 codes in one store, over some the loop wrote (A_COUNT >= 16).
        last = A_COUNT - 16
        off = last & 63
        word = bits[last >> 6] >> off
        if off > 48:
            word |= bits[(last >> 6) + 1] << (64 - off)
        splendor_spread16(<unsigned>word, &out[last])


cdef inline Py_ssize_t observation_size(int players, Py_ssize_t slots, Py_ssize_t shown) noexcept nogil:
    """The entries of a row (observation_shape) for these players, reserve and noble slots."""
    return (
        OBS_HEAD + PLAYER_SIZE * players + BOARD_SLOTS * CARD_SIZE
        + players * slots * CARD_SIZE + shown * NOBLE_SIZE + 1 + 2 * A_COUNT
    )


cdef int write_observation(
    const KState* s, int seat, const uint8_t* prefix, int n_prefix,
    float* out, Py_ssize_t size, int slots, int shown,
) noexcept nogil:
    """Write ``observation(view(state, seat), prefix)`` to ``out`` (``size``
    floats: the layout of splendor.fast.layout.observation_layout with
    ``slots`` reserve slots and ``shown`` noble slots), as its ``_vector`` does.

    Returns 0; -1 when the layout has not the size of the game's; -2 when a
    player holds more reserved cards than ``slots``; -3 when more nobles are
    revealed than ``shown``.
    """
    cdef int n = s.n_players
    cdef int i, k, c, index, pos, start, count, held, tier, card, v
    cdef Py_ssize_t decision = observation_size(n, slots, shown) - 1 - 2 * A_COUNT
    cdef int tiers[4]
    cdef int received[5]
    cdef int starts[4]
    cdef int blind
    cdef float* row
    cdef int current = -1 if s.winners else s.current
    if size != observation_size(n, slots, shown) or not 0 <= seat < n:
        return -1
    # Every entry is written once (no clearing first: the rows are long).
    splendor_floats8(s.bank, out)  # out[6] and out[7] written over next
    for k in range(3):
        out[6 + k] = s.seg[k]
    out[9] = <float>s.passes
    out[10] = 1.0 if s.winners else 0.0
    # The nobles each seat received (by holder, 0 for the revealed ones) and
    # where each seat's reserved cards start, in one pass each.
    for k in range(5):
        received[k] = 0
    for k in range(s.n_nobles):
        received[s.nobles[k] >> 4] += 1
    start = s.seg[0] + s.seg[1] + s.seg[2]
    for i in range(n):
        starts[i] = start
        start += s.seg[3 + 2 * i] + s.seg[4 + 2 * i]
    index = seat
    for i in range(n):
        row = &out[OBS_HEAD + PLAYER_SIZE * i]
        # Eight bytes at a time, in this order: the tokens' two extra floats
        # are written over by the bonuses, the bonuses' three by what follows
        # (the bytes read past each array are later fields of the KState).
        splendor_floats8(&s.tokens[index][0], row)
        splendor_floats8(&s.bonus[index][0], &row[6])
        row[11] = s.points[index]
        row[12] = s.seg[4 + 2 * index]
        row[13] = received[index + 1]
        row[14] = 1.0 if index == current else 0.0
        index = index + 1 if index + 1 < n else 0
    pos = OBS_HEAD + PLAYER_SIZE * n
    splendor_rows(&out[pos], &CARD_ROW[0][0], s.board, BOARD_SLOTS, WIDE)
    pos += BOARD_SLOTS * CARD_SIZE
    index = seat
    for i in range(n):
        start = starts[index]
        held = s.seg[3 + 2 * index]
        if held > slots:
            return -2
        row = &out[pos]
        if index == seat:
            for k in range(held):
                splendor_copy16(CARD_ROW[s.cards[start + k] & 0x7F], &row[CARD_SIZE * k])
        else:
            # Face-up reserves in the order reserved, then blind ones by tier.
            count = 0
            blind = 0
            for k in range(held):
                card = s.cards[start + k]
                if card & BLIND_FLAG:
                    blind += 1 << 8 * (C_TIER[card & 0x7F] - 1)  # a byte a tier
                else:
                    splendor_copy16(CARD_ROW[card], &row[CARD_SIZE * count])
                    count += 1
            tier = HIDDEN_ROW + 1
            while blind:
                if blind & 255:
                    splendor_copy16(CARD_ROW[tier], &row[CARD_SIZE * count])
                    count += 1
                    blind -= 1
                else:
                    blind >>= 8
                    tier += 1
        for k in range(held, slots):
            splendor_zero16(&row[CARD_SIZE * k])
        pos += slots * CARD_SIZE
        index = index + 1 if index + 1 < n else 0
    # The revealed nobles, 8 floats each: the eighth is the next slot's first,
    # written after it (by the next noble, the zeros or the decision's zeros).
    count = 0
    for k in range(s.n_nobles):
        if s.nobles[k] >> 4 == 0:
            if count == shown:
                return -3
            splendor_copy8(NOBLE_ROW[s.nobles[k] & 15], &out[pos + NOBLE_SIZE * count])
            count += 1
    for k in range(count, shown):
        memset(&out[pos + NOBLE_SIZE * k], 0, NOBLE_SIZE * sizeof(float))
    # The decision's 1 + 2 * A_COUNT entries, by the run-time size: a size
    # known when compiling is inlined as a string instruction, slow to start.
    memset(&out[decision], 0, (size - decision) * sizeof(float))
    if n_prefix:
        out[decision] = n_prefix
        v = prefix[0]
        if v < A_COUNT:
            out[decision + 1 + v] = 1.0
        for k in range(1, n_prefix):
            v = prefix[k]
            if v < A_COUNT:
                out[decision + 1 + A_COUNT + v] += 1.0
    return 0


_BUFFER_ERRORS = (TypeError, ValueError, BufferError)


cdef object _given(out):
    """``out``, to be read as a typed memoryview (which would take None)."""
    if out is None:
        raise TypeError("got None")
    return out


cdef object _not_a_row(str dtype, error):
    return InvalidArgumentError(f"out must be a writable, contiguous {dtype} vector: {error}")


cdef observation_error(int failed):
    if failed == -1:
        raise InvalidArgumentError("the observation buffer does not have the game's layout")
    if failed == -2:
        raise InvalidArgumentError("a player holds more reserved cards than the rules allow")
    raise InvalidArgumentError("more nobles are revealed than the rules reveal")
