/* links_dyn.c - the dynamic implication search of the link model: assume a
 * candidate true or false, propagate breadth first through cell and house
 * links (and optionally group and ALS links) on a copy of the grid, record
 * the reason for every consequence, detect contradictions, and print the
 * consequences in the "super link" notation for `trace` (GNPX's own search
 * and rules, SDK_DYN_GNPX, are links_gnpx.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sudoku/alloc.h"
#include "sudoku/links.h"
#include "links_gnpx.h"

/* The queue of derived literals, and per digit the cells where it was
 * found false (the same as d->state == -1, as bitboards). */
typedef struct dq {
    int16_t q[SDK_NCAND * 2];
    int head, tail;
    sdk_bb off[9];
} dq;

/* A literal derived against the value its candidate already has: the search
 * stops there (rare: out of line). */
__attribute__((noinline, cold)) static void set_clash(sdk_dyn *d, int lit, sdk_dyn_reason r)
{
    int cand = lit >> 1;
    d->contradiction = true;
    d->bad_lit = lit ^ 1; /* the literal already derived */
    d->bad_reason = r;
    char a[8];
    snprintf(d->why_text, sizeof d->why_text, "%s/#%d is both true and false",
             sdk_cell_name(cand / 9, a), cand % 9 + 1);
}

/* Derive lit (from literal `from` by a link of that kind); most calls find it
 * derived already, so this stays inline. */
static inline __attribute__((always_inline)) void set_lit(sdk_dyn *d, dq *q, int lit, int from,
                                                          int kind, int strong, sdk_bb cells)
{
    if (d->contradiction) return;
    int cand = lit >> 1;
    int val = (lit & 1) ? 1 : -1;
    if (d->state[cand] == val) return;
    sdk_dyn_reason r = {(int16_t)from, (uint8_t)kind, (uint8_t)strong, cells};
    if (d->state[cand] == -val) {
        set_clash(d, lit, r);
        return;
    }
    d->state[cand] = (int8_t)val;
    if (val < 0) sdk_bb_add(&q->off[cand % 9], cand / 9);
    d->why[cand] = r;
    d->depth[cand] = (uint16_t)(from >= 0 ? d->depth[from >> 1] + 1 : 0);
    d->order[d->n++] = (int16_t)lit;
    q->q[q->tail++] = (int16_t)lit;
}

/* The cells of `cells` where digit dg is not (yet) false: what is left of a
 * house's places for dg, or of an ALS's cells holding it. */
static sdk_bb alive(const dq *q, sdk_bb cells, int dg)
{
    return sdk_bb_andnot(cells, q->off[dg - 1]);
}

static void on_off(sdk_dyn *d, dq *q, int lit, unsigned flags, const sdk_als_list *als)
{
    int cand = lit >> 1, c = cand / 9, dg = cand % 9 + 1;
    const sdk_grid *g = &d->g;
    bool nishio = flags & SDK_DYN_NISHIO;
    if (lit & 1) { /* true */
        if (!nishio) {
            SDK_MASK_FOREACH(e, g->cand[c]) {
                if (e != dg)
                    set_lit(d, q, SDK_LIT(SDK_CAND_NODE(c, e), 0), lit, SDK_LINK_CELL, 0,
                            sdk_bb_none());
            }
        }
        sdk_bb peers = sdk_bb_and(sdk_peer_bb[c], g->digit[dg - 1]);
        SDK_BB_FOREACH(p, peers)
            set_lit(d, q, SDK_LIT(SDK_CAND_NODE(p, dg), 0), lit, SDK_LINK_HOUSE, 0, sdk_bb_none());
        return;
    }
    /* false */
    if (!nishio) {
        int left = 0, last = -1;
        SDK_MASK_FOREACH(e, g->cand[c]) {
            if (d->state[c * 9 + e - 1] != -1) {
                left++;
                last = e;
            }
        }
        if (left == 0) {
            d->contradiction = true;
            d->bad_cell = c;
            char a[8];
            snprintf(d->why_text, sizeof d->why_text, "%s has no candidate left",
                     sdk_cell_name(c, a));
            return;
        }
        if (left == 1)
            set_lit(d, q, SDK_LIT(SDK_CAND_NODE(c, last), 1), lit, SDK_LINK_CELL, 1, sdk_bb_none());
    }
    for (int k = 0; k < 3 && !d->contradiction; k++) {
        int h = sdk_cell_house[c][k];
        sdk_bb r = alive(q, sdk_house_digit(g, h, dg), dg);
        int n = sdk_bb_count(r);
        if (n == 0) {
            d->contradiction = true;
            d->bad_house = h;
            d->bad_digit = dg;
            char a[16];
            snprintf(d->why_text, sizeof d->why_text, "digit %d has no place in %s", dg,
                     sdk_house_name(h, a));
            return;
        }
        if (n == 1) {
            set_lit(d, q, SDK_LIT(SDK_CAND_NODE(sdk_bb_first(r), dg), 1), lit, SDK_LINK_HOUSE, 1,
                    sdk_bb_none());
            continue;
        }
        if ((flags & SDK_DYN_LOCKED) && n <= 3) {
            /* confined to one box segment: the digit leaves the crossing house */
            for (int o = 0; o < 27; o++) {
                if (o == h || !sdk_bb_subset(r, sdk_house_bb[o])) continue;
                sdk_bb rest = sdk_bb_andnot(sdk_house_digit(g, o, dg), r);
                SDK_BB_FOREACH(x, rest)
                    set_lit(d, q, SDK_LIT(SDK_CAND_NODE(x, dg), 0), lit, SDK_LINK_GROUP, 0, r);
            }
        }
    }
    if (!(flags & SDK_DYN_ALS) || !als || d->contradiction) return;
    for (int i = 0; i < als->n && !d->contradiction; i++) {
        const sdk_als *A = &als->als[i];
        /* dg just left the set: it is locked on its other digits */
        if (!sdk_bb_has(A->dcells[dg - 1], c) || !sdk_bb_empty(alive(q, A->dcells[dg - 1], dg)))
            continue;
        SDK_MASK_FOREACH(m, A->digits) {
            if (m == dg) continue;
            sdk_bb rm = alive(q, A->dcells[m - 1], m);
            if (sdk_bb_empty(rm)) {
                d->contradiction = true;
                snprintf(d->why_text, sizeof d->why_text, "a locked set misses digit %d", m);
                return;
            }
            if (sdk_bb_count(rm) == 1)
                set_lit(d, q, SDK_LIT(SDK_CAND_NODE(sdk_bb_first(rm), m), 1), lit, SDK_LINK_ALS, 1,
                        A->cells);
            sdk_bb out = sdk_bb_andnot(sdk_bb_and(sdk_common_peers(rm), g->digit[m - 1]), A->cells);
            SDK_BB_FOREACH(x, out)
                set_lit(d, q, SDK_LIT(SDK_CAND_NODE(x, m), 0), lit, SDK_LINK_ALS, 0, A->cells);
        }
    }
}

