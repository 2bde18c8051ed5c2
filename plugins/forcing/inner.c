/* inner.c - the inner steps of a nested forcing chain, candidate by candidate.
 *
 * A nested forcing chain assumes a candidate, follows the dynamic chain, then
 * lets the engine apply the profile's earlier techniques (ctx->propagate) until
 * the grid breaks: a cell with no candidate left, a digit with no place in a
 * house, or a digit twice in one. The break needs some candidates gone (or
 * placed); each was removed by one inner step, which stood on candidates that
 * earlier inner steps had removed, and so on. Printing "r6c6 has no candidate
 * left" alone leaves the reader to redo all that.
 *
 * So the propagation is recorded (ctx->propagate_steps): for every step it
 * applies, the candidates it took from the grid and its scope, what its
 * pattern reads: every candidate of the cells it marks, links or acts on, and
 * its digits in the houses it marks and in the houses its one-digit links run
 * in. Then, for each candidate the break needs, the walk goes back from the
 * step that removed it to every earlier step that removed something in its
 * scope, and that sub-chain, in the order applied, goes into the outer step
 * (sdk_step.inner, one sdk_step.claim per candidate). The scope is wider than
 * what a step strictly needs, so a sub-chain may hold a step too many; the
 * replay test (tests/integration/test_explain.py) checks on every nested step
 * that the sub-chain alone does what it claims.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sudoku/alloc.h"
#include "inner.h"

/* A set of candidates: bit cell*9 + digit-1. */
typedef struct cands {
    uint64_t w[12];
} cands;

static void cands_add(cands *s, int cell, int digit)
{
    int k = cell * 9 + digit - 1;
    s->w[k >> 6] |= 1ULL << (k & 63);
}
static bool cands_has(const cands *s, int cell, int digit)
{
    int k = cell * 9 + digit - 1;
    return s->w[k >> 6] >> (k & 63) & 1;
}
static bool cands_meet(const cands *a, const cands *b)
{
    for (int i = 0; i < 12; i++)
        if (a->w[i] & b->w[i]) return true;
    return false;
}

/* One applied step, compact. */
typedef struct inner_rec {
    const sdk_technique *tech;
    size_t text; /* offset in the log's text pool */
    uint8_t nplace, nelim, truncated;
    sdk_cand effect[SDK_INNER_MAX_EFFECT];
    cands scope, removed, placed;
} inner_rec;

struct inner_log {
    sdk_grid start, g; /* the branch's position; the grid as the steps leave it */
    inner_rec *rec;
    int n, cap;
    char *pool;
    size_t plen, pcap;
    sdk_sink sink;
    sdk_step *scratch; /* the host's scratch step 1 (inner_log_new) */
};

inner_log *inner_log_new(const sdk_ctx *ctx)
{
    inner_log *l = sdk_xcalloc(1, sizeof(inner_log));
    l->scratch = sdk_scratch_step(ctx, 1);
    return l;
}

void inner_log_free(inner_log *l)
{
    if (!l) return;
    free(l->rec);
    free(l->pool);
    free(l);
}

static void scope_cell(cands *s, int cell)
{
    for (int d = 1; d <= 9; d++) cands_add(s, cell, d);
}

static void scope_house(cands *s, int house, uint16_t digits)
{
    SDK_BB_FOREACH(c, sdk_house_bb[house]) {
        SDK_MASK_FOREACH(d, digits) cands_add(s, c, d);
    }
}

/* The houses holding every cell of both ends of a one-digit link. */
static void scope_link(cands *s, const sdk_link *k)
{
    sdk_bb cells = sdk_bb_none();
    for (int i = 0; i < k->from.ncell; i++) sdk_bb_add(&cells, k->from.cell[i]);
    for (int i = 0; i < k->to.ncell; i++) sdk_bb_add(&cells, k->to.cell[i]);
    SDK_BB_FOREACH(c, cells) scope_cell(s, c);
    for (int i = 0; i < k->nals; i++) scope_cell(s, k->als[i]);
    if (k->from.digit != k->to.digit) return;
    for (int h = 0; h < SDK_HOUSES; h++)
        if (sdk_bb_count(sdk_bb_and(cells, sdk_house_bb[h])) == sdk_bb_count(cells))
            scope_house(s, h, (uint16_t)(1u << (k->from.digit - 1)));
}

