/* soundness.c - every technique at every step, checked against the solution.
 *
 * For each puzzle (a sample across ../shared/data, hard ones included) the
 * brute-force solver gives the solution; the engine then walks the default
 * profile, and at every position on the way EVERY loaded technique (all
 * plugins, not just the profile's) is asked for all its steps. A step that
 * eliminates a solution digit or places a wrong one is a violation: printed
 * with the position and the step, and the run fails.
 *
 * Costly techniques (nested forcing chains take seconds a position) would make
 * a run of thousands of puzzles take days, so by default a technique whose mean
 * time per position exceeds --budget-ms is asked only at every k-th position,
 * k = mean / budget; the table says at how many positions each was checked.
 * --full asks every technique at every position. The walk profile's entries
 * that carry options are checked as well, with their options.
 * Usage: soundness_runner [--puzzles N] [--files a.txt,b.txt] [--max-steps-per N]
 *                         [--walk PROFILE] [--budget-ms X] [--full] */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "sudoku/solver.h"
#include "testutil.h"

typedef struct check {
    const uint8_t *solution;
    const sdk_grid *grid;
    long violations, steps;
    int per_tech;
    int limit;
} check;

static int on_step(void *c, const sdk_step *s)
{
    check *k = c;
    k->steps++;
    k->per_tech++;
    for (int i = 0; i < s->nelim; i++) {
        if (k->solution[s->elim[i].cell] == s->elim[i].digit) {
            char name[8], line[82];
            printf("VIOLATION %s eliminates the solution digit %s<>%d\n  step: %s\n  grid: %s\n",
                   s->tech->id, sdk_cell_name(s->elim[i].cell, name), s->elim[i].digit, s->text,
                   sdk_format_line(k->grid, line));
            k->violations++;
            break;
        }
    }
    for (int i = 0; i < s->nplace; i++) {
        if (k->solution[s->place[i].cell] != s->place[i].digit) {
            char name[8];
            printf("VIOLATION %s places %s=%d, solution has %d\n  step: %s\n", s->tech->id,
                   sdk_cell_name(s->place[i].cell, name), s->place[i].digit,
                   k->solution[s->place[i].cell], s->text);
            k->violations++;
            break;
        }
    }
    return k->per_tech >= k->limit ? SDK_STOP : SDK_CONTINUE;
}

typedef struct walk {
    sdk_profile *all;
    const sdk_config *cfg;             /* its profiles, for engine-using techniques */
    const sdk_profile *engine_profile; /* the walk's profile, tried first */
    check *k;
    long positions;
    long *tech_steps;
    double *tech_time;
    long *tech_checked; /* positions where the technique was asked */
    double budget;      /* seconds per position before sampling kicks in (0: never) */
} walk;

static int at_position(void *c, const sdk_step *s, const sdk_grid *before)
{
    (void)s;
    walk *w = c;
    sdk_run_opts ro = {.unique = true, .no_guess = true};
    w->k->grid = before;
    w->positions++;
    sdk_sink sink = {on_step, w->k};
    for (int i = 0; i < w->all->n; i++) {
        if (w->budget > 0 && w->tech_checked[i] >= 4) {
            double mean = w->tech_time[i] / (double)w->tech_checked[i];
            long stride = (long)(mean / w->budget) + 1;
            if (w->positions % stride) continue;
        }
        const sdk_technique *t = w->all->entry[i].tech;
        const sdk_profile *where = w->all;
        int at = i;
        if (t->flags & SDK_TF_USES_ENGINE) {
            /* It propagates with the techniques before it: run it where it
             * stands in the walk's profile, else in the first profile that
             * has it (not checked when none has it). */
            where = w->engine_profile;
            at = sdk_profile_find(where, t->id);
            for (int p = 0; at < 0 && p < w->cfg->nprofile; p++) {
                where = &w->cfg->profile[p];
                at = sdk_profile_find(where, t->id);
            }
            if (at < 0) continue;
        }
        w->tech_checked[i]++;
        w->k->per_tech = 0;
        clock_t t0 = clock();
        sdk_engine_find(where, at, before, &ro, &sink);
        w->tech_time[i] += (double)(clock() - t0) / CLOCKS_PER_SEC;
        w->tech_steps[i] += w->k->per_tech;
    }
    return 0;
}

