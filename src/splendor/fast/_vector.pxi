# The games of splendor.fast.vector.VectorEnv, stepped in C (VectorCore).
#
# The batch's games are dealt as splendor.fast.reference.deal_with deals
# (deal), and each step takes one decision code per game (the Deciders of
# _codes.pxi) and writes the rows of _observations.pxi; VectorEnv's pure
# core (vector._PureCore) does the same in Python, and
# tests/fast/test_vector_exact.py compares the two. Included into _kernel.pyx
# after the Python interface (VectorCore.game makes a Game).


# -- Deals of VectorEnv ----------------------------------------------------------------

# The card ids of each tier, and the noble ids, in the order of
# splendor.core.components.CARDS and NOBLES: what a VectorEnv deal shuffles.
cdef uint8_t TIER_IDS[3][MAXCARDS]
cdef int TIER_N[3]
cdef uint8_t NOBLE_IDS[MAXNOBLES]
cdef int NOBLE_N = 0


def _init_deals():
    global NOBLE_N
    cdef int tier
    for tier in range(3):
        TIER_N[tier] = 0
    for card in CARDS:
        tier = card.tier - 1
        TIER_IDS[tier][TIER_N[tier]] = card.id
        TIER_N[tier] += 1
    NOBLE_N = 0
    for noble in NOBLES:
        NOBLE_IDS[NOBLE_N] = noble.id
        NOBLE_N += 1


_init_deals()


cdef void shuffle(uint8_t* items, int n, uint64_t* x) noexcept nogil:
    """Fisher-Yates from the last place down, drawing with ``below``."""
    cdef int i, j
    cdef uint8_t held
    for i in range(n - 1, 0, -1):
        j = <int>below(x, i + 1)
        held = items[i]
        items[i] = items[j]
        items[j] = held


cdef void deal(KState* s, const KState* start, int shown, uint64_t* x) noexcept nogil:
    """Deal ``s`` from ``start`` (an empty table: supply, rules, seats) with
    the generator ``x``: each tier shuffled, its first 4 cards face up, the
    rest its deck, top first; then the nobles shuffled, the first ``shown``
    revealed (splendor.fast.reference.deal_with does the same in Python)."""
    cdef uint8_t cards[MAXCARDS]
    cdef int tier, k, n, pos = 0
    memcpy(s, start, sizeof(KState))
    for tier in range(3):
        n = TIER_N[tier]
        memcpy(cards, TIER_IDS[tier], n)
        shuffle(cards, n, x)
        for k in range(4):
            s.board[tier * 4 + k] = cards[k] if k < n else 0
        for k in range(4, n):
            s.cards[pos] = cards[k]
            pos += 1
        s.seg[tier] = n - 4 if n > 4 else 0
    memcpy(cards, NOBLE_IDS, NOBLE_N)
    shuffle(cards, NOBLE_N, x)
    if shown > NOBLE_N:
        shown = NOBLE_N
    memcpy(s.nobles, cards, shown)
    s.n_nobles = shown


# -- Many games stepped together (splendor.fast.VectorEnv) -----------------------------

cdef extern from *:
    """
    #if defined(__GNUC__) || defined(__clang__)
    #define SPLENDOR_PREFETCH(p) __builtin_prefetch(p)
    #else
    #define SPLENDOR_PREFETCH(p) ((void)0)
    #endif
    """
    # A hint to load memory into the cache ahead of its use (nothing else).
    void SPLENDOR_PREFETCH(const void* p) noexcept nogil


cdef inline void prefetch_bytes(const void* p, Py_ssize_t size) noexcept nogil:
    cdef Py_ssize_t k = 0
    while k < size:
        SPLENDOR_PREFETCH(<const char*>p + k)
        k += 64


