/* bench_solver.c - throughput of the brute-force solver (sdk_solve).
 *
 * For each puzzle file: puzzles/s, microseconds/puzzle and guesses/puzzle in
 * first-solution mode (limit 1) and counting to 2 (limit 2), the median of
 * several runs over the whole file; then a check of every puzzle (count to 2
 * must be 1, or 2 for serg_benchmark; the solutions must keep the givens and
 * the rules) whose failures are counted; and, on the first puzzles of the
 * file, the ratio against a plain baseline solver measured in the same run (a
 * recursive cell-mask solver that picks the cell with the fewest candidates).
 *
 * With --ref LIB.so (a reference solver built apart, e.g. tdoku's
 * solver_dpll_triad_simd.cc as a shared library), that library's
 * `size_t SYMBOL(const char *puzzle, size_t limit, uint32_t config,
 * char *solution, size_t *guesses)` (default symbol TdokuSolverDpllTriadSimd,
 * --ref LIB.so:SYMBOL for another) is timed on the same puzzles in the same
 * run, its runs interleaved with ours so that the machine's load falls on
 * both, and each of our rates is printed as a ratio to it.
 *
 * usage: bench_solver [-r runs] [-n max-puzzles] [-b baseline-puzzles]
 *                     [--ref LIB.so[:SYMBOL]] [data-dir] [file...]
 * The data folder is the argument, else $SUDOKU_DATA, else ../shared/data
 * next to the repository. One core, one thread; times are the thread's CPU
 * time (the figures stay meaningful on a busy machine).
 */
#include "sudoku/solver.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifndef SUDOKU_DEFAULT_DATA
#define SUDOKU_DEFAULT_DATA "../shared/data"
#endif

typedef uint8_t puzzle[81];

/* Thread CPU time: the machine is shared, and time spent waiting for the core
 * is not the solver's. */