bool sdk_dyn_run(const sdk_grid *g, int cell, int digit, bool on, unsigned flags,
                 const sdk_als_list *als, sdk_dyn *d)
{
    d->g = *g;
    memset(d->state, 0, sizeof d->state);
    d->n = 0;
    d->contradiction = false;
    d->bad_lit = -1;
    d->bad_cell = d->bad_house = -1;
    d->bad_digit = 0;
    d->why_text[0] = 0;
    d->gnpx = false;
    dq queue, *q = &queue; /* about 3 KB: on the stack, this runs per premise */
    q->head = q->tail = 0;
    memset(q->off, 0, sizeof q->off);
    int lit = SDK_LIT(SDK_CAND_NODE(cell, digit), on);
    d->start = lit;
    set_lit(d, q, lit, -1, SDK_LINK_CELL, on, sdk_bb_none());
    while (q->head < q->tail && !d->contradiction) on_off(d, q, q->q[q->head++], flags, als);
    return d->contradiction;
}

int sdk_dyn_chain(const sdk_dyn *d, int lit, int *out, int max)
{
    int cand = lit >> 1;
    int val = (lit & 1) ? 1 : -1;
    if (d->state[cand] != val) return 0;
    int n = 0;
    for (int x = lit; x >= 0; x = d->why[x >> 1].from) {
        if (n >= max) return 0;
        out[n++] = x;
    }
    for (int i = 0; i < n / 2; i++) {
        int t = out[i];
        out[i] = out[n - 1 - i];
        out[n - 1 - i] = t;
    }
    return n;
}

static char *lit_text(int lit, char *buf)
{
    char a[8];
    sprintf(buf, "%s/%c%d", sdk_cell_name((lit >> 1) / 9, a), (lit & 1) ? '+' : '-',
            (lit >> 1) % 9 + 1);
    return buf;
}

void sdk_cells_text(sdk_bb cells, char *buf, size_t n)
{
    int rows = 0, cols = 0;
    SDK_BB_FOREACH(c, cells) {
        rows |= 1 << sdk_row(c);
        cols |= 1 << sdk_col(c);
    }
    size_t k = 0;
    buf[0] = 0;
    if (sdk_mask_count((unsigned)rows) > 1 && sdk_mask_count((unsigned)cols) == 1) {
        k += (size_t)snprintf(buf + k, n - k, "r");
        for (int r = 0; r < 9; r++)
            if (rows >> r & 1) k += (size_t)snprintf(buf + k, n - k, "%d", r + 1);
        snprintf(buf + k, n - k, "c%d", __builtin_ctz((unsigned)cols) + 1);
        return;
    }
    bool first = true;
    for (int r = 0; r < 9 && k < n; r++) {
        if (!(rows >> r & 1)) continue;
        k += (size_t)snprintf(buf + k, n - k, "%sr%dc", first ? "" : " ", r + 1);
        first = false;
        for (int c = 0; c < 9 && k < n; c++)
            if (sdk_bb_has(cells, r * 9 + c)) k += (size_t)snprintf(buf + k, n - k, "%d", c + 1);
    }
}

