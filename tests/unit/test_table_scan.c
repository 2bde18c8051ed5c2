/* test_table_scan.c - the forcing plugin's word-parallel scan of a premise's
 * table (plugins/forcing/table_scan.c, built in) against the cell-by-cell
 * scan it replaces, written here: a candidate true and false (2), an empty
 * cell with every candidate false (4), a house's digit with every place
 * false (6), else 0, in that order.
 *
 * Random grids (solved cells, empty cells with few or many candidates, now
 * and then one with none) and random tables: false sets from sparse to
 * almost whole, with bits outside the grid's candidates too, true sets that
 * meet them or not, and tables made to miss by one candidate (one cell or
 * one house place left alive). Every kind must occur, and the two scans must
 * agree on each table. */
#include <stdlib.h>
#include <string.h>
#include "sudoku/grid.h"
#include "testutil.h"
#include "../../plugins/forcing/table_scan.h"

static unsigned rnd(unsigned *s)
{
    *s = *s * 1103515245u + 12345u;
    return *s >> 8;
}

/* The scan as forcing.c's table_contradiction() did it, kind only. */
static int ref_scan(const sdk_grid *g, const cset *on, const cset *off)
{
    for (int w = 0; w < 12; w++) {
        uint64_t both = on->w[w] & off->w[w];
        if (!both) continue;
        if (w * 64 + __builtin_ctzll(both) >= SDK_NCAND) break;
        return 2;
    }
    uint16_t alive_c[SDK_CELLS];
    for (int c = 0; c < 81; c++) {
        unsigned cand = g->cand[c], offm = 0;
        for (int d = 1; d <= 9; d++)
            if (cs_has(off, c * 9 + d - 1)) offm |= 1u << (d - 1);
        offm &= cand;
        alive_c[c] = (uint16_t)(cand & ~offm);
        if (!g->value[c] && offm == cand) return 4;
    }
    for (int h = 0; h < 27; h++) {
        unsigned present = 0, alive = 0;
        for (int i = 0; i < 9; i++) {
            present |= g->cand[sdk_house_cell[h][i]];
            alive |= alive_c[sdk_house_cell[h][i]];
        }
        if (present & ~alive) return 6;
    }
    return 0;
}

static void random_grid(sdk_grid *g, unsigned *s)
{
    memset(g, 0, sizeof *g);
    int solved = (int)(rnd(s) % 60);
    for (int c = 0; c < 81; c++) {
        if ((int)(rnd(s) % 81) < solved) {
            g->value[c] = (uint8_t)(rnd(s) % 9 + 1);
            continue;
        }
        unsigned m = 0;
        int n = (int)(rnd(s) % 5) + (rnd(s) % 3 ? 2 : 1);
        for (int i = 0; i < n; i++) m |= 1u << (rnd(s) % 9);
        if (rnd(s) % 500 == 0) m = 0; /* an empty cell without candidates */
        g->cand[c] = (uint16_t)m;
    }
}

static void random_table(const sdk_grid *g, unsigned *s, cset *on, cset *off)
{
    memset(on, 0, sizeof *on);
    memset(off, 0, sizeof *off);
    unsigned p_off = rnd(s) % 1001, p_on = rnd(s) % 30;
    for (int c = 0; c < 81; c++)
        for (int d = 1; d <= 9; d++) {
            int k = c * 9 + d - 1;
            bool cand = g->cand[c] >> (d - 1) & 1;
            if (rnd(s) % 1000 < (cand ? p_off : 50)) cs_add(off, k);
            if (rnd(s) % 1000 < p_on && !(rnd(s) % 4 && cs_has(off, k))) cs_add(on, k);
        }
    /* near misses: take one false candidate back (a cell or a house place
     * left alive by exactly one) */
    int back = (int)(rnd(s) % 3);
    for (int i = 0; i < back; i++) {
        int k = (int)(rnd(s) % SDK_NCAND);
        off->w[k >> 6] &= ~(1ULL << (k & 63));
    }
}

static void test_scan_matches(void **state)
{
    (void)state;
    unsigned s = 20261202u;
    long kinds[7] = {0};
    table_scan_grid sg;
    for (int grid = 0; grid < 4000; grid++) {
        sdk_grid g;
        random_grid(&g, &s);
        table_scan_grid_init(&sg, &g);
        for (int t = 0; t < 40; t++) {
            cset on, off;
            random_table(&g, &s, &on, &off);
            int want = ref_scan(&g, &on, &off), got = table_scan(&sg, &on, &off);
            if (want != got)
                fail_msg("grid %d table %d: scan says %d, cell by cell %d", grid, t, got, want);
            kinds[want]++;
        }
    }
    print_message("kinds: none %ld, true and false %ld, cell %ld, house %ld\n", kinds[0], kinds[2],
                  kinds[4], kinds[6]);
    assert_true(kinds[0] > 1000 && kinds[2] > 1000 && kinds[4] > 1000 && kinds[6] > 1000);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_scan_matches),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
