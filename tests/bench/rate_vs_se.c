/* rate_vs_se.c - how close our Sudoku Explainer profile rates to SE itself.
 *
 * Loads the build tree's plugins with a temp config holding the profile
 * block of plugins/se/PROFILE.md (or --config F [--profile NAME]), rates every
 * puzzle of se_ratings_public.tsv and prints ours vs SE (ER/EP/ED, hardest
 * step), then a summary: exact ER matches, within 0.1 / 0.5, mean absolute
 * error, time per puzzle (median, max); then a sample of
 * forum_hardest_1905_11plus.txt (every one SE >= 11.0): the share we rate
 * >= 11, >= 10, >= 9, >= 8 and our median/max ER and time.
 *
 *   rate_vs_se [--config F] [--profile NAME] [--profile-md F] [--data DIR]
 *              [--hard N] [--max N] [--quiet] [--steps FILE] [--times]
 *
 * --steps FILE writes every step (difficulty and text) of every puzzle, so
 * that two builds can be compared step by step.
 *
 * --times rates the puzzles of se_times_public.tsv instead (Sudoku
 * Explainer's own seconds per puzzle on this machine kind) the way the
 * service's `rate` does (solver count to 2, then the engine with `unique`
 * and guessing allowed) and prints our thread CPU time per puzzle next to
 * SE's seconds: the total ratio, the smallest per-puzzle ratio, and for the
 * puzzles SE did not finish in 300 s our median and worst time.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "sudoku/host.h"
#include "sudoku/solver.h"

#ifndef SUDOKU_SOURCE_DIR
#define SUDOKU_SOURCE_DIR "."
#endif
#ifndef SUDOKU_DEFAULT_DATA
#define SUDOKU_DEFAULT_DATA "../shared/data"
#endif

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int cmp_d(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}
static int cmp_i(const void *a, const void *b)
{
    return *(const int *)a - *(const int *)b;
}

/* The hardest step seen (its text up to ':', SE's technique name). */
typedef struct track {
    int er;
    char name[128];
    FILE *steps; /* --steps: every step's text, to compare two builds */
} track;

static int on_step(void *ctx, const sdk_step *s, const sdk_grid *before)
{
    (void)before;
    track *t = ctx;
    if (t->steps) fprintf(t->steps, "%d %s\n", s->difficulty, s->text);
    if (s->difficulty > t->er) {
        t->er = s->difficulty;
        size_t k = strcspn(s->text, ":");
        if (k >= sizeof t->name) k = sizeof t->name - 1;
        memcpy(t->name, s->text, k);
        t->name[k] = 0;
    }
    return 0;
}

static bool profile_from_md(const sdk_config *cfg, const char *path, sdk_profile *p)
{
    FILE *f = fopen(path, "r");
    if (!f) return false;
    char line[512];
    bool in = false;
    memset(p, 0, sizeof *p);
    snprintf(p->name, sizeof p->name, "se");
    while (fgets(line, sizeof line, f)) {
        if (!strncmp(line, "[profile", 8)) {
            in = true;
            continue;
        }
        if (!in) continue;
        if (!strncmp(line, "```", 3)) break;
        char id[128], *eq = strchr(line, '=');
        if (!eq) continue;
        size_t k = (size_t)(eq - line);
        while (k && line[k - 1] == ' ') k--;
        if (k == 0 || k >= sizeof id) continue;
        memcpy(id, line, k);
        id[k] = 0;
        const char *src = NULL;
        const sdk_technique *t = sdk_config_technique(cfg, id, &src);
        if (!t) {
            fprintf(stderr, "rate_vs_se: technique %s not loaded (skipped)\n", id);
            continue;
        }
        sdk_options o;
        char why[128];
        memset(&o, 0, sizeof o);
        char *val = eq + 1;
        val[strcspn(val, "\n")] = 0;
        if (*val && !sdk_options_parse(val, &o, why, sizeof why)) o.n = 0;
        sdk_profile_add(p, t, &o, -1, src);
    }
    fclose(f);
    return p->n > 0;
}

static bool load_grid(const char *s, sdk_grid *g)
{
    sdk_grid_init(g);
    for (int i = 0; i < 81; i++)
        if (s[i] >= '1' && s[i] <= '9') {
            if (!sdk_grid_has(g, i, s[i] - '0')) return false;
            sdk_grid_place(g, i, s[i] - '0', true);
        }
    return true;
}

static FILE *steps_out;

