/* calibrate.c - how close our ratings are to the programs people quote.
 *
 * Two scales, each against the other program's own output on public puzzles:
 *
 *   Sudoku Explainer (se_ratings_public.tsv, profile `default`): ER exact and
 *   within 0.1, EP/ED exact, the confusion table of ER bands (whole numbers)
 *   and the largest misses with both hardest steps. The same for puzzles it
 *   was not tuned on: tests/data/se_ratings_unseen.tsv (SE's own ratings,
 *   made as tests/data/README.md says; --scale se-public / se-unseen: one).
 *   --scale se-hard: tests/data/se_ratings_hard.tsv, SE's ratings of the
 *   11plus puzzles that it rates under 11.0 (minutes of SE's time each).
 *
 *   HoDoKu (hodoku_ratings_public.tsv, profile `hodoku`): level exact, score
 *   exact and within 5%, the confusion table of levels, and the largest misses
 *   with the first step where our path parts from HoDoKu's own path
 *   (hodoku_paths_public.txt, 120 of the puzzles). Steps are compared by
 *   what they do: the set of placements and eliminations (so a naming
 *   difference is no parting, but another single or another instance is).
 *   The same for puzzles it was not tuned on: tests/data/hodoku_ratings_
 *   unseen.tsv with its paths (HoDoKu's output, made by tests/data/make-
 *   hodoku-unseen.sh), or any file of that form (--ratings, --paths).
 *
 * Every figure is printed for the whole sample and for its two halves (odd
 * and even puzzles of the sample; the line numbers when the whole file is
 * rated): tune on one half, the other tells whether a change generalises.
 *
 *   calibrate [--config F] [--data DIR] [--unseen DIR] [--max N]
 *             [--scale se|se-public|se-unseen|se-hard|hodoku|hodoku-public|
 *                     hodoku-unseen|both]
 *             [--ratings TSV [--paths FILE]]
 *             [--stride K] [--misses K] [--list] [--path N]
 *             [--min-level PCT] [--min-score5 PCT] [--min-er PCT]
 *             [--hard N] [--max-bifurcation N]
 *
 * Config: --config, else $SUDOKU_CONF, else the build tree's own (found from
 * the executable); data: --data, else $SUDOKU_DATA, else ../shared/data;
 * --unseen: the folder of the unseen files, else the source tree's tests/data.
 * --scale hodoku is both HoDoKu files, se both SE files but se-hard's, both
 * every file; --ratings rates that file only.
 * --hard N adds, on the SE scale, N puzzles spread over each of
 * forum_hardest_1106.txt and forum_hardest_1905_11plus.txt: how many fall to
 * bifurcation (SE rates them all with its nested chains) and how many we rate
 * >= 11.0 (all, by the 11plus list's definition; yet SE's own programs rate
 * some of them 10.9, as we do: se_ratings_hard.tsv).
 * --stride K rates every K-th puzzle only (the ctest sample); --path N prints
 * our path beside HoDoKu's for puzzle #N; the --min-* floors make the exit
 * status 1 when a figure (whole sample) falls below them, so that a ctest can
 * assert them; 77 (ctest's skip) when a data file is missing.
 */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>
#include "sudoku/host.h"

#ifndef SUDOKU_DEFAULT_DATA
#define SUDOKU_DEFAULT_DATA "../shared/data"
#endif
#ifndef SUDOKU_UNSEEN_DATA
#define SUDOKU_UNSEEN_DATA "tests/data"
#endif
#ifndef SUDOKU_BUILD_CONF
#define SUDOKU_BUILD_CONF "etc/sudokud/sudokud.conf"
#endif

/* ---- steps as sets of effects ------------------------------------------- */

/* One effect: cell*10+digit, negative for an elimination. */
typedef struct effects {
    int n;
    int e[SDK_STEP_MAX_PLACE + SDK_STEP_MAX_ELIM];
} effects;

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

static void effects_sort(effects *f)
{
    qsort(f->e, (size_t)f->n, sizeof *f->e, cmp_int);
    int k = 0;
    for (int i = 0; i < f->n; i++)
        if (k == 0 || f->e[k - 1] != f->e[i]) f->e[k++] = f->e[i];
    f->n = k;
}

