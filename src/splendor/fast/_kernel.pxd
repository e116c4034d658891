# cython: language_level=3
"""C declarations of the compiled kernel (see _kernel.pyx)."""

from libc.stdint cimport int64_t, uint8_t, uint16_t, uint64_t

# Segments of KState.cards: the three decks, then each seat's reserved and
# purchased cards.
cdef enum:
    NSEG = 11
    MAXCARDS = 90
    MAXNOBLES = 10
    BLIND_FLAG = 0x80

# Kinds of Move.
cdef enum:
    K_TAKE = 0
    K_RESERVE = 1
    K_BLIND = 2
    K_BUY = 3
    K_PASS = 4

ctypedef struct KState:
    # Card ids (1-90): the decks (top card first), then for each seat its
    # reserved cards (in the order reserved, BLIND_FLAG set on a blind
    # reserve) and its purchased cards (in the order bought).
    uint8_t cards[MAXCARDS]
    # The length of each segment of cards: deck 1, 2, 3, then reserved and
    # purchased of seat 0, 1, 2, 3.
    uint8_t seg[NSEG]
    # The face-up cards, tier by tier, slot by slot (0 for an empty slot).
    uint8_t board[12]
    uint8_t bank[6]
    uint8_t tokens[4][6]
    uint8_t bonus[4][5]
    uint8_t points[4]
    # Noble ids (low 4 bits) with their holder in the high bits (0 for a
    # revealed noble, seat + 1 for a received one): the revealed nobles keep
    # their order, each seat's nobles the order received.
    uint8_t nobles[MAXNOBLES]
    uint8_t n_nobles
    uint8_t n_players
    uint8_t current
    uint8_t winners  # a bit per winning seat; 0 while the game goes on
    uint8_t reserve_limit  # capped at 255 (no one can hold more than 90)
    uint8_t points_to_win  # capped at 255 (no one can score more than 170)
    uint16_t token_limit  # capped at 65535 (no one can hold more than 1530)
    int64_t turn
    int64_t passes

ctypedef struct Move:
    uint8_t kind
    uint8_t card  # the card id (reserve, buy) or the tier (blind reserve)
    uint8_t src  # where the card is: 0-11 a board slot, 12 + i the i-th reserved card
    uint8_t noble  # the noble id received, 0 for none
    uint8_t tok[6]  # the gems taken (take) or the payment (buy)
    uint8_t ret[6]  # the tokens returned

ctypedef struct MoveBuf:
    Move* data
    Py_ssize_t n
    Py_ssize_t cap

# The kernel's core, shared with the other compiled modules of the package
# (``from splendor.fast._kernel cimport gen, play, load, dump``).

# List the legal moves of s into b, in the order of splendor.legal_actions
# (a pass when nothing else is legal; none once the game is over). b must
# come with a malloc'd buffer of cap >= 1 moves; gen grows it with realloc.
# Returns 0, or -1 when the buffer cannot grow.
cdef int gen(KState* s, MoveBuf* b) noexcept nogil
# Play the whole turn m, one of the moves gen listed for s, in place.
cdef void play(KState* s, const Move* m) noexcept nogil
# Fill s from a GameState that passed check_state, each field read once
# (raises for rules the kernel cannot hold, and InvalidStateError for a state
# that breaks a bound of KState: whatever it is given, s keeps them).
cdef load(KState* s, state)
# The GameState of s under rules.
cdef dump(const KState* s, rules)
