/* bench_rate.c - throughput of `rate` and how far logic alone gets.
 *
 * Part 1 (rate): puzzles/s of what the service does for `rate` (parse, count
 * solutions to 2 with the solver, then sdk_engine_run with unique set when
 * there is one solution), per file, the median of several runs; then one more
 * run with an engine observer that times each technique's find (self time,
 * nested propagate calls subtracted) and the report gives the share of the run's time
 * per technique, plus the solver check and the engine's own work.
 *
 * Part 2 (logic): every puzzle of each file run with no_guess (and the
 * solver's uniqueness check first) per profile: the share solved by logic
 * alone; for the others where they stopped (histogram of unsolved cells, the
 * last technique that acted), and the median / max time per puzzle. Puzzles
 * run in a forked child, so a per-puzzle CPU-time cap (--cap-ms) really stops
 * one that runs too long; capped puzzles are counted and their state when
 * stopped (cells unsolved, last technique) still goes into the histograms.
 *
 *   bench_rate [--config F] [--data DIR] [--part rate|logic|all]
 *              [--profile NAME] [--runs N] [--rate-files F[:N],...] [--top N]
 *              [--logic-profiles P,...] [--logic-files F[:N],...] [--cap-ms MS]
 *
 * F:N takes a sample of N puzzles spread evenly over the file (every k-th).
 * The config is --config, else $SUDOKU_CONF, else the build tree's
 * etc/sudokud/sudokud.conf; the data folder --data, else $SUDOKU_DATA, else
 * ../shared/data next to the repository. Times are CPU times of one thread
 * (meaningful on a busy machine); the technique observer uses the monotonic
 * clock, which is cheaper to read.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "sudoku/host.h"
#include "sudoku/solver.h"

/* Defaults: the config of the build tree this binary sits in (bin/ ->
 * etc/sudokud/sudokud.conf, as in the install tree), and the data folder next
 * to the repository this file is in. */
static void default_conf(char *out, size_t n)
{
    char exe[1024];
    ssize_t k = readlink("/proc/self/exe", exe, sizeof exe - 1);
    char *slash = k > 0 ? (exe[k] = 0, strrchr(exe, '/')) : NULL;
    if (slash) {
        *slash = 0;
        snprintf(out, n, "%s/../etc/sudokud/sudokud.conf", exe);
    } else
        snprintf(out, n, "build/etc/sudokud/sudokud.conf");
}

static void default_data(char *out, size_t n)
{
    const char *src = __FILE__, *tail = strstr(src, "/tests/bench/bench_rate.c");
    if (src[0] == '/' && tail)
        snprintf(out, n, "%.*s/../shared/data", (int)(tail - src), src);
    else
        snprintf(out, n, "../shared/data");
}