static void effects_of_step(const sdk_step *s, effects *f)
{
    f->n = 0;
    for (int i = 0; i < s->nplace; i++) f->e[f->n++] = s->place[i].cell * 10 + s->place[i].digit;
    for (int i = 0; i < s->nelim; i++) f->e[f->n++] = -(s->elim[i].cell * 10 + s->elim[i].digit);
    effects_sort(f);
}

/* HoDoKu's wording: "Name: ... => r45c2,r5c13<>5, r4c7<>7" or "Name: r1c1=5".
 * The effects follow the last "=>" (or the last ": " for singles). */
static bool effects_of_hodoku(const char *line, effects *f)
{
    f->n = 0;
    const char *p = NULL, *q;
    for (q = strstr(line, "=>"); q; q = strstr(q + 2, "=>")) p = q + 2;
    if (!p) {
        p = strrchr(line, ':');
        if (!p) return false;
        p++;
    }
    while (*p) {
        while (*p == ' ' || *p == ',') p++;
        if (!*p) break;
        /* cell groups: r<rows>c<cols>[,r..c..] up to the operator */
        int cells[81], nc = 0;
        while (*p == 'r') {
            int rows[9], nr = 0, cols[9], ncol = 0;
            p++;
            while (isdigit((unsigned char)*p)) rows[nr++ % 9] = *p++ - '1';
            if (*p != 'c') return false;
            p++;
            while (isdigit((unsigned char)*p)) cols[ncol++ % 9] = *p++ - '1';
            for (int i = 0; i < nr; i++)
                for (int j = 0; j < ncol; j++)
                    if (nc < 81) cells[nc++] = rows[i] * 9 + cols[j];
            if (*p == ',' && p[1] == 'r') p++;
        }
        int sign;
        if (!strncmp(p, "<>", 2)) {
            sign = -1;
            p += 2;
        } else if (*p == '=') {
            sign = 1;
            p++;
        } else
            return false;
        while (isdigit((unsigned char)*p)) {
            int d = *p++ - '0';
            for (int i = 0; i < nc; i++)
                if (f->n < (int)(sizeof f->e / sizeof *f->e))
                    f->e[f->n++] = sign * (cells[i] * 10 + d);
        }
        while (*p && *p != ',') p++;
    }
    effects_sort(f);
    return f->n > 0;
}

static bool effects_eq(const effects *a, const effects *b)
{
    return a->n == b->n && !memcmp(a->e, b->e, sizeof *a->e * (size_t)a->n);
}

static bool is_single_text(const char *t)
{
    return !strncmp(t, "Full House", 10) || !strncmp(t, "Naked Single", 12) ||
           !strncmp(t, "Hidden Single", 13);
}

/* ---- our path ------------------------------------------------------------ */

typedef struct our_step {
    char text[200];
    int difficulty, score;
    bool single;
    effects fx;
} our_step;

typedef struct path {
    int n, cap;
    our_step *s;
    const sdk_profile *p;
} path;

static int on_step(void *ctx, const sdk_step *s, const sdk_grid *before)
{
    (void)before;
    path *pa = ctx;
    if (pa->n == pa->cap) {
        pa->cap = pa->cap ? pa->cap * 2 : 128;
        pa->s = realloc(pa->s, sizeof *pa->s * (size_t)pa->cap);
    }
    our_step *o = &pa->s[pa->n++];
    snprintf(o->text, sizeof o->text, "%s", s->text);
    o->difficulty = s->difficulty;
    o->single = s->nplace == 1 && s->nelim == 0 && is_single_text(s->text);
    effects_of_step(s, &o->fx);
    return 0;
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

static void rate(const sdk_profile *p, const char *puz, sdk_rating *r, path *pa)
{
    sdk_grid g;
    pa->n = 0;
    pa->p = p;
    memset(r, 0, sizeof *r);
    if (!load_grid(puz, &g)) {
        r->status = SDK_RUN_BROKEN;
        return;
    }
    sdk_run_opts o = {.no_guess = false, .unique = true};
    sdk_engine_run(p, &g, &o, on_step, pa, r);
}

/* ---- HoDoKu's paths ------------------------------------------------------ */

typedef struct hpath {
    char puzzle[82];
    int n;
    char **line;
} hpath;

static hpath *hpaths;
static int nhpaths;

static void load_hpaths(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f) return;
    char *line = NULL; /* a forcing net's lines can be long */
    size_t cap = 0;
    hpath *cur = NULL;
    while (getline(&line, &cap, f) >= 0) {
        line[strcspn(line, "\r\n")] = 0;
        if (strlen(line) >= 81 && line[0] != ' ') {
            hpaths = realloc(hpaths, sizeof *hpaths * (size_t)(nhpaths + 1));
            cur = &hpaths[nhpaths++];
            memset(cur, 0, sizeof *cur);
            memcpy(cur->puzzle, line, 81);
        } else if (cur && !strncmp(line, "   ", 3)) {
            /* a step; lines indented by two spaces go on a chain step's text */
            const char *t = line;
            while (*t == ' ') t++;
            cur->line = realloc(cur->line, sizeof *cur->line * (size_t)(cur->n + 1));
            cur->line[cur->n++] = strdup(t);
        }
    }
    free(line);
    fclose(f);
}

