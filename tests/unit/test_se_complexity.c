/* test_se_complexity.c - sdk_se_complexity (lib/links_se.c) against the
 * plain walk it stands for: per chain end, a depth-first walk with a stack
 * (every parent pushed, in order), counting each literal the first time a
 * potential of it is taken from the stack, and each nested chain id the
 * first time it is met, with that potential's complexity. The library
 * follows a potential's last parent without the stack; the order, and so
 * which potential of a literal is met first (whose parents are walked),
 * must be the same. The arenas are random: few literals, so that many
 * potentials share one, several parents, and nested ids whose complexity
 * differs between the potentials that carry them (a walk in another order
 * would count other ancestors and other complexities). */
#include <stdlib.h>
#include <string.h>
#include "sudoku/links_se.h"
#include "testutil.h"

static uint32_t next_rand(uint32_t *s)
{
    *s = *s * 1664525u + 1013904223u;
    return *s >> 8;
}

/* The plain walk, as described above. */
static int reference(const sdk_se_arena *a, const int *nodes, int n)
{
    int flat = 0, sum = 0, nid = 0;
    int *ids = malloc(sizeof *ids * (size_t)a->n);
    int *stack = malloc(sizeof *stack * (size_t)(a->npar + 1));
    assert_non_null(ids);
    assert_non_null(stack);
    for (int t = 0; t < n; t++) {
        bool seen[2 * 729] = {false};
        int sp = 0;
        stack[sp++] = nodes[t];
        while (sp) {
            const sdk_se_pot *p = &a->p[stack[--sp]];
            int lit = p->cand * 2 + p->on;
            if (seen[lit]) continue;
            seen[lit] = true;
            flat++;
            if (p->nested >= 0) {
                bool known = false;
                for (int i = 0; i < nid; i++) known |= ids[i] == p->nested;
                if (!known) {
                    ids[nid++] = p->nested;
                    sum += p->ncplx;
                }
            }
            for (int i = 0; i < p->np; i++) stack[sp++] = a->par[p->par + i];
        }
    }
    free(stack);
    free(ids);
    return flat + sum;
}

static void test_complexity_is_plain_walk(void **state)
{
    (void)state;
    uint32_t seed = 1106;
    long checked = 0;
    for (int round = 0; round < 200; round++) {
        sdk_se_arena a;
        memset(&a, 0, sizeof a);
        int size = 50 + (int)(next_rand(&seed) % 400), lits = 4 + (int)(next_rand(&seed) % 60);
        for (int i = 0; i < size; i++) {
            int par[4], np = i ? (int)(next_rand(&seed) % 4) : 0;
            for (int k = 0; k < np; k++) par[k] = (int)(next_rand(&seed) % (unsigned)i);
            int lit = (int)(next_rand(&seed) % (unsigned)lits);
            int x = sdk_se_new(&a, lit >> 1, lit & 1, SDK_SE_ADVANCED, par, np);
            if (next_rand(&seed) % 5 == 0) {
                a.p[x].nested = (int)(next_rand(&seed) % 6);
                a.p[x].ncplx = 1 + (int)(next_rand(&seed) % 50);
            }
        }
        for (int q = 0; q < 20; q++) {
            int ends[4], n = 1 + (int)(next_rand(&seed) % 4);
            for (int k = 0; k < n; k++) ends[k] = (int)(next_rand(&seed) % (unsigned)size);
            assert_int_equal(sdk_se_complexity(&a, ends, n), reference(&a, ends, n));
            checked++;
        }
        sdk_se_arena_free(&a);
    }
    assert_true(checked == 4000);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_complexity_is_plain_walk),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
