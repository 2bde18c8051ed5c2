/* test_ape_cut.c - Aligned Pair Exclusion (plugins/misc/misc.c) skips the
 * pairs its memo knows to give nothing: a pair (p, q) ranked before the
 * first pair that gave a step on an earlier grid, whose cells did not
 * change, nor a common peer small (unsolved, at most 2 candidates) on
 * either grid. For a clean first cell p ranked wholly before that pair,
 * ape_search cuts the second cells to those the skip would examine (q
 * changed, or a peer of a small changed peer of p) with bitboards before
 * its loop. A cut that leaves out one q too many loses the steps of that
 * pair, and the memo's skip cannot see it.
 *
 * This test checks the cut where it can lose something: on positions of
 * hard paths (walk_hard_rounds: a few false candidates gone a round), with
 * the memo of the position before and, the other way round, of the one
 * after (the memo asks for the same inputs, not for an ancestor), the
 * search with the memo must emit the steps of the search without it (no
 * memo: no skip, no cut), in the same order, text and eliminations; and
 * those must be the steps of the rule as defined (ape_rule below, written
 * from the definition). It counts the steps the cut must keep: at a clean
 * first cell ranked before the memo's first pair. The plugin source is
 * compiled in, so ape_search is called with the memo's inputs directly. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "testutil.h"
#include "walk.h"

#include "../../plugins/misc/misc.c"

#define MAX_FOUND 512

/* A step of the technique: its two cells, what each loses, and the step's
 * text and eliminations as emitted. */
typedef struct ape_found {
    int p, q;
    unsigned ep, eq;
} ape_found;

typedef struct ape_list {
    int n;
    ape_found f[MAX_FOUND];
    char text[MAX_FOUND][SDK_STEP_TEXT];
    int nelim[MAX_FOUND];
    sdk_cand elim[MAX_FOUND][SDK_STEP_MAX_ELIM];
} ape_list;

static int collect(void *ctx, const sdk_step *s)
{
    ape_list *l = ctx;
    assert_true(l->n < MAX_FOUND);
    assert_true(s->nmark >= 2 && s->mark[0].role == SDK_ROLE_BASE &&
                s->mark[1].role == SDK_ROLE_BASE);
    ape_found *f = &l->f[l->n];
    f->p = s->mark[0].cell;
    f->q = s->mark[1].cell;
    f->ep = f->eq = 0;
    for (int i = 0; i < s->nelim; i++) {
        unsigned bit = sdk_digit_bit(s->elim[i].digit);
        if (s->elim[i].cell == f->p)
            f->ep |= bit;
        else if (s->elim[i].cell == f->q)
            f->eq |= bit;
        else
            fail_msg("%s: eliminates outside its two cells", s->text);
    }
    memcpy(l->text[l->n], s->text, sizeof s->text);
    l->nelim[l->n] = s->nelim;
    memcpy(l->elim[l->n], s->elim, sizeof *s->elim * s->nelim);
    l->n++;
    return SDK_CONTINUE;
}

/* ape_search on g with the memo's inputs (dirty, xdirty, first; first 0:
 * no memo), its steps into *out; returns the rank of the first pair that
 * gave a step (PATTERN_NONE: none). */
static uint64_t search(const sdk_grid *g, sdk_bb dirty, sdk_bb xdirty, uint64_t first,
                       ape_list *out)
{
    sdk_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    ctx.self = &ape;
    out->n = 0;
    sdk_sink sink = {collect, out};
    uint64_t gave = PATTERN_NONE;
    assert_int_equal(ape_search(&ctx, g, &sink, dirty, xdirty, first, &gave), SDK_CONTINUE);
    return gave;
}

/* The rule from its definition: for unsolved cells p < q of one house, a
 * pair of values (x of p, y of q) is possible unless x = y or an unsolved
 * cell seeing both has no candidate outside {x, y}; the candidates of p
 * and q in no possible pair go. As in Sudoku Explainer, a pair is
 * examined only when such a cell can exist: an unsolved cell seeing both
 * with at most 2 candidates (without one, only x = y excludes, which
 * singles say). Pairs in the order of p, then q. */