static void free_hpaths(void)
{
    for (int i = 0; i < nhpaths; i++) {
        for (int j = 0; j < hpaths[i].n; j++) free(hpaths[i].line[j]);
        free(hpaths[i].line);
    }
    free(hpaths);
    hpaths = NULL;
    nhpaths = 0;
}

static const hpath *find_hpath(const char *puz)
{
    for (int i = 0; i < nhpaths; i++)
        if (!memcmp(hpaths[i].puzzle, puz, 81)) return &hpaths[i];
    return NULL;
}

/* The first step where the paths part (-1: none within both). With
 * skip_singles, singles on both sides are left out of the comparison. */
static int parting(const path *pa, const hpath *h, bool skip_singles, int *hi)
{
    int i = 0, j = 0;
    effects fx;
    for (;;) {
        if (skip_singles) {
            while (i < pa->n && pa->s[i].single) i++;
            while (j < h->n && is_single_text(h->line[j])) j++;
        }
        if (i >= pa->n || j >= h->n) {
            *hi = j;
            return i < pa->n || j < h->n ? i : -1;
        }
        if (!effects_of_hodoku(h->line[j], &fx) || !effects_eq(&fx, &pa->s[i].fx)) {
            *hi = j;
            return i;
        }
        i++;
        j++;
    }
}

/* ---- statistics ---------------------------------------------------------- */

typedef struct stats {
    int n, exact, close, third; /* third: score exact (HoDoKu) / EP+ED exact (SE) */
} stats;

static void stat_add(stats *s, bool exact, bool close, bool third)
{
    s->n++;
    s->exact += exact;
    s->close += close;
    s->third += third;
}

static double pct(int a, int n)
{
    return n ? 100.0 * a / n : 0;
}

typedef struct miss {
    int idx;
    double size;
    char line[1024];
} miss;

/* relative error of a score, for ordering misses */
static double rel_err(int ours, int theirs)
{
    return theirs ? fabs((double)(ours - theirs)) / theirs : ours;
}

static int cmp_miss(const void *a, const void *b)
{
    double x = ((const miss *)a)->size, y = ((const miss *)b)->size;
    return (x < y) - (x > y);
}

/* dir/name, or name alone when dir is NULL */
static FILE *open_data(const char *dir, const char *name, char *path, size_t n)
{
    snprintf(path, n, "%s%s%s", dir ? dir : "", dir ? "/" : "", name);
    FILE *f = fopen(path, "r");
    if (!f) {
        perror(path);
        exit(77); /* no data: ctest reports the test as skipped */
    }
    return f;
}

/* ---- the HoDoKu scale ---------------------------------------------------- */

static const char *level_names[] = {"none", "Easy", "Medium", "Hard", "Unfair", "Extreme"};

static int level_of(const char *s)
{
    for (int i = 1; i <= 5; i++)
        if (!strcasecmp(s, level_names[i])) return i;
    return 0;
}

