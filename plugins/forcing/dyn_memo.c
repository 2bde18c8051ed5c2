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

dyn_memo *dyn_memo_for(const sdk_grid *g, unsigned flags, int slot)
{
    dyn_memo *m = &memos[slot ? 1 : 0];
    /* group and ALS links read more of the grid: kept only while it is the same */
    bool carry = !(flags & (SDK_DYN_LOCKED | SDK_DYN_ALS));
    sdk_bb change[9];
    if (m->used && m->flags == flags) {
        if (!position_change(m, g, change)) return m;
        if (carry) {
            int digits[9], nd = 0;
            for (int d = 0; d < 9; d++)
                if (!sdk_bb_empty(change[d])) digits[nd++] = d;
            for (int p = 0; p < 2 * SDK_NCAND; p++) {
                if (m->state[p] == DYN_UNKNOWN) continue;
                for (int i = 0; i < nd; i++) {
                    int d = digits[i];
                    if ((m->read[p][d].lo & change[d].lo) | (m->read[p][d].hi & change[d].hi)) {
                        m->state[p] = DYN_UNKNOWN;
                        break;
                    }
                }
                if (m->state[p] != DYN_UNKNOWN) m->kept++;
            }
        } else {
            memset(m->state, DYN_UNKNOWN, sizeof m->state);
        }
    } else {
        memset(m->state, DYN_UNKNOWN, sizeof m->state);
    }
    m->used = true;
    m->flags = flags;
    memcpy(m->cand, g->cand, sizeof m->cand);
    memcpy(m->digit, g->digit, sizeof m->digit);
    return m;
}

bool dyn_memo_fill(dyn_memo *m, const sdk_grid *g, int p, sdk_dyn *d)
{
    if (m->state[p] != DYN_UNKNOWN) return false;
    int k = p >> 1;
    bool broken = sdk_dyn_run(g, k / 9, k % 9 + 1, p & 1, m->flags, NULL, d);
    m->searched++;
    m->state[p] = broken ? DYN_BROKEN : DYN_OPEN;
    cset *on = &m->on[p], *off = &m->off[p];
    memset(on, 0, sizeof *on);
    memset(off, 0, sizeof *off);
    sdk_bb cells = sdk_bb_none(), houses[9];
    for (int x = 0; x < 9; x++) houses[x] = sdk_bb_none();
    for (int i = 0; i < d->n; i++) {
        int l = d->order[i], kk = l >> 1, c = kk / 9, x = kk % 9;
        cs_add((l & 1) ? on : off, kk);
        sdk_bb_add(&cells, c);
        houses[x] = sdk_bb_or(houses[x], sdk_peer_bb[c]);
    }
    for (int x = 0; x < 9; x++) m->read[p][x] = sdk_bb_or(houses[x], cells);
    return true;
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