/* --times: one puzzle as the service's rate does it; thread CPU seconds. */
static double rate_service(const sdk_profile *p, const char *puz, sdk_rating *r, track *t)
{
    sdk_grid g;
    memset(t, 0, sizeof *t);
    t->steps = steps_out;
    if (steps_out) fprintf(steps_out, "puzzle %.81s\n", puz);
    memset(r, 0, sizeof *r);
    double t0 = now();
    if (!load_grid(puz, &g)) return 0;
    int count = sdk_solve_grid(&g, 2, NULL, NULL);
    sdk_run_opts o = {.no_guess = false, .unique = count == 1};
    sdk_engine_run(p, &g, &o, on_step, t, r);
    return now() - t0;
}

static int run_times(const sdk_profile *p, const char *data, bool quiet)
{
    char path[1024], line[1024];
    snprintf(path, sizeof path, "%s/se_times_public.tsv", data);
    FILE *f = fopen(path, "r");
    if (!f) {
        perror(path);
        return 1;
    }
    double ok_ours = 0, ok_se = 0, min_ratio = 1e30, *unf = calloc(1000, sizeof *unf);
    double *ok_t = calloc(1000, sizeof *ok_t);
    int nok = 0, nunf = 0, below30 = 0, zero = 0;
    if (!quiet)
        printf("%-4s %-5s %-5s %10s %10s %9s  %s\n", "#", "ER", "SE", "ours ms", "SE s", "ratio",
               "status");
    while (fgets(line, sizeof line, f) && nok + nunf < 1000) {
        if (strlen(line) < 81 || line[0] == 'p') continue;
        char puz[82], *fld[5];
        memcpy(puz, line, 81);
        puz[81] = 0;
        int nf = 0; /* empty fields count (SE's ER is empty when it did not finish) */
        line[strcspn(line, "\n")] = 0;
        for (char *s = line; s && nf < 5; nf++) {
            fld[nf] = s;
            s = strchr(s, '\t');
            if (s) *s++ = 0;
        }
        if (nf < 5) continue;
        sdk_rating r;
        track t;
        double dt = rate_service(p, puz, &r, &t);
        bool ok = !strcmp(fld[4], "ok");
        double se = atof(fld[3]), ratio = dt > 0 ? se / dt : 0;
        if (ok) {
            ok_ours += dt;
            ok_se += se;
            ok_t[nok++] = dt;
            if (se < 0.005) /* SE's time rounds to 0.00 s: no ratio */
                zero++;
            else {
                if (ratio < min_ratio) min_ratio = ratio;
                below30 += ratio < 30;
            }
        } else
            unf[nunf++] = dt;
        if (!quiet)
            printf("%-4d %-5.1f %-5s %10.1f %10s %9.1f  %s\n", nok + nunf, r.er / 10.0, fld[2],
                   dt * 1e3, ok ? fld[3] : ">300", ok ? ratio : 300 / dt, fld[4]);
        fflush(stdout);
    }
    fclose(f);
    qsort(unf, (size_t)nunf, sizeof *unf, cmp_d);
    qsort(ok_t, (size_t)nok, sizeof *ok_t, cmp_d);
    printf("\nse_times_public.tsv, profile as given, thread CPU\n");
    if (nok)
        printf("  %d puzzles SE finished: SE %.1f s, ours %.2f s in all (%.0fx); per puzzle: "
               "median %.1f ms, max %.1f ms, smallest ratio %.1fx, %d below 30x (%d with SE's "
               "0.00 s left out)\n",
               nok, ok_se, ok_ours, ok_se / ok_ours, ok_t[nok / 2] * 1e3, ok_t[nok - 1] * 1e3,
               min_ratio, below30, zero);
    if (nunf)
        printf("  %d puzzles SE did not finish in 300 s: ours median %.1f ms, max %.1f ms\n", nunf,
               unf[nunf / 2] * 1e3, unf[nunf - 1] * 1e3);
    free(unf);
    free(ok_t);
    return 0;
}

static double rate(const sdk_profile *p, const char *puz, sdk_rating *r, track *t)
{
    sdk_grid g;
    memset(t, 0, sizeof *t);
    t->steps = steps_out;
    if (steps_out) fprintf(steps_out, "puzzle %.81s\n", puz);
    memset(r, 0, sizeof *r);
    if (!load_grid(puz, &g)) return 0;
    sdk_run_opts o = {.no_guess = true, .unique = true};
    double t0 = now();
    sdk_engine_run(p, &g, &o, on_step, t, r);
    return now() - t0;
}