static void show_path(int idx, const char *puz, const path *pa, const hpath *h)
{
    printf("\n#%d %.81s: ours %d steps, HoDoKu %d\n", idx, puz, pa->n, h ? h->n : 0);
    int n = pa->n > (h ? h->n : 0) ? pa->n : (h ? h->n : 0);
    for (int i = 0; i < n; i++) {
        effects fx;
        bool same = h && i < h->n && i < pa->n && effects_of_hodoku(h->line[i], &fx) &&
                    effects_eq(&fx, &pa->s[i].fx);
        printf("%3d %c %-70.70s | %s\n", i + 1, same ? ' ' : '*', i < pa->n ? pa->s[i].text : "",
               h && i < h->n ? h->line[i] : "");
    }
}

typedef struct args {
    const char *data, *unseen, *conf, *ratings, *paths;
    int max, stride, nmiss, path, hard, max_bif;
    bool list;
    double min_level, min_score5, min_er;
} args;

/* A row of a ratings file: the puzzle, then tab-separated fields. */
typedef struct tsv_row {
    char line[1024];
    char puz[82]; /* the puzzle's 81 characters */
    char *fld[8]; /* the fields, fld[0] the puzzle (pointers into line) */
    int nf;
    int idx; /* 1-based among the file's puzzle rows (header and short lines not counted) */
} tsv_row;

/* The next row of f this run takes: every a->stride-th puzzle row up to
 * a->max, split into at most maxf fields, with at least need of them (a row
 * with fewer is counted but skipped). False at the end. Both scales read
 * their files with it. */
static bool next_row(FILE *f, const args *a, int maxf, int need, tsv_row *r)
{
    while (fgets(r->line, sizeof r->line, f)) {
        if (strlen(r->line) < 81 || !strncmp(r->line, "puzzle", 6)) continue;
        r->idx++;
        if (a->max && r->idx > a->max) return false;
        if ((r->idx - 1) % a->stride) continue;
        memcpy(r->puz, r->line, 81);
        r->puz[81] = 0;
        r->nf = 0;
        for (char *s = strtok(r->line, "\t\n"); s && r->nf < maxf; s = strtok(NULL, "\t\n"))
            r->fld[r->nf++] = s;
        if (r->nf >= need) return true;
    }
    return false;
}

/* One file of HoDoKu's ratings (dir/ratings) with its paths (dir/paths,
 * may be missing; dir NULL: the names are paths), through the profile
 * `hodoku`. */
