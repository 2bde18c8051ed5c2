/* test_kraken_reach.c - the cells kraken fish type 1 reads from a premise's
 * table (cs_cells_within in plugins/forcing/forcing_private.h) against the
 * cell-by-cell test it replaces, written here: per digit, the cells x of its
 * candidates whose candidate the table makes false and no solution holds.
 *
 * Random digit patterns (from empty to every cell), random false sets (bits
 * of every digit, sparse to almost whole, some on bits 729..767 that a table
 * never sets but a set may hold) and random solution sets; the two answers
 * must be the same bitboard, and both empty and full answers must occur. */
#include <string.h>
#include "sudoku/grid.h"
#include "testutil.h"
#include "../../plugins/forcing/forcing_private.h"

static unsigned rnd(unsigned *s)
{
    *s = *s * 1103515245u + 12345u;
    return *s >> 8;
}

/* The test as kraken.c asked it before: two cs_has per cell. */
static sdk_bb ref_cells(sdk_bb cand, int d, const cset *off, const cset *truth)
{
    sdk_bb b = sdk_bb_none();
    SDK_BB_FOREACH(x, cand)
        if (cs_has(off, x * 9 + d - 1) && !cs_has(truth, x * 9 + d - 1)) sdk_bb_add(&b, x);
    return b;
}

static void test_cells_match(void **state)
{
    (void)state;
    unsigned s = 20261202u;
    long empty = 0, full = 0;
    for (int round = 0; round < 20000; round++) {
        int d = (int)(rnd(&s) % 9) + 1;
        unsigned p_cand = rnd(&s) % 101, p_off = rnd(&s) % 101, p_truth = rnd(&s) % 30;
        sdk_bb cand = sdk_bb_none();
        cset off, truth;
        memset(&off, 0, sizeof off);
        memset(&truth, 0, sizeof truth);
        for (int c = 0; c < SDK_CELLS; c++)
            if (rnd(&s) % 100 < p_cand) sdk_bb_add(&cand, c);
        for (int k = 0; k < 12 * 64; k++) {
            if (rnd(&s) % 100 < p_off) cs_add(&off, k);
            if (k < SDK_NCAND && rnd(&s) % 100 < p_truth) cs_add(&truth, k);
        }
        /* as find_kraken makes it: the digit's candidates no solution holds */
        cset may_target;
        memset(&may_target, 0, sizeof may_target);
        SDK_BB_FOREACH(x, cand)
            if (!cs_has(&truth, x * 9 + d - 1)) cs_add(&may_target, x * 9 + d - 1);
        sdk_bb want = ref_cells(cand, d, &off, &truth), got = cs_cells_within(&off, &may_target);
        if (!sdk_bb_eq(want, got))
            fail_msg("round %d, digit %d: %016llx %016llx, want %016llx %016llx", round, d,
                     (unsigned long long)got.hi, (unsigned long long)got.lo,
                     (unsigned long long)want.hi, (unsigned long long)want.lo);
        if (sdk_bb_empty(want)) empty++;
        if (!sdk_bb_empty(cand) && sdk_bb_eq(want, cand)) full++;
    }
    print_message("empty %ld, every candidate %ld\n", empty, full);
    assert_true(empty > 100 && full > 100);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cells_match),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