static void ape_rule(const sdk_grid *g, ape_list *out)
{
    out->n = 0;
    for (int p = 0; p < 81; p++)
        for (int q = p + 1; q < 81; q++) {
            if (g->value[p] || g->value[q] || !sdk_sees(p, q)) continue;
            bool excluder = false;
            for (int c = 0; c < 81 && !excluder; c++)
                excluder = !g->value[c] && sdk_sees(c, p) && sdk_sees(c, q) &&
                           sdk_mask_count(g->cand[c]) <= 2;
            if (!excluder) continue;
            unsigned okp = 0, okq = 0;
            SDK_MASK_FOREACH(x, g->cand[p])
                SDK_MASK_FOREACH(y, g->cand[q]) {
                    unsigned xy = sdk_digit_bit(x) | sdk_digit_bit(y);
                    bool possible = x != y;
                    for (int c = 0; c < 81 && possible; c++)
                        if (!g->value[c] && sdk_sees(c, p) && sdk_sees(c, q))
                            possible = (g->cand[c] & ~xy) != 0;
                    if (!possible) continue;
                    okp |= sdk_digit_bit(x);
                    okq |= sdk_digit_bit(y);
                }
            unsigned ep = g->cand[p] & ~okp, eq = g->cand[q] & ~okq;
            if (!ep && !eq) continue;
            assert_true(out->n < MAX_FOUND);
            out->f[out->n++] = (ape_found){p, q, ep, eq};
        }
}

static void assert_same_pairs(const ape_list *got, const ape_list *want, const char *what, long pos)
{
    if (got->n != want->n)
        fail_msg("position %ld: %s gives %d steps, want %d", pos, what, got->n, want->n);
    for (int i = 0; i < want->n; i++) {
        const ape_found *a = &got->f[i], *b = &want->f[i];
        if (a->p != b->p || a->q != b->q || a->ep != b->ep || a->eq != b->eq)
            fail_msg("position %ld: %s step %d is %d,%d -%x -%x, want %d,%d -%x -%x", pos, what, i,
                     a->p, a->q, a->ep, a->eq, b->p, b->q, b->ep, b->eq);
    }
}

typedef struct counts {
    long positions;  /* memo grid and grid pairs compared */
    long none_on_m;  /* ... where the memo grid gave no step (every clean
                        first cell cut) */
    long cut_firsts; /* first cells the cut applies to */
    long steps;      /* steps of the search without memo */
    long guarded;    /* steps at a first cell the cut applies to */
} counts;

/* The memo of grid m (its first pair that gave a step, searched whole)
 * applied to g, against the search without memo and the rule. */
static void check(const sdk_grid *m, const sdk_grid *g, counts *c)
{
    static ape_list on_m, got, want, rule;
    long pos = ++c->positions;
    uint64_t first = search(m, sdk_bb_none(), sdk_bb_none(), 0, &on_m);
    sdk_bb dirty = sdk_bb_none(), xdirty = sdk_bb_none();
    for (int x = 0; x < 81; x++) {
        if (m->value[x] == g->value[x] && m->cand[x] == g->cand[x]) continue;
        sdk_bb_add(&dirty, x);
        if (ape_small(m->value[x], m->cand[x]) || ape_small(g->value[x], g->cand[x]))
            sdk_bb_add(&xdirty, x);
    }
    search(g, dirty, xdirty, first, &got);
    search(g, sdk_bb_none(), sdk_bb_none(), 0, &want);
    ape_rule(g, &rule);
    assert_same_pairs(&want, &rule, "the search without memo", pos);
    assert_same_pairs(&got, &want, "the search with the memo", pos);
    for (int i = 0; i < want.n; i++)
        if (strcmp(got.text[i], want.text[i]) || got.nelim[i] != want.nelim[i] ||
            memcmp(got.elim[i], want.elim[i], sizeof *want.elim[i] * want.nelim[i]))
            fail_msg("position %ld: step %d with the memo is '%s', without '%s'", pos, i,
                     got.text[i], want.text[i]);
    c->none_on_m += first == PATTERN_NONE;
    c->steps += want.n;
    for (int p = 0; p < 81; p++) {
        bool cut = !g->value[p] && !sdk_bb_has(dirty, p) && pair_rank(p, SDK_CELLS - 1) < first;
        c->cut_firsts += cut;
        for (int i = 0; cut && i < want.n; i++) c->guarded += want.f[i].p == p;
    }
}

static void visit(const sdk_grid *before, const sdk_grid *after, void *ctx)
{
    check(before, after, ctx);
    check(after, before, ctx);
}

static void test_cut_keeps_every_step(void **state)
{
    (void)state;
    counts c = {0};
    int walked = walk_hardest_1106(125, visit, &c);
    if (walked < 0) skip();
    assert_true(walked);
    print_message("positions %ld (%ld whose memo grid gave no step), %ld steps; %ld first "
                  "cells cut, %ld steps at them\n",
                  c.positions, c.none_on_m, c.steps, c.cut_firsts, c.guarded);
    assert_true(c.positions >= 1000);
    assert_true(c.cut_firsts > 50000);
    assert_true(c.guarded > 1000);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cut_keeps_every_step),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
