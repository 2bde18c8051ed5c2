/* rate.c - libsudoku in-process: read puzzles, check them with the solver,
 * rate them with the engine, print ER/EP/ED and the hardest technique; with
 * -v every step. No daemon, no socket: the same code sudokud's workers run.
 *
 *   rate [-v] CONFIG [PROFILE] < puzzles
 *
 * CONFIG is a sudokud.conf (it names the plugin folder and the profiles);
 * the puzzles are in any format sdk_parse() reads. See docs/LIBRARY.md. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sudoku/engine.h>
#include <sudoku/format.h>
#include <sudoku/grid.h>
#include <sudoku/host.h>
#include <sudoku/solver.h>

/* Called by the engine for every step it applies, with the grid before it. */
static int print_step(void *ctx, const sdk_step *s, const sdk_grid *before)
{
    (void)before;
    int *n = ctx;
    char d[8];
    printf("  %d. [%s] %s\n", ++*n, sdk_difficulty_text(s->difficulty, d), s->text);
    return 0; /* nonzero would stop the run */
}

int main(int argc, char **argv)
{
    int verbose = argc > 1 && !strcmp(argv[1], "-v");
    if (argc - verbose < 2 || argc - verbose > 3) {
        fprintf(stderr, "usage: %s [-v] CONFIG [PROFILE] < puzzles\n", argv[0]);
        return 2;
    }
    const char *conf = argv[1 + verbose], *name = argc - verbose == 3 ? argv[2 + verbose] : NULL;
    sdk_config cfg;
    sdk_error err;
    if (!sdk_config_load(conf, &cfg, &err)) { /* loads every plugin too */
        fprintf(stderr, "%s: %s: %s\n", argv[0], err.code, err.msg);
        return 2;
    }
    const sdk_profile *profile = sdk_config_profile(&cfg, name);
    if (!profile) {
        fprintf(stderr, "%s: no profile '%s' in %s\n", argv[0], name ? name : "", conf);
        sdk_config_free(&cfg);
        return 2;
    }
    int status = 0;
    sdk_reader rd;
    sdk_reader_init(&rd, stdin);
    const char *text;
    long line;
    while (sdk_reader_next(&rd, &text, &line) == 1) {
        sdk_grid g;
        char p81[82];
        if (!sdk_parse(text, &g, &err)) { /* precise: what, where, why */
            printf("line %ld: %s: %s\n", line, err.code, err.msg);
            status = 1;
            continue;
        }
        sdk_format_line(&g, p81);
        /* Techniques assume one solution (uniqueness ones rely on it). */
        uint8_t sol[2][81];
        int count = sdk_solve_grid(&g, 2, sol, NULL);
        if (count != 1) {
            printf("%s  %s\n", p81, count ? "several solutions" : "no solution");
            status = 1;
            continue;
        }
        sdk_run_opts opts = {.unique = true};
        sdk_rating r;
        int steps = 0;
        if (verbose) printf("%s\n", p81);
        sdk_engine_run(profile, &g, &opts, verbose ? print_step : NULL, &steps, &r);
        char er[8], ep[8], ed[8];
        printf("%s  %s/%s/%s  %s  %s%s\n", p81, sdk_difficulty_text(r.er, er),
               sdk_difficulty_text(r.ep, ep), sdk_difficulty_text(r.ed, ed),
               sdk_level_name(r.level), r.hardest ? r.hardest->id : "-",
               r.status == SDK_RUN_SOLVED ? "" : "  (stuck)");
    }
    sdk_reader_free(&rd);
    sdk_config_free(&cfg);
    return status;
}