static bool run_hodoku(const sdk_config *cfg, const args *a, const char *dir, const char *ratings,
                       const char *paths)
{
    const sdk_profile *p = sdk_config_profile(cfg, "hodoku");
    if (!p) {
        fprintf(stderr, "calibrate: no profile hodoku\n");
        return false;
    }
    char fname[1024];
    if (paths) {
        snprintf(fname, sizeof fname, "%s%s%s", dir ? dir : "", dir ? "/" : "", paths);
        load_hpaths(fname);
    }
    FILE *f = open_data(dir, ratings, fname, sizeof fname);
    if (!f) return false;
    stats all = {0}, half[2] = {{0}};
    int conf[6][6] = {{0}}, nmiss = 0, withpath = 0, samepath = 0, samebig = 0;
    miss *ms = NULL;
    path pa = {0};
    double cpu0 = (double)clock() / CLOCKS_PER_SEC;
    tsv_row row = {.idx = 0};
    while (next_row(f, a, 5, 4, &row)) {
        int idx = row.idx;
        const char *puz = row.puz;
        char *const *fld = row.fld;
        int hl = level_of(fld[2]), hs = atoi(fld[3]);
        sdk_rating r;
        rate(p, puz, &r, &pa);
        int ol = r.level < 0 || r.level > 5 ? 0 : r.level;
        bool lex = ol == hl, sex = r.score == hs;
        bool s5 = abs(r.score - hs) * 20 <= hs;
        stat_add(&all, lex, s5, sex);
        stat_add(&half[(all.n - 1) % 2], lex, s5, sex);
        conf[hl][ol]++;
        const hpath *h = find_hpath(puz);
        int part = -1, hpart = 0, bpart = -1, hbpart = 0;
        if (h) {
            withpath++;
            part = parting(&pa, h, false, &hpart);
            bpart = parting(&pa, h, true, &hbpart);
            samepath += part < 0;
            samebig += bpart < 0;
        }
        if (a->list)
            printf("%4d %-8s %-8s %5d %5d%s\n", idx, level_names[hl], level_names[ol], hs, r.score,
                   lex && sex ? "" : "   *");
        if (a->path == idx) show_path(idx, puz, &pa, h);
        if (!lex || !sex) {
            ms = realloc(ms, sizeof *ms * (size_t)(nmiss + 1));
            miss *m = &ms[nmiss++];
            m->idx = idx;
            m->size = abs(ol - hl) * 1000.0 + rel_err(r.score, hs);
            int k = snprintf(m->line, sizeof m->line, "#%-4d %-7s %5d | ours %-7s %5d%s", idx,
                             level_names[hl], hs, level_names[ol], r.score,
                             r.status == SDK_RUN_SOLVED ? "" : " (unsolved)");
            if (h && bpart >= 0 && k > 0 && k < (int)sizeof m->line)
                snprintf(m->line + k, sizeof m->line - (size_t)k,
                         "\n      parts at step %d (non-single %s): ours \"%.90s\"\n"
                         "                     HoDoKu \"%.90s\"",
                         part + 1, bpart >= 0 ? "too" : "same",
                         bpart < pa.n ? pa.s[bpart].text : "(end)",
                         hbpart < h->n ? h->line[hbpart] : "(end)");
            else if (h && k > 0 && k < (int)sizeof m->line)
                snprintf(m->line + k, sizeof m->line - (size_t)k,
                         "\n      same steps but singles: first parting at step %d: ours "
                         "\"%.60s\" HoDoKu \"%.60s\"",
                         part + 1, part >= 0 && part < pa.n ? pa.s[part].text : "(end)",
                         part >= 0 && hpart < h->n ? h->line[hpart] : "(end)");
        }
    }
    fclose(f);
    double cpu = (double)clock() / CLOCKS_PER_SEC - cpu0;
    printf("\n== HoDoKu scale: %s, profile hodoku (%d puzzles%s) ==\n", ratings, all.n,
           a->stride > 1 ? ", sampled" : "");
    const char *names[] = {"all", "odd #", "even #"};
    stats *ss[] = {&all, &half[0], &half[1]};
    for (int i = 0; i < 3; i++)
        printf("  %-7s %4d: level exact %5.1f%%, score exact %5.1f%%, score within 5%% %5.1f%%\n",
               names[i], ss[i]->n, pct(ss[i]->exact, ss[i]->n), pct(ss[i]->third, ss[i]->n),
               pct(ss[i]->close, ss[i]->n));
    if (withpath)
        printf("  paths (%d with HoDoKu's): identical %d, same non-single steps %d\n", withpath,
               samepath, samebig);
    printf("  CPU %.1f s\n\n  levels: rows HoDoKu, columns ours\n  %-8s", cpu, "");
    for (int j = 0; j <= 5; j++) printf("%8s", j ? level_names[j] : "(none)");
    printf("\n");
    for (int i = 1; i <= 5; i++) {
        printf("  %-8s", level_names[i]);
        for (int j = 0; j <= 5; j++) printf("%8d", conf[i][j]);
        printf("\n");
    }
    qsort(ms, (size_t)nmiss, sizeof *ms, cmp_miss);
    printf("\n  largest misses (%d of %d):\n", nmiss < a->nmiss ? nmiss : a->nmiss, nmiss);
    for (int i = 0; i < nmiss && i < a->nmiss; i++) printf("  %s\n", ms[i].line);
    free(ms);
    free(pa.s);
    free_hpaths();
    bool ok = true;
    if (a->min_level > 0 && pct(all.exact, all.n) < a->min_level) {
        printf("FAIL: level exact %.1f%% < %.1f%%\n", pct(all.exact, all.n), a->min_level);
        ok = false;
    }
    if (a->min_score5 > 0 && pct(all.close, all.n) < a->min_score5) {
        printf("FAIL: score within 5%% %.1f%% < %.1f%%\n", pct(all.close, all.n), a->min_score5);
        ok = false;
    }
    return ok;
}

/* ---- the Sudoku Explainer scale ----------------------------------------- */

