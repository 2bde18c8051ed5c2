/* dyn_memo.c - the dynamic searches of the last position, carried over to
 * the next one where they cannot have changed.
 *
 * The dynamic forcing chains and nets search from every premise (a
 * candidate assumed true or false) and read only what the search found:
 * broken, or the literals it derived. Along a puzzle's path the grid loses
 * a few candidates between two such finds, and most searches do not look
 * at them. A search (sdk_dyn_run without group or ALS links) reads the grid
 * only through its candidates: for each literal it derives on candidate
 * (c, d), the candidates of cell c (the cell's single, its other digits made
 * false) and digit d's places in c's houses (the hidden singles, the peers
 * made false). Everything else it does (the order of its queue, when it
 * stops) follows from what it read. So if every candidate it read is the
 * same on the new grid, the same search runs there, step for step, and
 * ends with the same result: kept. Only the premises whose search read a
 * changed candidate are searched again. The literals derived give a
 * superset of what was read before a contradiction stopped the search
 * (those not yet taken from the queue), which only keeps less.
 *
 * The read set is kept per premise as nine bitboards, one per digit: the
 * cells whose candidate of that digit the search read (the derived
 * literals' cells, for every digit, and their houses for the literal's own
 * digit). The position's change is nine bitboards too: the cells where a
 * digit's candidate differs (either way: the memo does not assume that the
 * new grid follows the old one). An exact match costs nothing either.
 *
 * A premise "k false" whose strong partner "q true" stands for it (they
 * imply each other: a bivalue cell, or a house with two places of the
 * digit) takes q's entry and q's read set; that set holds the cell or the
 * house that makes them partners, so while it is unchanged they still are.
 *
 * The memo wants only a search's outcome, and with plain links (flags 0)
 * that does not depend on the order of the search: its rules (a true
 * candidate makes its cell's other candidates and its peers of the digit
 * false; a cell with one candidate left, or a house with one place left for
 * the digit, makes it true) only add literals, so what a premise derives
 * when nothing stops it is one closure, and the search breaks exactly when
 * that closure does (a candidate both true and false, a cell without
 * candidate, a digit without place in a house: the search meets the clash
 * when it derives the second literal, and the empty cell or house when it
 * takes the last false one from its queue). So the memo fills those entries
 * by closure_run() below, which keeps no reasons, depths or grid copy and
 * makes a true literal's peers false a bitboard at a time; sdk_dyn_run()
 * is left for the chains of a step. test_dyn_memo compares the entries with
 * sdk_dyn_run() from scratch.
 *
 * A read candidate that changed need not drop an open entry either, when
 * the new grid is settled (no cell with one candidate, no digit with one
 * place in a house) and the change is a candidate removed that the search
 * itself made false: the old closure without such candidates is closed
 * under the rules on the new grid (a cell or house has the same candidates
 * left alive as before) and each of its literals is still derived (a single
 * the old search drew from a removed candidate's falsity comes from the
 * cell's or house's other candidates, which the settled grid has). So
 * the entry is kept without those candidates, its read set as it was (a
 * larger set only keeps less later). test_dyn_memo checks these entries
 * too, and fails when any of the three conditions is left out.
 *
 * Within one position the memo is what the dynamic forcing chain, forcing
 * net contradiction and verity share (they run one after the other on a
 * position whenever the earlier ones find nothing). Two slots per thread
 * keep apart positions that do not follow each other
 * (the nested forcing chain's propagations run their own path from each
 * assumption). */
#include <string.h>
#include "dyn_memo.h"

static _Thread_local dyn_memo memos[2];

/* The cells where digit d's candidate differs between the memo's position
 * and g, per digit; true when there is any. */
static bool position_change(const dyn_memo *m, const sdk_grid *g, sdk_bb change[9])
{
    bool any = false;
    for (int d = 0; d < 9; d++) {
        change[d].lo = m->digit[d].lo ^ g->digit[d].lo;
        change[d].hi = m->digit[d].hi ^ g->digit[d].hi;
    }
    for (int c = 0; c < SDK_CELLS; c++) {
        unsigned x = (unsigned)(m->cand[c] ^ g->cand[c]);
        SDK_MASK_FOREACH(d, x) sdk_bb_add(&change[d - 1], c);
    }
    for (int d = 0; d < 9; d++) any |= !sdk_bb_empty(change[d]);
    return any;
}

/* The candidates counted in a change (position_change). */
static int change_size(const sdk_bb change[9])
{
    int n = 0;
    for (int d = 0; d < 9; d++) n += sdk_bb_count(change[d]);
    return n;
}

/* No cell with one candidate, no digit with one place in a house: the
 * singles are all applied (trim_on in keep_unchanged). */
