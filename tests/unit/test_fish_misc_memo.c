/* test_fish_misc_memo.c - the fish, Sue de Coq and aligned exclusion
 * techniques remember, per thread, what found nothing on earlier grids
 * (plugins/fish: the last pattern without fish per digit; plugins/misc: the
 * line/box pairs and cell triples without a step). This test checks that
 * they answer exactly as a search from scratch:
 *   - the standard profile solves a few of the hardest puzzles in this thread
 *     (the memos see a real path, as in the daemon);
 *   - at every grid of the path, each of these techniques runs in this
 *     thread (first step, as the engine asks; every step at some grids) and
 *     in a new thread, whose memos are empty: the steps must be the same,
 *     text, eliminations and placements. The new thread runs in a forked
 *     child that compares and exits at once: a thread that ends leaves
 *     behind the host's per-thread scratch table (lib/step.c keeps it for
 *     the thread's life), which LeakSanitizer would report. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "testutil.h"
#include "walk.h"
#include "sudoku/host.h"

static sdk_config cfg;

static const char *const ids[] = {
    "x-wing",
    "swordfish",
    "jellyfish",
    "finned-x-wing",
    "finned-swordfish",
    "finned-jellyfish",
    "sashimi-x-wing",
    "sashimi-swordfish",
    "sashimi-jellyfish",
    "franken-x-wing",
    "franken-swordfish",
    "franken-jellyfish",
    "finned-franken-x-wing",
    "finned-franken-swordfish",
    "finned-franken-jellyfish",
    "sue-de-coq",
    "aligned-pair-exclusion",
    "aligned-triple-exclusion",
};
enum { NIDS = sizeof ids / sizeof ids[0] };

typedef struct steps {
    sdk_step *s;
    int n, cap, limit;
} steps;

static int collect(void *ctx, const sdk_step *s)
{
    steps *st = ctx;
    if (st->n == st->cap) {
        st->cap = st->cap ? 2 * st->cap : 8;
        st->s = realloc(st->s, sizeof *st->s * (size_t)st->cap);
        if (!st->s) abort();
    }
    st->s[st->n++] = *s;
    return st->limit && st->n >= st->limit ? SDK_STOP : SDK_CONTINUE;
}

typedef struct job {
    const sdk_profile *p;
    const sdk_grid *g;
    int entry[NIDS];
    int limit;
    steps out[NIDS];
} job;

static void run_all(job *j)
{
    sdk_run_opts o = {.unique = true};
    for (int i = 0; i < NIDS; i++) {
        j->out[i].n = 0;
        j->out[i].limit = j->limit;
        if (j->entry[i] < 0) continue;
        sdk_sink sink = {collect, &j->out[i]};
        sdk_engine_find(j->p, j->entry[i], j->g, &o, &sink);
    }
}

static void *fresh_thread(void *arg)
{
    run_all(arg);
    return NULL;
}

typedef struct check {
    const sdk_profile *p;
    int entry[NIDS];
    long grids, found, compared;
} check;

static bool same_step(const sdk_step *a, const sdk_step *b)
{
    if (strcmp(a->text, b->text) || a->nelim != b->nelim || a->nplace != b->nplace) return false;
    for (int i = 0; i < a->nelim; i++)
        if (a->elim[i].cell != b->elim[i].cell || a->elim[i].digit != b->elim[i].digit)
            return false;
    for (int i = 0; i < a->nplace; i++)
        if (a->place[i].cell != b->place[i].cell || a->place[i].digit != b->place[i].digit)
            return false;
    return true;
}

/* In the forked child: the steps from scratch against `here`; exits. */
static void fresh_compare(const job *here, int nstep)
{
    job fresh = *here;
    memset(fresh.out, 0, sizeof fresh.out);
    pthread_t t;
    if (pthread_create(&t, NULL, fresh_thread, &fresh) || pthread_join(t, NULL)) _exit(2);
    int bad = 0;
    for (int i = 0; i < NIDS; i++) {
        if (here->out[i].n != fresh.out[i].n) {
            fprintf(stderr, "%s at step %d: %d steps here, %d from scratch\n", ids[i], nstep,
                    here->out[i].n, fresh.out[i].n);
            bad = 1;
            continue;
        }
        for (int k = 0; k < here->out[i].n; k++)
            if (!same_step(&here->out[i].s[k], &fresh.out[i].s[k])) {
                fprintf(stderr, "%s at step %d: '%s' here, '%s' from scratch\n", ids[i], nstep,
                        here->out[i].s[k].text, fresh.out[i].s[k].text);
                bad = 1;
            }
    }
    fflush(stderr);
    _exit(bad);
}

static void on_grid(void *ctx, const sdk_step *s, const sdk_grid *before, const uint8_t *sol,
                    int nstep)
{
    (void)s;
    (void)sol;
    check *c = ctx;
    job here = {.p = c->p, .g = before, .limit = nstep % 5 ? 1 : 0};
    memcpy(here.entry, c->entry, sizeof here.entry);
    run_all(&here);
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) fresh_compare(&here, nstep);
    int status = 0;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
        fail_msg("step %d: the memos differ from a search from scratch (above)", nstep);
    for (int i = 0; i < NIDS; i++) {
        c->found += here.out[i].n;
        c->compared++;
        free(here.out[i].s);
    }
    c->grids++;
}

static void test_memo_exact(void **state)
{
    (void)state;
    tu_load_config(&cfg);
    const sdk_profile *p = sdk_config_profile(&cfg, "standard");
    assert_non_null(p);
    check c = {.p = p};
    int present = 0;
    for (int i = 0; i < NIDS; i++) {
        c.entry[i] = sdk_profile_find(p, ids[i]);
        present += c.entry[i] >= 0;
    }
    assert_true(present >= 10);
    walk_result r = {0};
    walk_profile(p, "forum_hardest_1106.txt", 3, 97, on_grid, &c, &r, NULL);
    assert_int_equal(r.wrong, 0);
    printf("memos = search from scratch: %ld grids, %ld runs, %ld steps\n", c.grids, c.compared,
           c.found);
    assert_true(c.grids > 100 && c.found > 20);
    sdk_config_free(&cfg);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_memo_exact),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