static void scope_of(const sdk_step *s, cands *out)
{
    uint16_t digits = 0;
    memset(out, 0, sizeof *out);
    for (int i = 0; i < s->nmark; i++) {
        scope_cell(out, s->mark[i].cell);
        if (s->mark[i].digit) digits |= (uint16_t)(1u << (s->mark[i].digit - 1));
    }
    for (int i = 0; i < s->nplace; i++) {
        scope_cell(out, s->place[i].cell);
        digits |= (uint16_t)(1u << (s->place[i].digit - 1));
    }
    for (int i = 0; i < s->nelim; i++) {
        scope_cell(out, s->elim[i].cell);
        digits |= (uint16_t)(1u << (s->elim[i].digit - 1));
    }
    for (int i = 0; i < s->nlink; i++) {
        scope_link(out, &s->link[i]);
        digits |= (uint16_t)(1u << (s->link[i].from.digit - 1));
        digits |= (uint16_t)(1u << (s->link[i].to.digit - 1));
    }
    if (!digits) digits = 0x1ff;
    for (int i = 0; i < s->nhouse; i++) scope_house(out, s->house[i].house, digits);
}

static int record(void *ctx, const sdk_step *s)
{
    inner_log *l = ctx;
    if (l->n == l->cap) {
        l->cap = l->cap ? 2 * l->cap : 64;
        l->rec = sdk_xrealloc(l->rec, sizeof *l->rec * (size_t)l->cap);
    }
    inner_rec *r = &l->rec[l->n++];
    memset(r, 0, sizeof *r);
    r->tech = s->tech;
    size_t len = strlen(s->text) + 1;
    if (l->plen + len > l->pcap) {
        while (l->plen + len > l->pcap) l->pcap = l->pcap ? 2 * l->pcap : 8192;
        l->pool = sdk_xrealloc(l->pool, l->pcap);
    }
    memcpy(l->pool + l->plen, s->text, len);
    r->text = l->plen;
    l->plen += len;
    int n = 0;
    for (int i = 0; i < s->nplace && n < SDK_INNER_MAX_EFFECT; i++, r->nplace++)
        r->effect[n++] = s->place[i];
    for (int i = 0; i < s->nelim && n < SDK_INNER_MAX_EFFECT; i++, r->nelim++)
        r->effect[n++] = s->elim[i];
    r->truncated = r->nplace < s->nplace || r->nelim < s->nelim;
    scope_of(s, &r->scope);
    sdk_grid before = l->g;
    sdk_step_apply(s, &l->g);
    for (int c = 0; c < SDK_CELLS; c++) {
        SDK_MASK_FOREACH(d, before.cand[c] & ~l->g.cand[c]) cands_add(&r->removed, c, d);
        if (!before.value[c] && l->g.value[c]) cands_add(&r->placed, c, l->g.value[c]);
    }
    return SDK_CONTINUE;
}

sdk_sink *inner_log_start(inner_log *l, const sdk_grid *w)
{
    l->start = l->g = *w;
    l->n = 0;
    l->plen = 0;
    l->sink = (sdk_sink){record, l};
    return &l->sink;
}

/* The candidates the break needs: gone (an empty cell, a digit with no place
 * in a house), or placed (a digit twice in a house). Returns how many. */