static bool settled(const sdk_grid *g)
{
    for (int c = 0; c < SDK_CELLS; c++)
        if (sdk_mask_count(g->cand[c]) == 1) return false;
    for (int h = 0; h < 27; h++)
        for (int d = 1; d <= 9; d++)
            if (sdk_bb_count(sdk_house_digit(g, h, d)) == 1) return false;
    return true;
}

/* Carry src's entries whose search read nothing in change into dst (which
 * may be src), the others unknown. With trim_on (plain links: the new
 * grid, when it is settled, see the header) an open entry whose search read changed
 * candidates is kept too when each of them is a candidate removed since
 * and one the search made false: its closure on the new grid is the old one
 * without them. */
static void keep_unchanged(dyn_memo *dst, const dyn_memo *src, const sdk_bb change[9],
                           const sdk_grid *trim_on)
{
    int trim = -1; /* trim_on is settled: 1, 0, or -1 until an entry asks */
    int digits[9], nd = 0;
    for (int d = 0; d < 9; d++)
        if (!sdk_bb_empty(change[d])) digits[nd++] = d;
    for (int p = 0; p < 2 * SDK_NCAND; p++) {
        uint8_t state = src->state[p];
        sdk_bb cut[9];
        unsigned cut_digits = 0;
        for (int i = 0; i < nd && state != DYN_UNKNOWN; i++) {
            int d = digits[i];
            sdk_bb x = sdk_bb_and(src->read[p][d], change[d]);
            if (sdk_bb_empty(x)) continue;
            /* removed: a candidate of src's position (change is both ways) */
            if (!trim_on || state != DYN_OPEN || !sdk_bb_empty(sdk_bb_andnot(x, src->digit[d]))) {
                state = DYN_UNKNOWN;
                break;
            }
            SDK_BB_FOREACH(c, x)
                if (c * 9 + d == p >> 1 || !cs_has(&src->off[p], c * 9 + d)) state = DYN_UNKNOWN;
            if (state == DYN_UNKNOWN) break;
            if (trim < 0) trim = settled(trim_on);
            if (!trim) {
                state = DYN_UNKNOWN;
                break;
            }
            cut[d] = x;
            cut_digits |= 1u << d;
        }
        dst->state[p] = state;
        if (state == DYN_UNKNOWN) continue;
        dst->kept++;
        if (dst != src) {
            dst->borrowed++;
            dst->on[p] = src->on[p];
            dst->off[p] = src->off[p];
            memcpy(dst->read[p], src->read[p], sizeof dst->read[p]);
        }
        if (!cut_digits) continue;
        dst->trimmed++;
        for (int d = 0; d < 9; d++) /* the read set stays (a superset only keeps less) */
            if (cut_digits >> d & 1)
                SDK_BB_FOREACH(c, cut[d]) cs_del(&dst->off[p], c * 9 + d);
    }
}

dyn_memo *dyn_memo_for(const sdk_grid *g, unsigned flags, int slot)
{
    dyn_memo *m = &memos[slot ? 1 : 0];
    /* group and ALS links read more of the grid: kept only while it is the same */
    bool carry = !(flags & (SDK_DYN_LOCKED | SDK_DYN_ALS));
    sdk_bb change[9];
    bool mine = m->used && m->flags == flags;
    if (mine && !position_change(m, g, change)) return m;
    /* A nested propagation starts near the main path's position (slot 0)
     * and far from where the last propagation ended: the entries come from
     * the memo whose position differs from g in fewer candidates (either
     * memo's kept entries are exact for g; this only chooses which keeps
     * more). */
    const dyn_memo *from = mine ? m : NULL;
    const dyn_memo *top = &memos[0];
    sdk_bb top_change[9];
    if (slot && carry && top->used && top->flags == flags) {
        position_change(top, g, top_change);
        if (!from || change_size(top_change) < change_size(change)) {
            from = top;
            memcpy(change, top_change, sizeof change);
        }
    }
    if (from && carry)
        keep_unchanged(m, from, change, flags == 0 ? g : NULL);
    else
        memset(m->state, DYN_UNKNOWN, sizeof m->state);
    m->used = true;
    m->flags = flags;
    memcpy(m->cand, g->cand, sizeof m->cand);
    memcpy(m->digit, g->digit, sizeof m->digit);
    return m;
}

/* The closure of a premise with plain links: per digit the cells derived
 * true and false, and the literals derived in order (the queue). */
typedef struct closure {
    sdk_bb on[9], off[9];
    uint16_t off_cell[SDK_CELLS]; /* per cell its digits derived false */
    int16_t lit[SDK_NCAND + 1];
    int n, head;
} closure;

/* Derive lit; false when its candidate has the other value (a clash). */
static inline bool derive(closure *s, int lit)
{
    int k = lit >> 1, c = k / 9, x = k % 9;
    sdk_bb *mine = (lit & 1) ? &s->on[x] : &s->off[x];
    const sdk_bb *other = (lit & 1) ? &s->off[x] : &s->on[x];
    if (sdk_bb_has(*mine, c)) return true;
    if (sdk_bb_has(*other, c)) return false;
    sdk_bb_add(mine, c);
    if (!(lit & 1)) s->off_cell[c] |= (uint16_t)(1u << x);
    s->lit[s->n++] = (int16_t)lit;
    return true;
}