static void hardest_name(const path *pa, int er, char *out, size_t n)
{
    out[0] = 0;
    for (int i = 0; i < pa->n; i++)
        if (pa->s[i].difficulty == er) {
            size_t k = strcspn(pa->s[i].text, ":");
            snprintf(out, n, "%.*s", (int)(k < n ? k : n - 1), pa->s[i].text);
            return;
        }
}

/* One file of SE's ratings (dir/name: puzzle, ER, EP, ED, source, hardest
 * technique) through the profile `default`. */
static bool run_se(const sdk_config *cfg, const args *a, const char *dir, const char *name)
{
    const sdk_profile *p = sdk_config_profile(cfg, "default");
    if (!p) {
        fprintf(stderr, "calibrate: no profile default\n");
        return false;
    }
    char fname[1024];
    FILE *f = open_data(dir, name, fname, sizeof fname);
    if (!f) return false;
    stats all = {0}, half[2] = {{0}};
    int conf[14][14] = {{0}}, nmiss = 0, epx = 0, edx = 0;
    miss *ms = NULL;
    path pa = {0};
    double cpu0 = (double)clock() / CLOCKS_PER_SEC;
    tsv_row row = {.idx = 0};
    while (next_row(f, a, 6, 6, &row)) {
        int idx = row.idx;
        const char *puz = row.puz;
        char *const *fld = row.fld;
        int ser = (int)(atof(fld[1]) * 10 + 0.5), sep = (int)(atof(fld[2]) * 10 + 0.5),
            sed = (int)(atof(fld[3]) * 10 + 0.5);
        sdk_rating r;
        rate(p, puz, &r, &pa);
        int er = r.status == SDK_RUN_SOLVED ? r.er : 200;
        bool ex = er == ser, w1 = abs(er - ser) <= 1;
        epx += r.ep == sep;
        edx += r.ed == sed;
        stat_add(&all, ex, w1, r.ep == sep && r.ed == sed);
        stat_add(&half[(all.n - 1) % 2], ex, w1, r.ep == sep && r.ed == sed);
        int bi = ser / 10 > 13 ? 13 : ser / 10, bj = er / 10 > 13 ? 13 : er / 10;
        conf[bi][bj]++;
        char ours[64];
        hardest_name(&pa, r.er, ours, sizeof ours);
        if (a->list)
            printf("%4d SE %4.1f/%4.1f/%4.1f ours %4.1f/%4.1f/%4.1f  %-36s %s%s\n", idx, ser / 10.0,
                   sep / 10.0, sed / 10.0, er / 10.0, r.ep / 10.0, r.ed / 10.0, ours, fld[5],
                   ex ? "" : "   *");
        if (!ex) {
            ms = realloc(ms, sizeof *ms * (size_t)(nmiss + 1));
            miss *m = &ms[nmiss++];
            m->idx = idx;
            m->size = abs(er - ser);
            snprintf(m->line, sizeof m->line, "#%-4d SE %4.1f %-34.34s | ours %4.1f %s", idx,
                     ser / 10.0, fld[5], er / 10.0, ours);
        }
    }
    fclose(f);
    double cpu = (double)clock() / CLOCKS_PER_SEC - cpu0;
    printf("\n== Sudoku Explainer scale: %s, profile default (%d puzzles%s) ==\n", name, all.n,
           a->stride > 1 ? ", sampled" : "");
    const char *names[] = {"all", "odd #", "even #"};
    stats *ss[] = {&all, &half[0], &half[1]};
    for (int i = 0; i < 3; i++)
        printf("  %-7s %4d: ER exact %5.1f%%, ER within 0.1 %5.1f%%, EP and ED exact %5.1f%%\n",
               names[i], ss[i]->n, pct(ss[i]->exact, ss[i]->n), pct(ss[i]->close, ss[i]->n),
               pct(ss[i]->third, ss[i]->n));
    printf("  ER exact %d of %d, EP exact %d, ED exact %d; CPU %.1f s\n", all.exact, all.n, epx,
           edx, cpu);
    printf("\n  ER bands (whole numbers): rows SE, columns ours\n  %-6s", "");
    for (int j = 1; j <= 13; j++) printf("%5d%s", j, j == 13 ? "+" : "");
    printf("\n");
    for (int i = 1; i <= 13; i++) {
        int any = 0;
        for (int j = 1; j <= 13; j++) any += conf[i][j];
        if (!any) continue;
        printf("  %4d%s ", i, i == 13 ? "+" : " ");
        for (int j = 1; j <= 13; j++) printf("%5d", conf[i][j]);
        printf("\n");
    }
    qsort(ms, (size_t)nmiss, sizeof *ms, cmp_miss);
    printf("\n  largest misses (%d of %d):\n", nmiss < a->nmiss ? nmiss : a->nmiss, nmiss);
    for (int i = 0; i < nmiss && i < a->nmiss; i++) printf("  %s\n", ms[i].line);
    free(ms);
    free(pa.s);
    if (a->min_er > 0 && pct(all.exact, all.n) < a->min_er) {
        printf("FAIL: ER exact %.1f%% < %.1f%%\n", pct(all.exact, all.n), a->min_er);
        return false;
    }
    return true;
}

