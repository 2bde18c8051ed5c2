/* test_fish_misc_memo.c - the fish, Sue de Coq, aligned exclusion and other
 * techniques remember, per thread, what found nothing on earlier grids
 * (plugins/fish: the last pattern without fish per digit, and a finned basic
 * fish search's misses of the sashimi class noted for the sashimi technique
 * and the other way round, which the runs below in the ladder's order
 * exercise; plugins/misc and the others using plugins/misc/grid_memo.h: the
 * first pattern that gave a step on the grid of the last search at depth 0
 * and inside a propagate; plugins/uniqueness: the rectangles listed once per
 * grid).
 * This test checks that they answer exactly as a search from scratch:
 *   - the standard profile solves a few of the hardest puzzles in this thread
 *     (the memos see a real path, as in the daemon);
 *   - at every grid of the path, each of these techniques runs in this
 *     thread (first step, as the engine asks; every step at some grids),
 *     then, as inside a forcing chain's propagate (depth 1), on grids made
 *     from it by placing a candidate (true or not) and then singles; each
 *     run is repeated in a new thread, whose memos are empty: the steps must
 *     be the same, text, eliminations and placements. The new thread runs in a forked
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
    "wxyz-wing",
    "naked-pair",
    "naked-triple",
    "naked-quad",
    "hidden-pair",
    "hidden-triple",
    "hidden-quad",
    "empty-rectangle",
    "turbot-fish",
    "x-chain",
    "simple-colors-trap",
    "simple-colors-wrap",
    "multi-colors-1",
    "multi-colors-2",
    "unique-rectangle-1",
    "unique-rectangle-2",
    "unique-rectangle-3",
    "unique-rectangle-4",
    "unique-rectangle-5",
    "unique-rectangle-6",
    "hidden-rectangle",
    "pointing",
    "claiming",
    "locked-pair",
    "locked-triple",
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
    sdk_grid g;
    int depth; /* 0: as the engine asks; 1: as inside a propagate */
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
        if (j->depth == 0) {
            sdk_engine_find(j->p, j->entry[i], &j->g, &o, &sink);
            continue;
        }
        const sdk_entry *e = &j->p->entry[j->entry[i]];
        sdk_ctx ctx = {.self = e->tech, .opts = e->opts, .unique = true, .depth = j->depth};
        e->tech->find(&ctx, &j->g, &sink);
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

enum { JOBS = 5 }; /* the grid of the path, then four inner grids */

/* In the forked child: the steps from scratch against `here`; exits. */
static void fresh_compare(const job *here, int njobs, int nstep)
{
    int bad = 0;
    for (int k = 0; k < njobs; k++) {
        job *fresh = malloc(sizeof *fresh);
        if (!fresh) _exit(2);
        *fresh = here[k];
        memset(fresh->out, 0, sizeof fresh->out);
        pthread_t t;
        if (pthread_create(&t, NULL, fresh_thread, fresh) || pthread_join(t, NULL)) _exit(2);
        for (int i = 0; i < NIDS; i++) {
            const steps *h = &here[k].out[i], *f = &fresh->out[i];
            if (h->n != f->n) {
                fprintf(stderr,
                        "%s at step %d (grid %d, depth %d): %d steps here, %d from scratch\n",
                        ids[i], nstep, k, here[k].depth, h->n, f->n);
                bad = 1;
                continue;
            }
            for (int s = 0; s < h->n; s++)
                if (!same_step(&h->s[s], &f->s[s])) {
                    fprintf(stderr,
                            "%s at step %d (grid %d, depth %d): '%s' here, '%s' from scratch\n",
                            ids[i], nstep, k, here[k].depth, h->s[s].text, f->s[s].text);
                    bad = 1;
                }
        }
    }
    fflush(stderr);
    _exit(bad);
}

/* Inner grid k of the path's grid g: k = 0, 2: the first candidate of an
 * unsolved cell placed (the first such cell, the eighth), true or not, as a
 * forcing chain assumes; k = 1, 3: the grid before with one single more, as
 * a propagate goes on. */
static void inner_grid(const sdk_grid *g, const sdk_grid *prev, int k, sdk_grid *out)
{
    if (k % 2) {
        *out = *prev;
        walk_single(out);
        return;
    }
    *out = *g;
    int seen = 0;
    for (int c = 0; c < SDK_CELLS; c++) {
        if (out->value[c] || sdk_mask_count(out->cand[c]) < 2) continue;
        if (seen++ < k / 2 * 7) continue;
        sdk_grid_place(out, c, sdk_mask_first(out->cand[c]), false);
        return;
    }
}

static void on_grid(void *ctx, const sdk_step *s, const sdk_grid *before, const uint8_t *sol,
                    int nstep)
{
    (void)s;
    (void)sol;
    check *c = ctx;
    static job here[JOBS];
    for (int k = 0; k < JOBS; k++) {
        here[k] = (job){.p = c->p, .depth = k > 0, .limit = nstep % 5 ? 1 : 0};
        if (k == 0)
            here[k].g = *before;
        else
            inner_grid(before, &here[k - 1].g, k - 1, &here[k].g);
        memcpy(here[k].entry, c->entry, sizeof here[k].entry);
        run_all(&here[k]);
    }
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) fresh_compare(here, JOBS, nstep);
    int status = 0;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
        fail_msg("step %d: the memos differ from a search from scratch (above)", nstep);
    for (int k = 0; k < JOBS; k++)
        for (int i = 0; i < NIDS; i++) {
            c->found += here[k].out[i].n;
            c->compared++;
            free(here[k].out[i].s);
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