/* What premise p derives on g with plain links (sdk_dyn_run's rules with
 * flags 0), into s; true when it breaks the grid. */
static bool closure_run(const sdk_grid *g, int p, closure *s)
{
    memset(s->on, 0, sizeof s->on);
    memset(s->off, 0, sizeof s->off);
    memset(s->off_cell, 0, sizeof s->off_cell);
    s->n = s->head = 0;
    derive(s, p);
    while (s->head < s->n) {
        int lit = s->lit[s->head++], k = lit >> 1, c = k / 9, dg = k % 9 + 1;
        if (lit & 1) {
            /* the cell's other candidates, then the digit's peers */
            unsigned others = g->cand[c] & ~sdk_digit_bit(dg);
            SDK_MASK_FOREACH(e, others)
                if (!derive(s, 2 * (c * 9 + e - 1))) return true;
            sdk_bb peers = sdk_bb_and(sdk_peer_bb[c], g->digit[dg - 1]);
            if (!sdk_bb_empty(sdk_bb_and(peers, s->on[dg - 1]))) return true;
            sdk_bb fresh = sdk_bb_andnot(peers, s->off[dg - 1]);
            s->off[dg - 1] = sdk_bb_or(s->off[dg - 1], fresh);
            SDK_BB_FOREACH(x, fresh) {
                s->off_cell[x] |= (uint16_t)sdk_digit_bit(dg);
                s->lit[s->n++] = (int16_t)(2 * (x * 9 + dg - 1));
            }
            continue;
        }
        unsigned left = g->cand[c] & ~(unsigned)s->off_cell[c];
        if (!left) return true;
        if (sdk_mask_count(left) == 1 && !derive(s, 2 * (c * 9 + sdk_mask_first(left) - 1) + 1))
            return true;
        for (int i = 0; i < 3; i++) {
            sdk_bb r = sdk_bb_andnot(sdk_house_digit(g, sdk_cell_house[c][i], dg), s->off[dg - 1]);
            int n = sdk_bb_count(r);
            if (n == 0) return true;
            if (n == 1 && !derive(s, 2 * (sdk_bb_first(r) * 9 + dg - 1) + 1)) return true;
        }
    }
    return false;
}

bool dyn_memo_fill(dyn_memo *m, const sdk_grid *g, int p, sdk_dyn *d)
{
    if (m->state[p] != DYN_UNKNOWN) return false;
    int k = p >> 1;
    const int16_t *order;
    int n;
    bool broken, ran = false;
    closure s;
    if (m->flags == 0) {
        broken = closure_run(g, p, &s);
        order = s.lit;
        n = s.n;
    } else {
        broken = sdk_dyn_run(g, k / 9, k % 9 + 1, p & 1, m->flags, NULL, d);
        order = d->order;
        n = d->n;
        ran = true;
    }
    m->searched++;
    m->state[p] = broken ? DYN_BROKEN : DYN_OPEN;
    cset *on = &m->on[p], *off = &m->off[p];
    memset(on, 0, sizeof *on);
    memset(off, 0, sizeof *off);
    sdk_bb cells = sdk_bb_none(), houses[9];
    for (int x = 0; x < 9; x++) houses[x] = sdk_bb_none();
    for (int i = 0; i < n; i++) {
        int l = order[i], kk = l >> 1, c = kk / 9, x = kk % 9;
        cs_add((l & 1) ? on : off, kk);
        sdk_bb_add(&cells, c);
        houses[x] = sdk_bb_or(houses[x], sdk_peer_bb[c]);
    }
    for (int x = 0; x < 9; x++) m->read[p][x] = sdk_bb_or(houses[x], cells);
    return ran;
}

void dyn_memo_share(dyn_memo *m, int p, int q)
{
    m->state[p] = m->state[q];
    m->on[p] = m->on[q];
    m->off[p] = m->off[q];
    memcpy(m->read[p], m->read[q], sizeof m->read[p]);
}

/* The partner rule dyn_memo_share's callers rely on (dyn_memo.h). */
int dyn_strong_partner(const sdk_grid *g, int k)
{
    int c = k / 9, d = k % 9 + 1;
    if (sdk_mask_count(g->cand[c]) == 2)
        return c * 9 + sdk_mask_first(g->cand[c] & ~(1u << (d - 1))) - 1;
    for (int i = 0; i < 3; i++) {
        sdk_bb h = sdk_house_digit(g, sdk_cell_house[c][i], d);
        if (sdk_bb_count(h) != 2) continue;
        sdk_bb_del(&h, c);
        return sdk_bb_first(h) * 9 + d - 1;
    }
    return -1;
}