cdef class VectorCore:
    """The games of a :class:`splendor.fast.VectorEnv`, stepped in C.

    Each game has its state, the decisions of its turn and its own
    SplitMix64 generator of deals (seeded with the i-th output of
    SplitMix64(seed)). Made and driven by :mod:`splendor.fast.vector`, which
    checks the arguments and allocates the arrays.
    """

    cdef int n_envs
    cdef int n_ready  # deciders allocated
    cdef int slots
    cdef int shown
    cdef Py_ssize_t size
    cdef int64_t max_turns
    cdef bint dealt
    cdef KState start
    cdef KState* states
    cdef Decider* decs
    cdef uint64_t* rngs
    cdef MoveBuf scratch  # where the moves of a turn are generated
    cdef object rules
    cdef bint busy  # a method runs (see _enter)

    def __cinit__(self):
        self.busy = False
        self.states = NULL
        self.decs = NULL
        self.rngs = NULL
        self.scratch.data = NULL
        self.n_ready = 0
        self.dealt = False

    def __dealloc__(self):
        cdef int i
        if self.decs != NULL:
            for i in range(self.n_ready):
                dec_free(&self.decs[i])
        free(self.decs)
        free(self.states)
        free(self.rngs)
        free(self.scratch.data)

    def __init__(self, int num_envs, int players, seed, rules, max_turns, int slots, int shown,
                 Py_ssize_t size):
        cdef int i
        cdef uint64_t x = _seed(seed)
        if num_envs < 1 or slots < 0 or shown < 0 or size < 1:
            raise InvalidArgumentError("a VectorCore needs at least one game and a layout")
        if self.states != NULL:
            raise InvalidArgumentError("a VectorCore is made once")
        table = new_game(players, seed=0, rules=rules)
        load(&self.start, table)
        self.start.seg[0] = self.start.seg[1] = self.start.seg[2] = 0
        memset(self.start.cards, 0, MAXCARDS)
        memset(self.start.board, 0, 12)
        memset(self.start.nobles, 0, MAXNOBLES)
        self.start.n_nobles = 0
        self.rules = table.rules
        self.n_envs = num_envs
        self.slots = slots
        self.shown = shown
        self.size = size
        self.max_turns = MOST_TURNS if max_turns is None else min(max_turns, MOST_TURNS)
        self.states = <KState*>malloc(num_envs * sizeof(KState))
        self.decs = <Decider*>malloc(num_envs * sizeof(Decider))
        self.rngs = <uint64_t*>malloc(num_envs * sizeof(uint64_t))
        self.scratch.data = <Move*>malloc(256 * sizeof(Move))
        if (
            self.states == NULL or self.decs == NULL or self.rngs == NULL
            or self.scratch.data == NULL
        ):
            raise MemoryError()
        self.scratch.cap = 256
        self.scratch.n = 0
        for i in range(num_envs):
            dec_init(&self.decs[i])
            self.n_ready += 1
            self.rngs[i] = splitmix64(&x)

    cdef inline int _enter(self) except -1:
        """Start a method: refuse a call made while another runs (step
        releases the GIL, and two steps at once would write the same games).
        The method clears ``busy`` when it returns."""
        if self.busy:
            raise ConcurrentUseError(_reference._VECTOR_BUSY)
        self.busy = True
        return 0

    cdef int _check(self, obs, masks, seats) except -1:
        if (
            obs.shape[0] != self.n_envs or obs.shape[1] != self.size
            or masks.shape[0] != self.n_envs or masks.shape[1] != A_COUNT
            or seats.shape[0] != self.n_envs
        ):
            raise InvalidArgumentError("the arrays do not have the shapes of the batch")
        return 0

    cdef int _observe(self, int i, bint start, float* obs, int8_t* mask,
                      int64_t* seat) noexcept nogil:
        """Start the turn of game ``i`` if asked, then write its decision.

        Returns 0, or what failed: -2 the reserved cards (see dec_start),
        -11 to -13 the observation (see write_observation)."""
        cdef KState* s = &self.states[i]
        cdef Decider* d = &self.decs[i]
        cdef int failed
        if start:
            failed = dec_start(s, d)
            if failed:
                return failed
        seat[0] = s.current
        write_mask(d.legal, mask)
        failed = write_observation(
            s, s.current, d.prefix, d.n_prefix, obs, self.size, self.slots, self.shown
        )
        return failed - 10 if failed else 0

    cdef _failed(self, int failed, int i):
        """Raise the error of what ``_observe`` returned (-1: a decision ran
        out of memory)."""
        if failed == -1:
            raise MemoryError()
        if failed == -2:
            reserved_error(&self.states[i])
        observation_error(failed + 10)

    def reset(self, float[:, ::1] obs not None, int8_t[:, ::1] masks not None,
              int64_t[::1] seats not None):
        """Deal every game anew and write its first decision."""
        cdef int i = 0, failed = 0
        self._enter()
        try:
            self._check(obs, masks, seats)
            with nogil:
                for i in range(self.n_envs):
                    deal(&self.states[i], &self.start, self.shown, &self.rngs[i])
                    failed = self._observe(i, True, &obs[i, 0], &masks[i, 0], &seats[i])
                    if failed:
                        break
            if failed:
                self._failed(failed, i)
            self.dealt = True
        finally:
            self.busy = False

    def first_illegal(self, const int64_t[::1] codes not None):
        """The index of the first game whose code is not legal, or -1."""
        self._enter()
        try:
            if codes.shape[0] != self.n_envs:
                raise InvalidArgumentError("the codes do not have the shape of the batch")
            return self._first_illegal(&codes[0])
        finally:
            self.busy = False

    cdef Py_ssize_t _first_illegal(self, const int64_t* codes) noexcept nogil:
        cdef Py_ssize_t i
        for i in range(self.n_envs):
            if not has_bit(self.decs[i].legal, codes[i]):
                return i
        return -1

    def step(self, const int64_t[::1] codes not None, float[:, ::1] obs not None,
             int8_t[:, ::1] masks not None, float[:, ::1] rewards not None,
             uint8_t[::1] dones not None, uint8_t[::1] truncated not None,
             int64_t[::1] seats not None):
        """Play one code in every game and write every entry of the arrays;
        -1. When a code is not legal, nothing is played: the index of its game.
        The codes may be read-only."""
        self._enter()
        try:
            return self._step(codes, obs, masks, rewards, dones, truncated, seats)
        finally:
            self.busy = False

    cdef Py_ssize_t _step(self, const int64_t[::1] codes, float[:, ::1] obs,
                          int8_t[:, ::1] masks, float[:, ::1] rewards,
                          uint8_t[::1] dones, uint8_t[::1] truncated,
                          int64_t[::1] seats) except -2:
        cdef int i = 0, seat, n = self.start.n_players, failed = 0
        cdef Py_ssize_t bad
        cdef Py_ssize_t chosen
        cdef KState* s
        cdef Decider* d
        self._check(obs, masks, seats)
        if (
            codes.shape[0] != self.n_envs or rewards.shape[0] != self.n_envs
            or rewards.shape[1] != n or dones.shape[0] != self.n_envs
            or truncated.shape[0] != self.n_envs
        ):
            raise InvalidArgumentError("the arrays do not have the shapes of the batch")
        if not self.dealt:
            raise InvalidArgumentError("call reset() before using the environment")
        bad = self._first_illegal(&codes[0])
        if bad >= 0:
            return bad
        with nogil:
            # Each game takes its decision (and plays its move), then lists its
            # next one, while its state and decisions are in the cache.
            for i in range(self.n_envs):
                # Ask ahead for the memory of the games coming next: the head
                # of the decisions (up to the first move), then the state.
                if i + 8 < self.n_envs:
                    prefetch_bytes(&self.decs[i + 8], DECIDER_HEAD)
                if i + 4 < self.n_envs:
                    prefetch_bytes(&self.states[i + 4], sizeof(KState))
                    d = &self.decs[i + 4]
                    if d.depth >= 0:  # a follow-up: the candidates' codes too
                        prefetch_bytes(d.fol, d.n_cand * MAXF)
                s = &self.states[i]
                d = &self.decs[i]
                chosen = dec_choose(s, d, <int>codes[i], &self.scratch)
                if chosen == -3:
                    failed = -1
                    break
                dones[i] = 0
                truncated[i] = 0
                for seat in range(n):
                    rewards[i, seat] = 0.0
                if chosen >= 0:
                    play(s, dec_move(d, chosen))
                    if s.winners:
                        dones[i] = 1
                        for seat in range(n):
                            rewards[i, seat] = 1.0 if s.winners >> seat & 1 else -1.0
                    elif s.turn >= self.max_turns:
                        dones[i] = 1
                        truncated[i] = 1
                    if dones[i]:
                        deal(s, &self.start, self.shown, &self.rngs[i])
                failed = self._observe(i, chosen >= 0, &obs[i, 0], &masks[i, 0], &seats[i])
                if failed:
                    break
        if failed:
            self._failed(failed, i)
        return -1

    def legal_codes(self, int index):
        """The codes legal now in game ``index``."""
        if not 0 <= index < self.n_envs:
            raise InvalidArgumentError(f"env index {index} is out of range")
        self._enter()
        try:
            return legal_tuple(self.decs[index].legal)
        finally:
            self.busy = False

    def game(self, int index, cls):
        """A copy of game ``index`` as a ``cls`` (a Game of the kernel or of
        splendor.fast.reference), pending codes kept."""
        if not 0 <= index < self.n_envs:
            raise InvalidArgumentError(f"env index {index} is out of range")
        self._enter()
        try:
            return self._game(index, cls)
        finally:
            self.busy = False

    cdef object _game(self, int index, cls):
        cdef Game game
        cdef Decider* d = &self.decs[index]
        if not issubclass(cls, Game):
            # Another implementation of the interface (the pure one): by its state.
            prefix = tuple([d.prefix[k] for k in range(d.n_prefix)])
            other = cls.from_state(dump(&self.states[index], self.rules))
            for code in prefix:
                other.play_code(code)
            return other
        game = Game.__new__(cls)
        memcpy(&game.s, &self.states[index], sizeof(KState))
        game._rules = self.rules
        game._codes = tuple([d.prefix[k] for k in range(d.n_prefix)])
        return game