static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static int load(const char *path, int max, puzzle **out)
{
    FILE *f = fopen(path, "r");
    if (!f) return -1;
    int cap = 1024, n = 0;
    puzzle *p = malloc(sizeof *p * (size_t)cap);
    char line[1024];
    while ((max <= 0 || n < max) && fgets(line, sizeof line, f)) {
        if (line[0] == '#' || strlen(line) < 81) continue;
        if (n == cap) {
            cap *= 2;
            p = realloc(p, sizeof *p * (size_t)cap);
        }
        for (int i = 0; i < 81; i++)
            p[n][i] = (line[i] >= '1' && line[i] <= '9') ? (uint8_t)(line[i] - '0') : 0;
        n++;
    }
    fclose(f);
    *out = p;
    return n;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static bool valid_solution(const uint8_t given[81], const uint8_t sol[81])
{
    for (int i = 0; i < 81; i++)
        if (sol[i] < 1 || sol[i] > 9 || (given[i] && given[i] != sol[i])) return false;
    for (int h = 0; h < 27; h++) {
        unsigned seen = 0;
        for (int k = 0; k < 9; k++) {
            int c = h < 9    ? h * 9 + k
                    : h < 18 ? k * 9 + (h - 9)
                             : ((h - 18) / 3) * 27 + ((h - 18) % 3) * 3 + (k / 3) * 9 + k % 3;
            seen |= 1u << sol[c];
        }
        if (seen != 0x3feu) return false;
    }
    return true;
}

/* ---- the baseline: cell masks, fewest candidates first ------------------ */

typedef struct base {
    uint16_t row[9], col[9], box[9];
    uint8_t v[81];
} base;

static int base_search(base *s)
{
    int best = -1;
    unsigned best_m = 0, best_n = 10;
    for (int c = 0; c < 81; c++) {
        if (s->v[c]) continue;
        int b = (c / 27) * 3 + (c % 9) / 3;
        unsigned m = 0x1ffu & ~(unsigned)(s->row[c / 9] | s->col[c % 9] | s->box[b]);
        unsigned n = (unsigned)__builtin_popcount(m);
        if (n < best_n) {
            best_n = n;
            best = c;
            best_m = m;
            if (n <= 1) break;
        }
    }
    if (best < 0) return 1;
    int r = best / 9, cl = best % 9, b = (best / 27) * 3 + (best % 9) / 3;
    while (best_m) {
        unsigned bit = best_m & -best_m;
        best_m &= best_m - 1;
        s->row[r] |= (uint16_t)bit;
        s->col[cl] |= (uint16_t)bit;
        s->box[b] |= (uint16_t)bit;
        s->v[best] = (uint8_t)(__builtin_ctz(bit) + 1);
        if (base_search(s)) return 1;
        s->row[r] &= (uint16_t)~bit;
        s->col[cl] &= (uint16_t)~bit;
        s->box[b] &= (uint16_t)~bit;
        s->v[best] = 0;
    }
    return 0;
}

static int base_solve(const uint8_t in[81])
{
    base s;
    memset(&s, 0, sizeof s);
    for (int c = 0; c < 81; c++) {
        if (!in[c]) continue;
        unsigned bit = 1u << (in[c] - 1);
        int b = (c / 27) * 3 + (c % 9) / 3;
        if ((s.row[c / 9] | s.col[c % 9] | s.box[b]) & bit) return 0;
        s.row[c / 9] |= (uint16_t)bit;
        s.col[c % 9] |= (uint16_t)bit;
        s.box[b] |= (uint16_t)bit;
        s.v[c] = in[c];
    }
    return base_search(&s);
}

/* ---- timing ------------------------------------------------------------- */

typedef struct result {
    double rate, us, guesses;
} result;

typedef size_t (*ref_fn)(const char *puzzle, size_t limit, uint32_t config, char *solution,
                         size_t *guesses);
static ref_fn ref_solve;

/* One run of the reference solver over the puzzles (as text); puzzles/s. */
static double ref_run(char (*text)[82], int n, int limit, uint64_t *guesses, long *sink)
{
    char sol[82];
    *guesses = 0;
    double t0 = now();
    for (int k = 0; k < n; k++) {
        size_t g = 0;
        *sink += (long)ref_solve(text[k], (size_t)limit, 0, sol, &g);
        *guesses += g;
    }
    return n / (now() - t0);
}

/* Ours (and the reference when text is given, each run right after ours). */
static result time_solver(puzzle *p, int n, int limit, int runs, char (*text)[82], result *ref)
{
    double rates[64], rrates[64];
    uint64_t guesses = 0, rguesses = 0;
    long sink = 0;
    for (int r = 0; r < runs; r++) {
        guesses = 0;
        double t0 = now();
        for (int k = 0; k < n; k++) {
            sdk_solver_stats st;
            sink += sdk_solve(p[k], limit, NULL, &st);
            guesses += st.guesses;
        }
        rates[r] = n / (now() - t0);
        if (text) rrates[r] = ref_run(text, n, limit, &rguesses, &sink);
    }
    if (sink < 0) puts("");
    double m = median(rates, runs);
    if (text) {
        double rm = median(rrates, runs);
        *ref = (result){rm, 1e6 / rm, (double)rguesses / n};
    }
    return (result){m, 1e6 / m, (double)guesses / n};
}

static double time_baseline(puzzle *p, int n, int runs)
{
    double rates[64];
    long sink = 0;
    for (int r = 0; r < runs; r++) {
        double t0 = now();
        for (int k = 0; k < n; k++) sink += base_solve(p[k]);
        rates[r] = n / (now() - t0);
    }
    if (sink < 0) puts("");
    return median(rates, runs);
}

static int verify(const char *name, puzzle *p, int n)
{
    int want = strstr(name, "serg") ? 2 : 1, fails = 0;
    for (int k = 0; k < n; k++) {
        uint8_t sol[2][81];
        int c = sdk_solve(p[k], 2, sol, NULL);
        bool ok = c == want && valid_solution(p[k], sol[0]);
        if (ok && c == 2) ok = valid_solution(p[k], sol[1]) && memcmp(sol[0], sol[1], 81) != 0;
        if (!ok) fails++;
    }
    return fails;
}

int main(int argc, char **argv)
{
    int runs = 5, max = 0, nbase = 200;
    const char *dir = NULL, *ref = NULL;
    const char *files[32];
    int nfiles = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-r") && i + 1 < argc)
            runs = atoi(argv[++i]);
        else if (!strcmp(argv[i], "-n") && i + 1 < argc)
            max = atoi(argv[++i]);
        else if (!strcmp(argv[i], "-b") && i + 1 < argc)
            nbase = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--ref") && i + 1 < argc)
            ref = argv[++i];
        else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
            printf("usage: %s [-r runs] [-n max-puzzles] [-b baseline-puzzles] "
                   "[--ref LIB.so[:SYMBOL]] [data-dir] [file...]\n",
                   argv[0]);
            return 0;
        } else if (!dir && !strstr(argv[i], ".txt"))
            dir = argv[i];
        else if (nfiles < 32)
            files[nfiles++] = argv[i];
    }
    if (runs < 1) runs = 1;
    if (runs > 64) runs = 64;
    if (!dir) dir = getenv("SUDOKU_DATA");
    if (!dir || !*dir) dir = SUDOKU_DEFAULT_DATA;
    if (!nfiles) {
        static const char *defaults[] = {"17clue.txt", "top1465.txt",
                                         "forum_hardest_1905_11plus.txt", "kaggle_10k.txt"};
        for (int i = 0; i < 4; i++) files[nfiles++] = defaults[i];
    }

    if (ref) {
        char lib[1024], *colon;
        snprintf(lib, sizeof lib, "%s", ref);
        const char *sym = "TdokuSolverDpllTriadSimd";
        if ((colon = strrchr(lib, ':')) != NULL) {
            *colon = 0;
            sym = colon + 1;
        }
        void *h = dlopen(lib, RTLD_NOW | RTLD_LOCAL);
        if (h) *(void **)&ref_solve = dlsym(h, sym);
        if (!h || !ref_solve) {
            fprintf(stderr, "--ref: %s\n", dlerror());
            return 2;
        }
        printf("reference: %s:%s, timed in the same runs (each run right after ours)\n", lib, sym);
    }
    printf("sdk_solve, one thread, CPU time, median of %d runs; data: %s\n", runs, dir);
    printf("%-32s %-7s %8s %12s %10s %10s\n", "file", "mode", "puzzles", "puzzles/s", "us/puzzle",
           "guesses/p");
    int total_fail = 0;
    for (int f = 0; f < nfiles; f++) {
        char path[2048];
        if (strchr(files[f], '/'))
            snprintf(path, sizeof path, "%s", files[f]);
        else
            snprintf(path, sizeof path, "%s/%s", dir, files[f]);
        puzzle *p;
        int n = load(path, max, &p);
        if (n <= 0) {
            fprintf(stderr, "cannot read puzzles from %s\n", path);
            total_fail++;
            continue;
        }
        const char *name = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
        char(*text)[82] = NULL;
        if (ref_solve) {
            text = malloc(sizeof *text * (size_t)n);
            for (int k = 0; k < n; k++) {
                for (int i = 0; i < 81; i++) text[k][i] = p[k][i] ? (char)('0' + p[k][i]) : '.';
                text[k][81] = 0;
            }
        }
        result rfirst, rtwo;
        result first = time_solver(p, n, 1, runs, text, &rfirst);
        result two = time_solver(p, n, 2, runs, text, &rtwo);
        printf("%-32s %-7s %8d %12.0f %10.2f %10.2f\n", name, "first", n, first.rate, first.us,
               first.guesses);
        if (text)
            printf("%-32s %-7s %8d %12.0f %10.2f %10.2f   ours x%.2f\n", name, "ref-1st", n,
                   rfirst.rate, rfirst.us, rfirst.guesses, first.rate / rfirst.rate);
        printf("%-32s %-7s %8d %12.0f %10.2f %10.2f\n", name, "count2", n, two.rate, two.us,
               two.guesses);
        if (text)
            printf("%-32s %-7s %8d %12.0f %10.2f %10.2f   ours x%.2f\n", name, "ref-cnt2", n,
                   rtwo.rate, rtwo.us, rtwo.guesses, two.rate / rtwo.rate);
        free(text);
        int fails = verify(name, p, n);
        total_fail += fails;
        int nb = nbase < n ? nbase : n;
        if (nb > 0) {
            int br = runs < 3 ? runs : 3; /* the baseline is slow */
            double b = time_baseline(p, nb, br);
            result ours = time_solver(p, nb, 1, br, NULL, NULL);
            printf("%-32s %-7s %8d %12.0f %10.2f   x%.1f vs baseline (first %d)\n", name, "base",
                   nb, b, 1e6 / b, ours.rate / b, nb);
        }
        printf("%-32s %-7s %8d failures\n", name, "check", fails);
        free(p);
    }
    printf("total failures: %d\n", total_fail);
    return total_fail ? 1 : 0;
}