static double clock_of(clockid_t id)
{
    struct timespec t;
    clock_gettime(id, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}
static double cpu_now(void)
{
    return clock_of(CLOCK_THREAD_CPUTIME_ID);
}
static double mono_now(void)
{
    return clock_of(CLOCK_MONOTONIC);
}

static int cmp_d(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int n)
{
    if (n <= 0) return 0;
    qsort(v, (size_t)n, sizeof *v, cmp_d);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* ---- puzzles ------------------------------------------------------------- */

typedef struct puzzles {
    char name[128];
    int n, total, stride;
    char (*text)[82];
} puzzles;

/* "file" or "file:N" (N puzzles, every k-th). */
static bool load_puzzles(const char *dir, const char *spec, puzzles *ps)
{
    memset(ps, 0, sizeof *ps);
    char file[512];
    snprintf(file, sizeof file, "%s", spec);
    int want = 0;
    char *colon = strrchr(file, ':');
    if (colon) {
        want = atoi(colon + 1);
        *colon = 0;
    }
    char path[1100];
    if (strchr(file, '/'))
        snprintf(path, sizeof path, "%s", file);
    else
        snprintf(path, sizeof path, "%s/%s", dir, file);
    FILE *f = fopen(path, "r");
    if (!f) {
        perror(path);
        return false;
    }
    char line[1024];
    int total = 0;
    while (fgets(line, sizeof line, f))
        if (line[0] != '#' && strlen(line) >= 81) total++;
    rewind(f);
    int stride = want > 0 && total / want > 1 ? total / want : 1;
    int cap = want > 0 && want < total ? want : total;
    ps->text = calloc((size_t)(cap ? cap : 1), sizeof *ps->text);
    int k = 0;
    while (ps->n < cap && fgets(line, sizeof line, f)) {
        if (line[0] == '#' || strlen(line) < 81) continue;
        if (k++ % stride) continue;
        memcpy(ps->text[ps->n], line, 81);
        ps->text[ps->n][81] = 0;
        ps->n++;
    }
    fclose(f);
    const char *base = strrchr(file, '/') ? strrchr(file, '/') + 1 : file;
    snprintf(ps->name, sizeof ps->name, "%s", base);
    ps->total = total;
    ps->stride = stride;
    return ps->n > 0;
}

static const char *sample_text(const puzzles *ps, char *buf, size_t n)
{
    if (ps->n == ps->total)
        snprintf(buf, n, "%d (all)", ps->n);
    else
        snprintf(buf, n, "%d of %d (every %d-th)", ps->n, ps->total, ps->stride);
    return buf;
}

/* As the service's rate: parse, count to 2, run with unique when 1. */
static sdk_run_status rate_one(const sdk_profile *p, const char *text, bool no_guess,
                               const sdk_observer *obs, sdk_step_fn fn, void *ctx, sdk_grid *g,
                               sdk_rating *r, int *count)
{
    sdk_error err;
    memset(r, 0, sizeof *r);
    *count = 0;
    if (!sdk_parse(text, g, &err)) return SDK_RUN_BROKEN;
    *count = sdk_solve_grid(g, 2, NULL, NULL);
    if (*count == 0) return SDK_RUN_BROKEN;
    sdk_run_opts o = {.no_guess = no_guess, .unique = *count == 1, .observer = obs};
    return sdk_engine_run(p, g, &o, fn, ctx, r);
}

/* ---- part 1: the technique timing observer ------------------------------- */

typedef struct tstat {
    double self, incl;
    long calls, steps;
} tstat;

/* An engine observer timing every find() of a profile: self time (nested
 * propagate calls subtracted) and inclusive time per entry. */
#define MAX_DEPTH 16
typedef struct wrapped {
    const sdk_profile *p;
    sdk_observer obs;
    tstat *st;
    int last_top; /* entry whose find ran last at depth 0: the one that yielded */
    long other_steps;
    struct {
        double t0, inner; /* start, time in nested finds so far */
    } stack[MAX_DEPTH];
} wrapped;

static void time_enter(void *arg, const sdk_profile *p, int entry, int depth)
{
    (void)p;
    wrapped *w = arg;
    if (depth == 0) w->last_top = entry;
    if (depth >= MAX_DEPTH) return;
    w->stack[depth].inner = 0;
    w->stack[depth].t0 = mono_now();
}

static void time_leave(void *arg, const sdk_profile *p, int entry, int depth, int outer)
{
    (void)p, (void)outer;
    wrapped *w = arg;
    if (depth >= MAX_DEPTH) return;
    double dt = mono_now() - w->stack[depth].t0;
    w->st[entry].self += dt - w->stack[depth].inner;
    w->st[entry].incl += dt;
    w->st[entry].calls++;
    if (depth > 0) w->stack[depth - 1].inner += dt;
}

static void wrap_profile(const sdk_profile *p, wrapped *w)
{
    memset(w, 0, sizeof *w);
    w->p = p;
    w->obs = (sdk_observer){time_enter, time_leave, w};
    w->st = calloc((size_t)p->n, sizeof *w->st);
    w->last_top = -1;
}

static void unwrap_profile(wrapped *w)
{
    free(w->st);
}

/* Which entry a step came from by the id it names (a fallback). */
static int entry_of(const sdk_profile *p, const sdk_step *s)
{
    return s->tech && s->tech->id ? sdk_profile_find(p, s->tech->id) : -1;
}

static int count_step(void *ctx, const sdk_step *s, const sdk_grid *before)
{
    (void)before;
    wrapped *w = ctx;
    /* the engine applies the step of the last technique it ran at depth 0
     * (a technique may name a sub-kind's descriptor in its steps) */
    int i = w->last_top >= 0 ? w->last_top : entry_of(w->p, s);
    if (i >= 0)
        w->st[i].steps++;
    else
        w->other_steps++;
    return 0;
}

typedef struct share_row {
    const char *id;
    double self;
    long calls, steps;
} share_row;

static int cmp_row(const void *a, const void *b)
{
    double x = ((const share_row *)a)->self, y = ((const share_row *)b)->self;
    return (x < y) - (x > y);
}

static void part_rate(const sdk_profile *p, const char *dir, const char *files, int runs, int top)
{
    printf("## Part 1: rate throughput, profile `%s`\n\n", p->name);
    printf("Per puzzle as the service's `rate`: parse, sdk_solve_grid(limit 2), sdk_engine_run "
           "(guessing allowed). Thread CPU time, median of %d runs.\n\n",
           runs);
    char list[2048];
    snprintf(list, sizeof list, "%s", files);
    for (char *save = NULL, *spec = strtok_r(list, ",", &save); spec;
         spec = strtok_r(NULL, ",", &save)) {
        puzzles ps;
        if (!load_puzzles(dir, spec, &ps)) continue;
        char sbuf[96];
        double *rate = calloc((size_t)runs, sizeof *rate);
        int solved = 0, stuck = 0, broken = 0, er_sum = 0;
        for (int r = 0; r < runs; r++) {
            solved = stuck = broken = er_sum = 0;
            double t0 = cpu_now();
            for (int k = 0; k < ps.n; k++) {
                sdk_grid g;
                sdk_rating rt;
                int count;
                sdk_run_status st =
                    rate_one(p, ps.text[k], false, NULL, NULL, NULL, &g, &rt, &count);
                solved += st == SDK_RUN_SOLVED;
                stuck += st == SDK_RUN_STUCK || st == SDK_RUN_LIMIT;
                broken += st == SDK_RUN_BROKEN;
                er_sum += rt.er;
            }
            rate[r] = ps.n / (cpu_now() - t0);
            fprintf(stderr, "  %s run %d: %.1f puzzles/s\n", ps.name, r + 1, rate[r]);
        }
        double lo = rate[0], hi = rate[0];
        for (int r = 1; r < runs; r++) {
            if (rate[r] < lo) lo = rate[r];
            if (rate[r] > hi) hi = rate[r];
        }
        double med = median(rate, runs);
        printf("### %s: %s puzzles\n\n", ps.name, sample_text(&ps, sbuf, sizeof sbuf));
        printf("| puzzles/s (median) | min..max | ms/puzzle | solved | stuck | broken | mean ER "
               "|\n|---:|---|---:|---:|---:|---:|---:|\n");
        printf("| %.1f | %.1f..%.1f | %.3f | %d | %d | %d | %.2f |\n\n", med, lo, hi, 1e3 / med,
               solved, stuck, broken, er_sum / 10.0 / ps.n);

        /* one more run, timed per technique */
        wrapped w;
        wrap_profile(p, &w);
        double check = 0, engine = 0;
        long steps = 0;
        double c0 = cpu_now(), t0 = mono_now();
        for (int k = 0; k < ps.n; k++) {
            sdk_grid g;
            sdk_error err;
            double a = mono_now();
            if (!sdk_parse(ps.text[k], &g, &err)) continue;
            int count = sdk_solve_grid(&g, 2, NULL, NULL);
            double b = mono_now();
            check += b - a;
            if (count == 0) continue;
            sdk_run_opts o = {.unique = count == 1, .observer = &w.obs};
            sdk_rating rt;
            sdk_engine_run(p, &g, &o, count_step, &w, &rt);
            engine += mono_now() - b;
            steps += rt.steps;
        }
        double total = mono_now() - t0, total_cpu = cpu_now() - c0;
        int nrow = p->n + 2;
        share_row *row = calloc((size_t)nrow, sizeof *row);
        double finds = 0;
        for (int i = 0; i < p->n; i++) {
            row[i] = (share_row){p->entry[i].tech->id, w.st[i].self, w.st[i].calls, w.st[i].steps};
            finds += w.st[i].self;
        }
        row[p->n] = (share_row){"(parse + solver uniqueness check)", check, ps.n, 0};
        row[p->n + 1] = (share_row){"(engine outside finds: apply, checks)", engine - finds, ps.n,
                                    w.other_steps};
        qsort(row, (size_t)nrow, sizeof *row, cmp_row);
        printf("Time per technique (one more run with the timing observer: %.1f puzzles/s CPU; "
               "shares of its monotonic time; self time: a nested propagate's finds count to "
               "their own technique; %ld steps applied):\n\n",
               ps.n / total_cpu, steps);
        printf("| # | technique | share | ms total | calls | steps applied |\n"
               "|---:|---|---:|---:|---:|---:|\n");
        double shown = 0;
        for (int i = 0, k = 0; i < nrow && k < top; i++) {
            if (row[i].calls == 0 && row[i].self == 0) continue;
            k++;
            shown += row[i].self;
            printf("| %d | %s | %.1f%% | %.1f | %ld | %ld |\n", k, row[i].id,
                   100.0 * row[i].self / total, row[i].self * 1e3, row[i].calls, row[i].steps);
        }
        printf("| | (rest) | %.1f%% | %.1f | | |\n\n", 100.0 * (total - shown) / total,
               (total - shown) * 1e3);
        free(row);
        unwrap_profile(&w);
        free(rate);
        free(ps.text);
        fflush(stdout);
    }
}

/* ---- part 2: logic only, one forked child per run of puzzles ------------- */

enum { R_CAPPED = 10, R_CRASHED = 11, R_NOTRUN = 12 };

typedef struct lres {
    int status; /* sdk_run_status, R_CAPPED, R_CRASHED */
    int unsolved;
    int last; /* entry index of the last technique that acted, -1: none */
    int steps;
    double cpu;
} lres;

/* Shared with the child: where it is, and every puzzle's result. */
typedef struct shared {
    int cur;        /* puzzle being run */
    long long cpu0; /* the child's CPU clock (ns) when it started cur */
    int prog_unsolved, prog_last, prog_steps;
    lres res[];
} shared;

typedef struct progress {
    shared *sh;
    wrapped *w;
    const sdk_grid *g;
} progress;

static int on_progress(void *ctx, const sdk_step *s, const sdk_grid *before)
{
    (void)before;
    progress *pr = ctx;
    int last = pr->w->last_top >= 0 ? pr->w->last_top : entry_of(pr->w->p, s);
    __atomic_store_n(&pr->sh->prog_last, last, __ATOMIC_RELAXED);
    __atomic_store_n(&pr->sh->prog_unsolved, sdk_grid_empty_count(pr->g), __ATOMIC_RELAXED);
    __atomic_add_fetch(&pr->sh->prog_steps, 1, __ATOMIC_RELAXED);
    return 0;
}

static void child_run(const sdk_profile *orig, const puzzles *ps, shared *sh, int from)
{
    /* with the observer too: it tells which entry yielded each step */
    wrapped w;
    wrap_profile(orig, &w);
    const sdk_profile *p = orig;
    for (int k = from; k < ps->n; k++) {
        sh->prog_unsolved = -1;
        sh->prog_last = -1;
        sh->prog_steps = 0;
        w.last_top = -1;
        double t0 = clock_of(CLOCK_PROCESS_CPUTIME_ID);
        __atomic_store_n(&sh->cpu0, (long long)(t0 * 1e9), __ATOMIC_RELEASE);
        __atomic_store_n(&sh->cur, k, __ATOMIC_RELEASE);
        sdk_grid g;
        sdk_rating rt;
        int count;
        progress pr = {sh, &w, &g};
        sdk_run_status st =
            rate_one(p, ps->text[k], true, &w.obs, on_progress, &pr, &g, &rt, &count);
        lres r = {(int)st, sdk_grid_empty_count(&g), sh->prog_last, rt.steps,
                  clock_of(CLOCK_PROCESS_CPUTIME_ID) - t0};
        sh->res[k] = r;
    }
    __atomic_store_n(&sh->cur, ps->n, __ATOMIC_RELEASE);
    unwrap_profile(&w);
}

/* Run every puzzle in children; a child over the cap is killed and the next
 * one starts after its puzzle. */
static void run_logic(const sdk_profile *p, const puzzles *ps, double cap, shared *sh)
{
    for (int k = 0; k < ps->n; k++) sh->res[k] = (lres){R_NOTRUN, -1, -1, 0, 0};
    int from = 0;
    while (from < ps->n) {
        sh->cur = from;
        sh->cpu0 = 0;
        fflush(stdout);
        fflush(stderr);
        pid_t pid = fork();
        if (pid < 0) {
            perror("fork");
            return;
        }
        if (pid == 0) {
            child_run(p, ps, sh, from);
            _exit(0);
        }
        clockid_t cid;
        bool have_clock = clock_getcpuclockid(pid, &cid) == 0;
        int over = 0, over_at = -1;
        for (;;) {
            struct timespec nap = {0, 5 * 1000 * 1000};
            nanosleep(&nap, NULL);
            int status;
            if (waitpid(pid, &status, WNOHANG) == pid) {
                int cur = __atomic_load_n(&sh->cur, __ATOMIC_ACQUIRE);
                if (cur < ps->n) { /* died on puzzle cur */
                    sh->res[cur] =
                        (lres){R_CRASHED, sh->prog_unsolved, sh->prog_last, sh->prog_steps, 0};
                    from = cur + 1;
                } else
                    from = ps->n;
                break;
            }
            if (cap <= 0 || !have_clock) continue;
            int cur = __atomic_load_n(&sh->cur, __ATOMIC_ACQUIRE);
            long long cpu0 = __atomic_load_n(&sh->cpu0, __ATOMIC_ACQUIRE);
            if (cur >= ps->n || cpu0 <= 0) continue;
            double used = clock_of(cid) - (double)cpu0 * 1e-9;
            if (used > cap && cur == __atomic_load_n(&sh->cur, __ATOMIC_ACQUIRE)) {
                /* twice in a row on the same puzzle: not a stale start time */
                over = over_at == cur ? over + 1 : 1;
                over_at = cur;
                if (over < 2) continue;
                kill(pid, SIGKILL);
                waitpid(pid, &status, 0);
                sh->res[cur] =
                    (lres){R_CAPPED, sh->prog_unsolved, sh->prog_last, sh->prog_steps, used};
                from = cur + 1;
                break;
            }
        }
    }
}

typedef struct count_row {
    int entry;
    int n;
} count_row;

static int cmp_count(const void *a, const void *b)
{
    return ((const count_row *)b)->n - ((const count_row *)a)->n;
}

static void report_logic(const sdk_profile *p, const puzzles *ps, const shared *sh, double cap)
{
    int n = ps->n, solved = 0, stuck = 0, capped = 0, crashed = 0, broken = 0, limit = 0;
    enum { NBIN = 8 };
    static const char *bin_name[NBIN] = {"1-9",   "10-19", "20-29", "30-39",
                                         "40-49", "50-59", "60+",   "?"};
    int bins[NBIN] = {0};
    count_row *lastc = calloc((size_t)p->n + 1, sizeof *lastc);
    for (int i = 0; i <= p->n; i++) lastc[i].entry = i < p->n ? i : -1;
    double *times = calloc((size_t)n, sizeof *times);
    double tmax = 0;
    int unsolved_sum = 0, nstop = 0;
    for (int k = 0; k < n; k++) {
        const lres *r = &sh->res[k];
        times[k] = r->status == R_CAPPED ? (r->cpu > cap ? r->cpu : cap) : r->cpu;
        if (times[k] > tmax) tmax = times[k];
        switch (r->status) {
        case SDK_RUN_SOLVED:
            solved++;
            continue;
        case SDK_RUN_STUCK:
            stuck++;
            break;
        case SDK_RUN_LIMIT:
            limit++;
            break;
        case SDK_RUN_BROKEN:
            broken++;
            continue;
        case R_CAPPED:
            capped++;
            break;
        default:
            crashed++;
            break;
        }
        nstop++;
        int u = r->unsolved;
        if (u >= 0) unsolved_sum += u;
        bins[u < 1 ? NBIN - 1 : u >= 60 ? 6 : u / 10]++;
        lastc[r->last >= 0 && r->last < p->n ? r->last : p->n].n++;
    }
    double tmed = median(times, n);
    char sbuf[96];
    printf("### %s, profile `%s`: %s puzzles\n\n", ps->name, p->name,
           sample_text(ps, sbuf, sizeof sbuf));
    printf("| solved by logic | stuck | capped (> %.0f s CPU) | other | time median | time max "
           "|\n|---:|---:|---:|---:|---:|---:|\n",
           cap);
    printf("| %d (%.1f%%) | %d | %d | %d | %.1f ms | %s%.1f ms |\n\n", solved, 100.0 * solved / n,
           stuck, capped, broken + crashed + limit, tmed * 1e3, capped ? ">= " : "", tmax * 1e3);
    if (broken + crashed + limit)
        printf("(other: %d broken, %d crashed, %d step limit)\n\n", broken, crashed, limit);
    if (nstop) {
        printf("Where the %d unsolved stop (stuck%s): unsolved cells, mean %.1f\n\n", nstop,
               capped ? " or state when capped" : "", (double)unsolved_sum / nstop);
        printf("| unsolved cells |");
        for (int b = 0; b < NBIN; b++)
            if (bins[b] || b < NBIN - 1) printf(" %s |", bin_name[b]);
        printf("\n|---|");
        for (int b = 0; b < NBIN; b++)
            if (bins[b] || b < NBIN - 1) printf("---:|");
        printf("\n| puzzles |");
        for (int b = 0; b < NBIN; b++)
            if (bins[b] || b < NBIN - 1) printf(" %d |", bins[b]);
        printf("\n\n");
        qsort(lastc, (size_t)p->n + 1, sizeof *lastc, cmp_count);
        printf("Last technique that acted: ");
        for (int i = 0, shown = 0; i <= p->n && shown < 8; i++) {
            if (!lastc[i].n) continue;
            printf("%s%s %d", shown ? ", " : "",
                   lastc[i].entry >= 0 ? p->entry[lastc[i].entry].tech->id : "(none)", lastc[i].n);
            shown++;
        }
        printf("\n\n");
    }
    free(lastc);
    free(times);
    fflush(stdout);
}

static void part_logic(const sdk_config *cfg, const char *dir, const char *profiles,
                       const char *files, double cap)
{
    printf("## Part 2: logic only (no_guess)\n\n");
    printf("Parse, sdk_solve_grid(limit 2), sdk_engine_run with no_guess; each puzzle in a "
           "forked child, killed after %.0f s of CPU (a capped puzzle counts as >= the cap). "
           "Times: CPU per puzzle, solver check included.\n\n",
           cap);
    char flist[2048];
    snprintf(flist, sizeof flist, "%s", files);
    for (char *fs = NULL, *spec = strtok_r(flist, ",", &fs); spec;
         spec = strtok_r(NULL, ",", &fs)) {
        puzzles ps;
        if (!load_puzzles(dir, spec, &ps)) continue;
        size_t bytes = sizeof(shared) + sizeof(lres) * (size_t)ps.n;
        shared *sh = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
        if (sh == MAP_FAILED) {
            perror("mmap");
            free(ps.text);
            continue;
        }
        char plist[512];
        snprintf(plist, sizeof plist, "%s", profiles);
        for (char *ps_save = NULL, *pn = strtok_r(plist, ",", &ps_save); pn;
             pn = strtok_r(NULL, ",", &ps_save)) {
            const sdk_profile *p = sdk_config_profile(cfg, pn);
            if (!p) {
                fprintf(stderr, "bench_rate: no profile %s\n", pn);
                continue;
            }
            double t0 = mono_now();
            run_logic(p, &ps, cap, sh);
            fprintf(stderr, "  %s / %s: %.0f s wall\n", ps.name, pn, mono_now() - t0);
            report_logic(p, &ps, sh, cap);
        }
        munmap(sh, bytes);
        free(ps.text);
    }
}

/* ---- main ------------------------------------------------------------------ */

static void usage(void)
{
    fprintf(stderr,
            "usage: bench_rate [--config F] [--data DIR] [--part rate|logic|all]\n"
            "                  [--profile NAME] [--runs N] [--rate-files F[:N],...] [--top N]\n"
            "                  [--logic-profiles P,...] [--logic-files F[:N],...] [--cap-ms MS]\n");
}

int main(int argc, char **argv)
{
    const char *conf = NULL, *dir = NULL, *pname = "default", *part = "all";
    const char *rate_files = "kaggle_10k.txt,top1465.txt";
    const char *logic_profiles = "default,standard";
    const char *logic_files = "top1465.txt,kaggle_10k.txt,17clue.txt:1000,forum_hardest_1106.txt,"
                              "forum_hardest_1905_11plus.txt:100";
    int runs = 3, top = 10;
    double cap = 10.0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            usage();
            return 0;
        }
        if (!v) {
            usage();
            return 2;
        }
        i++;
        if (!strcmp(a, "--config"))
            conf = v;
        else if (!strcmp(a, "--data"))
            dir = v;
        else if (!strcmp(a, "--part"))
            part = v;
        else if (!strcmp(a, "--profile"))
            pname = v;
        else if (!strcmp(a, "--runs"))
            runs = atoi(v);
        else if (!strcmp(a, "--rate-files"))
            rate_files = v;
        else if (!strcmp(a, "--top"))
            top = atoi(v);
        else if (!strcmp(a, "--logic-profiles"))
            logic_profiles = v;
        else if (!strcmp(a, "--logic-files"))
            logic_files = v;
        else if (!strcmp(a, "--cap-ms"))
            cap = atof(v) / 1e3;
        else {
            usage();
            return 2;
        }
    }
    if (runs < 1) runs = 1;
    if (top < 1) top = 1;
    if (!conf) conf = getenv("SUDOKU_CONF");
    char conf_buf[1200], data_buf[1200];
    if (!conf || !*conf) {
        default_conf(conf_buf, sizeof conf_buf);
        conf = conf_buf;
    }
    if (!dir) dir = getenv("SUDOKU_DATA");
    if (!dir || !*dir) {
        default_data(data_buf, sizeof data_buf);
        dir = data_buf;
    }
    bool do_rate = !strcmp(part, "rate") || !strcmp(part, "all");
    bool do_logic = !strcmp(part, "logic") || !strcmp(part, "all");
    if (!do_rate && !do_logic) {
        usage();
        return 2;
    }

    sdk_config cfg;
    sdk_error err;
    if (!sdk_config_load(conf, &cfg, &err)) {
        fprintf(stderr, "bench_rate: %s: %s\n", conf, err.msg);
        return 1;
    }
    printf("# bench_rate\n\nconfig: %s; data: %s\n\n", conf, dir);
    if (do_rate) {
        const sdk_profile *p = sdk_config_profile(&cfg, pname);
        if (!p) {
            fprintf(stderr, "bench_rate: no profile %s\n", pname);
            sdk_config_free(&cfg);
            return 1;
        }
        part_rate(p, dir, rate_files, runs, top);
    }
    if (do_logic) part_logic(&cfg, dir, logic_profiles, logic_files, cap);
    sdk_config_free(&cfg);
    return 0;
}
