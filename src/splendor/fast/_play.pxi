# The play of a move, as splendor.core.play.apply plays an action, in C.
#
# play plays one of the moves gen lists, in place. Included into _kernel.pyx
# after _listing.pxi.


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