static int break_needs(const inner_log *l, sdk_cand need[9], bool *place)
{
    const sdk_grid *g = &l->g, *w = &l->start;
    int n = 0;
    *place = false;
    for (int c = 0; c < SDK_CELLS; c++)
        if (!g->value[c] && !g->cand[c]) {
            SDK_MASK_FOREACH(d, w->cand[c]) need[n++] = (sdk_cand){(uint8_t)c, (uint8_t)d};
            return n;
        }
    for (int h = 0; h < SDK_HOUSES; h++)
        for (int d = 1; d <= 9; d++) {
            bool there = false;
            SDK_BB_FOREACH(c, sdk_house_bb[h]) {
                if (g->value[c] == d || sdk_grid_has(g, c, d)) there = true;
            }
            if (there) continue;
            SDK_BB_FOREACH(c, sdk_house_bb[h]) {
                if (sdk_grid_has(w, c, d)) need[n++] = (sdk_cand){(uint8_t)c, (uint8_t)d};
            }
            return n;
        }
    for (int h = 0; h < SDK_HOUSES; h++)
        for (int d = 1; d <= 9; d++) {
            int k = 0;
            SDK_BB_FOREACH(c, sdk_house_bb[h]) {
                if (g->value[c] == d && !w->value[c])
                    need[k++] = (sdk_cand){(uint8_t)c, (uint8_t)d};
            }
            if (k >= 2) {
                *place = true;
                return k;
            }
        }
    return 0;
}

/* sub gets the steps the step `first` stands on, itself included: every
 * earlier step that removed something in the scope of one in sub. */
static void closure(const inner_log *l, int first, bool *sub)
{
    memset(sub, 0, sizeof *sub * (size_t)l->n);
    sub[first] = true;
    for (int i = first; i >= 0; i--) {
        if (!sub[i]) continue;
        for (int j = 0; j < i; j++)
            if (!sub[j] && cands_meet(&l->rec[j].removed, &l->rec[i].scope)) sub[j] = true;
    }
}

bool inner_log_explain(const inner_log *l, sdk_step *st)
{
    sdk_cand need[9];
    bool place;
    int nneed = break_needs(l, need, &place), first[9];
    if (!nneed || !l->n) return true;
    bool *in = sdk_xcalloc((size_t)l->n, sizeof *in), *sub = sdk_xmalloc((size_t)l->n);
    int *slot = sdk_xmalloc(sizeof *slot * (size_t)l->n);
    /* per candidate: the step that removed (placed) it, then what it stood on */
    for (int k = 0; k < nneed; k++) {
        first[k] = -1;
        for (int i = 0; i < l->n && first[k] < 0; i++)
            if (cands_has(place ? &l->rec[i].placed : &l->rec[i].removed, need[k].cell,
                          need[k].digit))
                first[k] = i;
        if (first[k] < 0) continue;
        closure(l, first[k], sub);
        for (int i = 0; i <= first[k]; i++) in[i] |= sub[i];
    }
    /* their union, in the order applied, into st */
    sdk_step *sc = l->scratch;
    bool ok = true;
    for (int i = 0; i < l->n && ok; i++) {
        slot[i] = -1;
        if (!in[i]) continue;
        const inner_rec *r = &l->rec[i];
        sdk_step_init(sc, r->tech);
        sc->nplace = r->nplace;
        sc->nelim = r->nelim;
        memcpy(sc->place, r->effect, sizeof *sc->place * r->nplace);
        memcpy(sc->elim, r->effect + r->nplace, sizeof *sc->elim * r->nelim);
        snprintf(sc->text, sizeof sc->text, "%s", l->pool + r->text);
        slot[i] = sdk_step_inner(st, sc);
        if (slot[i] < 0)
            ok = false;
        else
            st->inner[slot[i]].truncated |= r->truncated;
    }
    for (int k = 0; k < nneed && ok; k++) {
        if (first[k] < 0) continue;
        closure(l, first[k], sub);
        uint64_t mask = 0;
        for (int i = 0; i <= first[k]; i++)
            if (sub[i]) mask |= 1ULL << slot[i];
        sdk_step_claim(st, need[k].cell, need[k].digit, place, mask);
    }
    free(in);
    free(sub);
    free(slot);
    return ok;
}