/* "[W r2c2/+1 -> r2c8/-1]" for the link into lit with reason r. */
static size_t link_text(int lit, const sdk_dyn_reason *r, char *buf, size_t n)
{
    char a[16], b[16], cl[64];
    if (r->kind == SDK_LINK_ALS || r->kind == SDK_LINK_GROUP) {
        sdk_cells_text(r->als, cl, sizeof cl);
        return (size_t)snprintf(buf, n, "[%c (%s:%s) %s -> %s]", r->strong ? 'S' : 'W',
                                r->kind == SDK_LINK_ALS ? "ALS" : "GROUP", cl, lit_text(r->from, a),
                                lit_text(lit, b));
    }
    return (size_t)snprintf(buf, n, "[%c %s -> %s]", r->strong ? 'S' : 'W', lit_text(r->from, a),
                            lit_text(lit, b));
}

static size_t chain_text_more(const sdk_dyn *d, int lit, bool more, char *buf, size_t n);

static size_t chain_text(const sdk_dyn *d, int lit, char *buf, size_t n)
{
    return chain_text_more(d, lit, false, buf, n);
}

/* more: links follow (the caller writes them). */
static size_t chain_text_more(const sdk_dyn *d, int lit, bool more, char *buf, size_t n)
{
    (void)more;
    int ch[SDK_NCAND];
    int m = sdk_dyn_chain(d, lit, ch, SDK_NCAND);
    size_t k = 0;
    bool first = true;
    buf[0] = 0;
    for (int i = 1; i < m && k < n; i++) {
        if (!first) k += (size_t)snprintf(buf + k, n - k, " => ");
        first = false;
        if (k >= n) break;
        k += link_text(ch[i], &d->why[ch[i] >> 1], buf + k, n - k);
    }
    return k;
}

char *sdk_dyn_explain(const sdk_dyn *d, int lit, char *buf, size_t n)
{
    char a[16];
    size_t k = (size_t)snprintf(buf, n, "%s ", lit_text(lit, a));
    if (k < n) chain_text(d, lit, buf + k, n - k);
    return buf;
}

static int cmp_lit(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    /* by cell, then digit */
    return (x >> 1) - (y >> 1);
}

bool sdk_trace_assumption(const sdk_grid *g, int cell, int digit, bool on, unsigned flags,
                          sdk_trace_fn fn, void *ctx)
{
    if (flags & SDK_DYN_GNPX) return sdk_gnpx_trace(g, cell, digit, on, flags, fn, ctx);
    sdk_dyn *d = sdk_xmalloc(sizeof *d);
    char *line = sdk_xmalloc(8192);
    sdk_als_list als = {0};
    bool have_als = false;
    if (flags & SDK_DYN_ALS) {
        sdk_als_opts o = {2, 8};
        have_als = sdk_als_collect(g, &o, &als) >= 0;
    }
    bool bad = sdk_dyn_run(g, cell, digit, on, flags, have_als ? &als : NULL, d);
    int lits[SDK_NCAND];
    int n = 0;
    for (int i = 1; i < d->n; i++) lits[n++] = d->order[i];
    qsort(lits, (size_t)n, sizeof lits[0], cmp_lit);
    for (int i = 0; i < n; i++) {
        sdk_dyn_explain(d, lits[i], line, 8192);
        fn(ctx, lits[i], line);
    }
    char a[8];
    if (bad) {
        size_t k = (size_t)snprintf(line, 8192, "%s/#%d is %s", sdk_cell_name(cell, a), digit,
                                    on ? "false" : "true");
        k += (size_t)snprintf(line + k, 8192 - k, ": %s", d->why_text);
        if (d->bad_lit >= 0) {
            /* the two chains that clash: the one found first, then the
             * other */
            char *held = sdk_xmalloc(4096), *clash = sdk_xmalloc(4096);
            chain_text(d, d->bad_lit, held, 4096);
            size_t c = 0;
            clash[0] = 0;
            if (d->bad_reason.from >= 0) {
                c = chain_text_more(d, d->bad_reason.from, true, clash, 4096);
                if (c) c += (size_t)snprintf(clash + c, 4096 - c, " => ");
            }
            if (c < 4096) link_text(d->bad_lit ^ 1, &d->bad_reason, clash + c, 4096 - c);
            snprintf(line + k, 8192 - k, "\n%s\n%s", held, clash);
            free(held);
            free(clash);
        }
        fn(ctx, -1, line);
    } else {
        snprintf(line, 8192, "%s/%c%d: no contradiction, %d consequences", sdk_cell_name(cell, a),
                 on ? '+' : '-', digit, n);
        fn(ctx, -1, line);
    }
    sdk_als_list_free(&als);
    free(line);
    free(d);
    return bad;
}