int main(int argc, char **argv)
{
    char line[1024];
    const char *conf = NULL, *pname = NULL;
    const char *md = SUDOKU_SOURCE_DIR "/plugins/se/PROFILE.md", *data = SUDOKU_DEFAULT_DATA;
    int nhard = 20, maxn = 1000;
    bool quiet = false, times_mode = false;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--config") && i + 1 < argc)
            conf = argv[++i];
        else if (!strcmp(argv[i], "--profile") && i + 1 < argc)
            pname = argv[++i];
        else if (!strcmp(argv[i], "--profile-md") && i + 1 < argc)
            md = argv[++i];
        else if (!strcmp(argv[i], "--data") && i + 1 < argc)
            data = argv[++i];
        else if (!strcmp(argv[i], "--hard") && i + 1 < argc)
            nhard = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--max") && i + 1 < argc)
            maxn = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--quiet"))
            quiet = true;
        else if (!strcmp(argv[i], "--times"))
            times_mode = true;
        else if (!strcmp(argv[i], "--steps") && i + 1 < argc) {
            steps_out = fopen(argv[++i], "w");
            if (!steps_out) {
                perror(argv[i]);
                return 2;
            }
        } else {
            fprintf(stderr,
                    "usage: rate_vs_se [--config F] [--profile NAME] [--profile-md F] "
                    "[--data DIR] [--hard N] [--max N] [--quiet] [--steps FILE] [--times]\n");
            return 2;
        }
    }
    sdk_config cfg;
    sdk_error err;
    char tmpconf[] = "/tmp/rate_vs_se.XXXXXX";
    if (!conf) {
        /* a temp config: the build tree's plugins, the profile block of PROFILE.md */
        int fd = mkstemp(tmpconf);
        FILE *in = fopen(md, "r");
        FILE *out = fd >= 0 ? fdopen(fd, "w") : NULL;
        if (!in || !out) {
            fprintf(stderr, "rate_vs_se: cannot read %s or write %s\n", md, tmpconf);
            return 1;
        }
        fprintf(out, "[sudokud]\nplugin_dir = %s\ndefault_profile = se\n\n", SUDOKU_PLUGIN_DIR);
        bool in_block = false;
        while (fgets(line, sizeof line, in)) {
            if (!strncmp(line, "[profile", 8))
                in_block = true;
            else if (in_block && !strncmp(line, "```", 3))
                break;
            if (in_block) fputs(line, out);
        }
        fclose(in);
        fclose(out);
        conf = tmpconf;
        if (!pname) pname = "se";
    }
    bool loaded = sdk_config_load(conf, &cfg, &err);
    if (conf == tmpconf) unlink(tmpconf);
    if (!loaded) {
        fprintf(stderr, "rate_vs_se: %s: %s\n", conf, err.msg);
        return 1;
    }
    sdk_profile own;
    const sdk_profile *p;
    if (pname) {
        p = sdk_config_profile(&cfg, pname);
        if (!p) {
            fprintf(stderr, "rate_vs_se: no profile %s\n", pname);
            return 1;
        }
    } else {
        if (!profile_from_md(&cfg, md, &own)) {
            fprintf(stderr, "rate_vs_se: no profile block in %s\n", md);
            return 1;
        }
        p = &own;
    }
    if (times_mode) {
        int rc = run_times(p, data, quiet);
        if (steps_out) fclose(steps_out);
        if (!pname) sdk_profile_free(&own);
        sdk_config_free(&cfg);
        return rc;
    }
    char path[1024];
    snprintf(path, sizeof path, "%s/se_ratings_public.tsv", data);
    FILE *f = fopen(path, "r");
    if (!f) {
        perror(path);
        return 1;
    }
    int n = 0, exact = 0, w1 = 0, w5 = 0, epx = 0, edx = 0, over = 0, under = 0;
    double sum_abs = 0, *times = calloc(maxn > 0 ? (size_t)maxn : 1, sizeof *times);
    printf("%-4s %-5s %-5s %-5s %-5s %-5s %-5s %8s  %-42s %s\n", "#", "ER", "SE", "EP", "SE", "ED",
           "SE", "ms", "our hardest", "SE hardest");
    while (fgets(line, sizeof line, f) && n < maxn) {
        if (strlen(line) < 81 || line[0] == 'p') continue;
        char puz[82], *fld[6];
        memcpy(puz, line, 81);
        puz[81] = 0;
        int nf = 0;
        for (char *s = strtok(line, "\t\n"); s && nf < 6; s = strtok(NULL, "\t\n")) fld[nf++] = s;
        if (nf < 6) continue;
        int se_er = (int)(atof(fld[1]) * 10 + 0.5), se_ep = (int)(atof(fld[2]) * 10 + 0.5),
            se_ed = (int)(atof(fld[3]) * 10 + 0.5);
        sdk_rating r;
        track t;
        double dt = rate(p, puz, &r, &t);
        times[n] = dt;
        int d = r.er - se_er;
        if (r.status != SDK_RUN_SOLVED) d = 200 - se_er;
        exact += d == 0;
        w1 += abs(d) <= 1;
        w5 += abs(d) <= 5;
        over += d > 0;
        under += d < 0;
        epx += r.ep == se_ep;
        edx += r.ed == se_ed;
        sum_abs += abs(d) / 10.0;
        if (!quiet)
            printf("%-4d %-5.1f %-5.1f %-5.1f %-5.1f %-5.1f %-5.1f %8.1f  %-42.42s %s%s\n", n + 1,
                   r.status == SDK_RUN_SOLVED ? r.er / 10.0 : 20.0, se_er / 10.0, r.ep / 10.0,
                   se_ep / 10.0, r.ed / 10.0, se_ed / 10.0, dt * 1e3, t.name, fld[5],
                   d == 0 ? "" : "   *");
        fflush(stdout);
        n++;
    }
    fclose(f);
    qsort(times, (size_t)n, sizeof *times, cmp_d);
    printf("\nse_ratings_public.tsv: %d puzzles\n", n);
    if (n) {
        printf(
            "  ER exact %d (%.0f%%), within 0.1 %d (%.0f%%), within 0.5 %d (%.0f%%), mean |error| "
            "%.2f, ours higher %d, lower %d\n",
            exact, 100.0 * exact / n, w1, 100.0 * w1 / n, w5, 100.0 * w5 / n, sum_abs / n, over,
            under);
        printf("  EP exact %d, ED exact %d\n", epx, edx);
        printf("  time per puzzle: median %.1f ms, max %.1f ms (thread CPU)\n", times[n / 2] * 1e3,
               times[n - 1] * 1e3);
    }
    /* the >= 11.0 sample */
    if (nhard > 0) {
        snprintf(path, sizeof path, "%s/forum_hardest_1905_11plus.txt", data);
        f = fopen(path, "r");
        if (!f) {
            perror(path);
            return 1;
        }
        int total = 0;
        while (fgets(line, sizeof line, f)) total++;
        rewind(f);
        int stride = total / nhard > 0 ? total / nhard : 1, k = 0, m = 0;
        int *ers = calloc((size_t)nhard + 1, sizeof *ers);
        double *ht = calloc((size_t)nhard + 1, sizeof *ht);
        int ge[4] = {0};
        while (fgets(line, sizeof line, f) && m < nhard) {
            if (k++ % stride) continue;
            sdk_rating r;
            track t;
            ht[m] = rate(p, line, &r, &t);
            ers[m] = r.status == SDK_RUN_SOLVED ? r.er : 200;
            for (int q = 0; q < 4; q++) ge[q] += ers[m] >= 110 - 10 * q;
            if (!quiet)
                printf("hard %-3d ER %5.1f %8.1f ms  %s\n", m + 1, ers[m] / 10.0, ht[m] * 1e3,
                       t.name);
            fflush(stdout);
            m++;
        }
        fclose(f);
        qsort(ers, (size_t)m, sizeof *ers, cmp_i);
        qsort(ht, (size_t)m, sizeof *ht, cmp_d);
        if (m) {
            printf(
                "\nforum_hardest_1905_11plus.txt: %d puzzles (every %d-th), SE >= 11.0 for all\n",
                m, stride);
            printf(
                "  ours >= 11.0: %d (%.0f%%), >= 10.0: %d (%.0f%%), >= 9.0: %d (%.0f%%), >= 8.0: "
                "%d (%.0f%%)\n",
                ge[0], 100.0 * ge[0] / m, ge[1], 100.0 * ge[1] / m, ge[2], 100.0 * ge[2] / m, ge[3],
                100.0 * ge[3] / m);
            printf("  ER median %.1f, max %.1f; time median %.1f ms, max %.1f ms\n",
                   ers[m / 2] / 10.0, ers[m - 1] / 10.0, ht[m / 2] * 1e3, ht[m - 1] * 1e3);
        }
        free(ers);
        free(ht);
    }
    free(times);
    if (steps_out) fclose(steps_out);
    if (!pname) sdk_profile_free(&own);
    sdk_config_free(&cfg);
    return 0;
}