/* The hard files SE itself rates (every puzzle of the 11plus list >= 11.0):
 * a sample of each, how many our default profile leaves to bifurcation (a
 * step SE does not have) and how the ERs fall. */
static bool run_se_hard(const sdk_config *cfg, const args *a)
{
    const sdk_profile *p = sdk_config_profile(cfg, "default");
    const char *files[] = {"forum_hardest_1106.txt", "forum_hardest_1905_11plus.txt"};
    path pa = {0};
    bool ok = true;
    for (int fi = 0; fi < 2; fi++) {
        char fname[1024], line[256];
        FILE *f = open_data(a->data, files[fi], fname, sizeof fname);
        int total = 0;
        while (fgets(line, sizeof line, f)) total++;
        rewind(f);
        int stride = total / a->hard > 0 ? total / a->hard : 1, k = 0, n = 0, bif = 0, ge11 = 0;
        int band[14] = {0};
        double cpu0 = (double)clock() / CLOCKS_PER_SEC, worst = 0;
        while (fgets(line, sizeof line, f) && n < a->hard) {
            if (k++ % stride || strlen(line) < 81) continue;
            sdk_rating r;
            double t0 = (double)clock() / CLOCKS_PER_SEC;
            rate(p, line, &r, &pa);
            double dt = (double)clock() / CLOCKS_PER_SEC - t0;
            if (dt > worst) worst = dt;
            bool guessed = r.hardest && !strcmp(r.hardest->id, "bifurcation");
            bif += guessed;
            ge11 += !guessed && r.er >= 110;
            band[r.er / 10 > 13 ? 13 : r.er / 10]++;
            if (a->list || guessed)
                printf("  %s #%d: ER %.1f %s (%.1f s)\n", files[fi], k, r.er / 10.0,
                       r.hardest ? r.hardest->id : "-", dt);
            n++;
        }
        fclose(f);
        printf("\n== Sudoku Explainer scale: %s, profile default (%d of %d puzzles, every %d-th) "
               "==\n  left to bifurcation %d; ER >= 11.0 %d (%.1f%%); CPU %.1f s, worst %.1f s\n  "
               "ER bands:",
               files[fi], n, total, stride, bif, ge11, pct(ge11, n),
               (double)clock() / CLOCKS_PER_SEC - cpu0, worst);
        for (int b = 1; b <= 13; b++)
            if (band[b]) printf(" %d%s: %d", b, b == 13 ? "+" : "", band[b]);
        printf("\n");
        if (a->max_bif >= 0 && bif > a->max_bif) {
            printf("FAIL: %d left to bifurcation > %d\n", bif, a->max_bif);
            ok = false;
        }
    }
    free(pa.s);
    return ok;
}