int main(int argc, char **argv)
{
    int total = 2000, limit = 64;
    double budget_ms = 0.005;
    const char *walk_name = "fast";
    char files[512] = "top1465.txt,forum_hardest_1905_11plus.txt,17clue.txt,kaggle_10k.txt,"
                      "unbiased_1k.txt,forum_hardest_1106.txt";
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--puzzles") && i + 1 < argc)
            total = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--files") && i + 1 < argc)
            snprintf(files, sizeof files, "%s", argv[++i]);
        else if (!strcmp(argv[i], "--max-steps-per") && i + 1 < argc)
            limit = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--walk") && i + 1 < argc)
            walk_name = argv[++i];
        else if (!strcmp(argv[i], "--budget-ms") && i + 1 < argc)
            budget_ms = atof(argv[++i]);
        else if (!strcmp(argv[i], "--full"))
            budget_ms = 0;
    }
    sdk_config cfg;
    sdk_error err;
    const char *conf = getenv("SUDOKU_CONF");
    if (!sdk_config_load(conf ? conf : "build/etc/sudokud/sudokud.conf", &cfg, &err)) {
        fprintf(stderr, "config: %s\n", err.msg);
        return 2;
    }
    /* A profile of every loaded technique, in plugin order. */
    sdk_profile all = {0};
    for (int p = 0; p < cfg.nplugin; p++)
        for (int i = 0; cfg.plugin[p].list[i]; i++)
            sdk_profile_add(&all, cfg.plugin[p].list[i], NULL, -1, cfg.plugin[p].path);
    const sdk_profile *walk_profile = sdk_config_profile(&cfg, walk_name);
    if (!walk_profile) {
        fprintf(stderr, "no profile '%s' in the config\n", walk_name);
        return 2;
    }
    /* The walk profile's entries with options too (order=hodoku, ...): an
     * option may change what a technique finds. */
    for (int i = 0; i < walk_profile->n; i++) {
        const sdk_entry *e = &walk_profile->entry[i];
        if (e->opts->n && !(e->tech->flags & SDK_TF_USES_ENGINE))
            sdk_profile_add(&all, e->tech, e->opts, -1, e->source);
    }
    long *tech_steps = calloc((size_t)all.n, sizeof *tech_steps);
    double *tech_time = calloc((size_t)all.n, sizeof *tech_time);
    long *tech_checked = calloc((size_t)all.n, sizeof *tech_checked);
    int nfiles = 0;
    char *names[16];
    char buf[512];
    snprintf(buf, sizeof buf, "%s", files);
    for (char *t = strtok(buf, ","); t && nfiles < 16; t = strtok(NULL, ",")) names[nfiles++] = t;
    long violations = 0, positions = 0, steps = 0;
    int done = 0;
    for (int fi = 0; fi < nfiles; fi++) {
        int want = total / nfiles + (fi < total % nfiles);
        uint8_t(*puz)[81];
        /* Spread the sample over the file. */
        FILE *f = fopen(tu_data_path(names[fi]), "r");
        if (!f) {
            fprintf(stderr, "cannot read %s\n", tu_data_path(names[fi]));
            return 2;
        }
        int lines = 0;
        char l[256];
        while (fgets(l, sizeof l, f)) lines++;
        fclose(f);
        int stride = lines / (want ? want : 1);
        if (stride < 1) stride = 1;
        int n = tu_read_puzzles(names[fi], want, stride, &puz);
        for (int i = 0; i < n; i++) {
            uint8_t sol[2][81];
            if (sdk_solve(puz[i], 2, sol, NULL) != 1) continue;
            check k = {.solution = sol[0], .limit = limit};
            walk w = {.all = &all,
                      .cfg = &cfg,
                      .engine_profile = walk_profile,
                      .k = &k,
                      .positions = positions,
                      .tech_steps = tech_steps,
                      .tech_time = tech_time,
                      .tech_checked = tech_checked,
                      .budget = budget_ms / 1000.0};
            sdk_grid g;
            sdk_grid_from_values(&g, puz[i]);
            sdk_run_opts ro = {.unique = true};
            sdk_engine_run(walk_profile, &g, &ro, at_position, &w, NULL);
            violations += k.violations;
            positions = w.positions;
            steps += k.steps;
            done++;
        }
        free(puz);
        printf("%-45s %5d puzzles checked\n", names[fi], n);
        fflush(stdout);
    }
    printf("\n%-34s %10s %10s %10s\n", "technique", "positions", "steps", "seconds");
    for (int i = 0; i < all.n; i++)
        printf("%-34s %10ld %10ld %10.2f%s\n", all.entry[i].tech->id, tech_checked[i],
               tech_steps[i], tech_time[i],
               all.entry[i].opts->n ? "  (walk profile's options)" : "");
    printf("\nsoundness: %d puzzles, %ld positions, %d techniques, %ld steps checked, %ld "
           "violations\n",
           done, positions, all.n, steps, violations);
    free(tech_steps);
    free(tech_time);
    free(tech_checked);
    sdk_profile_free(&all);
    sdk_config_free(&cfg);
    return violations ? 1 : 0;
}
