# The rules' data in C: the tables of the cards and nobles and the card
# segments of a state.
#
# The rules themselves follow, each in a file of its own, included into
# _kernel.pyx in this order (one compilation unit: the small functions inline
# across the files): _listing.pxi lists the legal moves of a state (gen)
# exactly as splendor.core.legal.legal_actions lists its actions, _play.pxi
# plays one in place (play) exactly as splendor.core.play.apply does, and
# _counting.pxi draws one of them without the whole list (choose). The
# differential tests (tests/fast/test_diff.py, ``nox -s kernel-diff``)
# compare them with the Python owners on random games.

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