int main(int argc, char **argv)
{
    args a = {.data = SUDOKU_DEFAULT_DATA,
              .unseen = SUDOKU_UNSEEN_DATA,
              .stride = 1,
              .nmiss = 15,
              .hard = 0,
              .max_bif = -1};
    const char *scale = "both";
    if (getenv("SUDOKU_DATA")) a.data = getenv("SUDOKU_DATA");
    for (int i = 1; i < argc; i++) {
        const char *o = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(o, "--list")) {
            a.list = true;
            continue;
        }
        if (!v) goto usage;
        i++;
        if (!strcmp(o, "--config"))
            a.conf = v;
        else if (!strcmp(o, "--data"))
            a.data = v;
        else if (!strcmp(o, "--unseen"))
            a.unseen = v;
        else if (!strcmp(o, "--ratings"))
            a.ratings = v;
        else if (!strcmp(o, "--paths"))
            a.paths = v;
        else if (!strcmp(o, "--scale"))
            scale = v;
        else if (!strcmp(o, "--max"))
            a.max = atoi(v);
        else if (!strcmp(o, "--stride"))
            a.stride = atoi(v) > 0 ? atoi(v) : 1;
        else if (!strcmp(o, "--misses"))
            a.nmiss = atoi(v);
        else if (!strcmp(o, "--path"))
            a.path = atoi(v);
        else if (!strcmp(o, "--min-level"))
            a.min_level = atof(v);
        else if (!strcmp(o, "--min-score5"))
            a.min_score5 = atof(v);
        else if (!strcmp(o, "--min-er"))
            a.min_er = atof(v);
        else if (!strcmp(o, "--hard"))
            a.hard = atoi(v);
        else if (!strcmp(o, "--max-bifurcation"))
            a.max_bif = atoi(v);
        else
            goto usage;
    }
    bool both = !strcmp(scale, "both"), hodoku = !strcmp(scale, "hodoku");
    bool se = both || !strcmp(scale, "se");
    bool se_public = se || !strcmp(scale, "se-public");
    bool se_unseen = se || !strcmp(scale, "se-unseen");
    bool se_hard = both || !strcmp(scale, "se-hard");
    bool do_public = both || hodoku || !strcmp(scale, "hodoku-public");
    bool do_unseen = both || hodoku || !strcmp(scale, "hodoku-unseen");
    if (a.ratings)
        se_public = se_unseen = se_hard = do_public = do_unseen = false;
    else if (!se_public && !se_unseen && !se_hard && !do_public && !do_unseen)
        goto usage;
    char confpath[1024];
    if (!a.conf) {
        /* the build tree's config, found from the executable: bin/../etc/... */
        const char *env = getenv("SUDOKU_CONF");
        if (env)
            a.conf = env;
        else {
            char exe[900];
            ssize_t k = readlink("/proc/self/exe", exe, sizeof exe - 1);
            if (k <= 0) goto usage;
            exe[k] = 0;
            char *slash = strrchr(exe, '/');
            if (slash) *slash = 0;
            snprintf(confpath, sizeof confpath, "%s/../%s", exe, SUDOKU_BUILD_CONF);
            a.conf = confpath;
        }
    }
    sdk_config cfg;
    sdk_error err;
    if (!sdk_config_load(a.conf, &cfg, &err)) {
        fprintf(stderr, "calibrate: %s: %s\n", a.conf, err.msg);
        return 2;
    }
    bool ok = true;
    if (do_public)
        ok &= run_hodoku(&cfg, &a, a.data, "hodoku_ratings_public.tsv", "hodoku_paths_public.txt");
    if (do_unseen)
        ok &=
            run_hodoku(&cfg, &a, a.unseen, "hodoku_ratings_unseen.tsv", "hodoku_paths_unseen.txt");
    if (a.ratings) ok &= run_hodoku(&cfg, &a, NULL, a.ratings, a.paths);
    if (se_public) ok &= run_se(&cfg, &a, a.data, "se_ratings_public.tsv");
    if (se_unseen) ok &= run_se(&cfg, &a, a.unseen, "se_ratings_unseen.tsv");
    if (se_hard) ok &= run_se(&cfg, &a, a.unseen, "se_ratings_hard.tsv");
    if (se_public && a.hard > 0) ok &= run_se_hard(&cfg, &a);
    sdk_config_free(&cfg);
    return ok ? 0 : 1;
usage:
    fprintf(stderr,
            "usage: calibrate [--config F] [--data DIR] [--unseen DIR] "
            "[--scale se|se-public|se-unseen|se-hard|hodoku|hodoku-public|hodoku-unseen|both] "
            "[--ratings TSV [--paths FILE]] [--max N] [--stride K] [--misses K] [--list] "
            "[--path N] [--min-level PCT] "
            "[--min-score5 PCT] [--min-er PCT] [--hard N] [--max-bifurcation N]\n");
    return 2;
}
