/* reglib.c - runs HoDoKu's technique regression library through our plugins.
 *
 * For every active line of reglib-1.4.txt: build the position (givens, placed
 * digits, removed candidates), look up the technique id(s) and options for the
 * code in tests/reglib/map.tsv, ask the technique for ALL its steps in that
 * position, and pass when one step makes exactly the expected eliminations
 * and placements (fail cases "-x": when none makes the listed ones). HoDoKu's
 * digits field is not compared (our steps do not carry HoDoKu's notion of a
 * pattern's digits); the elimination sets are compared exactly.
 * A line whose code has no map entry, or whose technique no loaded plugin
 * provides, is a failure too (never "not implemented").
 * Prints a table per code. Exits non-zero on a failure not listed in
 * tests/reglib/known_failures.tsv (code, reglib line, reason). Lines are parsed
 * by the shared harness (tests/util/reglib_harness.h); the per-family unit
 * tests run the same library strictly (HoDoKu's digits field compared too).
 * --steps FILE writes every step found (technique, difficulty, text) per line,
 * so that two builds can be compared step by step. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "reglib_harness.h"
#include "testutil.h"

typedef struct map_entry {
    char code[16];
    char ids[128];
    char opts[128];
} map_entry;

static map_entry map[256];
static int nmap;

typedef struct known {
    char code[16];
    int line;
} known;
static known knowns[512];
static int nknown;

static void load_map(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "cannot read %s\n", path);
        exit(2);
    }
    char line[512];
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '#' || line[0] == '\n') continue;
        line[strcspn(line, "\r\n")] = 0;
        map_entry *m = &map[nmap];
        char *code = strtok(line, "\t"), *ids = strtok(NULL, "\t"), *opts = strtok(NULL, "\t");
        if (!code || !ids) continue;
        snprintf(m->code, sizeof m->code, "%s", code);
        snprintf(m->ids, sizeof m->ids, "%s", ids);
        snprintf(m->opts, sizeof m->opts, "%s", opts ? opts : "");
        nmap++;
    }
    fclose(f);
}

static void load_known(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f) return;
    char line[512];
    while (fgets(line, sizeof line, f) && nknown < 512) {
        if (line[0] == '#' || line[0] == '\n') continue;
        char code[16];
        int ln;
        if (sscanf(line, "%15s %d", code, &ln) == 2) {
            snprintf(knowns[nknown].code, sizeof knowns[0].code, "%s", code);
            knowns[nknown++].line = ln;
        }
    }
    fclose(f);
}

static bool is_known(const char *code, int line)
{
    for (int i = 0; i < nknown; i++)
        if (knowns[i].line == line && strcmp(knowns[i].code, code) == 0) return true;
    return false;
}

/* The map entry for a code: exact, then without variant, then 5-digit
 * Siamese codes as their 4-digit base with siamese=1. */
static const map_entry *lookup(const char *code)
{
    for (int i = 0; i < nmap; i++)
        if (!strcmp(map[i].code, code)) return &map[i];
    char base[16];
    snprintf(base, sizeof base, "%.15s", code);
    char *dash = strchr(base, '-');
    if (dash) *dash = 0;
    if (strlen(base) == 5) base[4] = 0;
    for (int i = 0; i < nmap; i++)
        if (!strcmp(map[i].code, base)) return &map[i];
    /* A variant of a base that only exists with variants: take the first. */
    size_t n = strlen(base);
    for (int i = 0; i < nmap; i++)
        if (!strncmp(map[i].code, base, n) && map[i].code[n] == '-') return &map[i];
    return NULL;
}

static FILE *steps_out; /* --steps FILE: every step found, to compare two builds */

typedef struct collect {
    rh_cands want_elim, want_place;
    bool exact;
    bool any_overlap;
    int steps;
} collect;

static int on_step(void *c, const sdk_step *s)
{
    collect *k = c;
    if (steps_out)
        fprintf(steps_out, "%s %d %s\n", s->tech ? s->tech->id : "?", s->difficulty, s->text);
    rh_cands e, p;
    rh_step_elims(s, &e);
    rh_step_places(s, &p);
    if (rh_cands_eq(&e, &k->want_elim) && rh_cands_eq(&p, &k->want_place)) k->exact = true;
    k->steps++;
    return k->steps > 20000 || k->exact ? SDK_STOP : SDK_CONTINUE;
}

typedef struct row {
    char code[16];
    int total, pass, fail, skipped;
} row;

int main(int argc, char **argv)
{
    const char *map_path = "tests/reglib/map.tsv", *known_path = NULL, *only = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--map") && i + 1 < argc)
            map_path = argv[++i];
        else if (!strcmp(argv[i], "--known") && i + 1 < argc)
            known_path = argv[++i];
        else if (!strcmp(argv[i], "--only") && i + 1 < argc)
            only = argv[++i];
        else if (!strcmp(argv[i], "--steps") && i + 1 < argc) {
            steps_out = fopen(argv[++i], "w");
            if (!steps_out) {
                perror(argv[i]);
                return 2;
            }
        }
    }
    load_map(map_path);
    if (known_path) load_known(known_path);
    sdk_config cfg;
    sdk_error err;
    const char *conf = getenv("SUDOKU_CONF");
    if (!sdk_config_load(conf ? conf : "build/etc/sudokud/sudokud.conf", &cfg, &err)) {
        fprintf(stderr, "config: %s\n", err.msg);
        return 2;
    }
    FILE *f = fopen(tu_reglib_path("reglib-1.4.txt"), "r");
    if (!f) {
        fprintf(stderr, "cannot read %s\n", tu_reglib_path("reglib-1.4.txt"));
        return 2;
    }
    row rows[128];
    int nrows = 0, unexpected = 0, lineno = 0;
    char line[2048];
    while (fgets(line, sizeof line, f)) {
        lineno++;
        rh_entry ent;
        if (!rh_parse(line, lineno, &ent)) continue;
        const char *code = ent.code;
        if (only && strncmp(code, only, strlen(only))) continue;
        bool fail_case = ent.fail_case;
        row *r = NULL;
        for (int i = 0; i < nrows; i++)
            if (!strcmp(rows[i].code, code)) r = &rows[i];
        if (!r) {
            r = &rows[nrows++];
            memset(r, 0, sizeof *r);
            snprintf(r->code, sizeof r->code, "%.15s", code);
        }
        r->total++;
        const map_entry *m = lookup(code);
        const sdk_grid g = ent.grid;
        collect k;
        memset(&k, 0, sizeof k);
        k.want_elim = ent.elim;
        k.want_place = ent.place;
        /* The techniques to ask. */
        sdk_profile prof = {0};
        const char *missing = m ? NULL : "has no entry in map.tsv";
        char missing_id[200];
        if (m) {
            char ids[128];
            snprintf(ids, sizeof ids, "%s", m->ids);
            sdk_options o;
            char why[64];
            char opts[160];
            snprintf(opts, sizeof opts, "%s%s", m->opts, ent.siamese ? " siamese=1" : "");
            sdk_options_parse(opts, &o, why, sizeof why);
            for (char *id = strtok(ids, ","); id; id = strtok(NULL, ",")) {
                const char *src;
                const sdk_technique *t = sdk_config_technique(&cfg, id, &src);
                if (!t) {
                    snprintf(missing_id, sizeof missing_id,
                             "maps to '%s', which no loaded plugin provides", id);
                    missing = missing_id;
                    break;
                }
                sdk_profile_add(&prof, t, &o, -1, src);
            }
        }
        if (missing) { /* a failure: every code of the library must run */
            r->skipped++;
            unexpected++;
            printf("line %d: %s %s\n", lineno, code, missing);
            sdk_profile_free(&prof);
            continue;
        }
        if (steps_out) fprintf(steps_out, "line %d %s\n", lineno, code);
        sdk_run_opts ro = {.unique = true};
        sdk_sink sink = {on_step, &k};
        for (int i = 0; i < prof.n && !k.exact; i++) sdk_engine_find(&prof, i, &g, &ro, &sink);
        sdk_profile_free(&prof);
        bool ok = fail_case ? !k.exact : k.exact;
        if (ok) {
            r->pass++;
        } else {
            r->fail++;
            bool kn = is_known(code, lineno);
            if (!kn) unexpected++;
            printf("line %d: %s: %s (%d steps found)%s\n", lineno, code,
                   fail_case ? "found a step the library says must not exist"
                             : "no step with exactly the expected effect",
                   k.steps, kn ? " [known, see known_failures.tsv]" : "");
        }
    }
    fclose(f);
    int t = 0, ps = 0, fl = 0, sk = 0;
    printf("\n%-8s %7s %7s %7s %7s\n", "code", "entries", "passed", "failed", "unrun");
    for (int i = 0; i < nrows; i++) {
        printf("%-8s %7d %7d %7d %7d\n", rows[i].code, rows[i].total, rows[i].pass, rows[i].fail,
               rows[i].skipped);
        t += rows[i].total;
        ps += rows[i].pass;
        fl += rows[i].fail;
        sk += rows[i].skipped;
    }
    printf("%-8s %7d %7d %7d %7d\n", "total", t, ps, fl, sk);
    printf("reglib total: %d of %d entries passed, %d failed, %d not run (no map entry or no "
           "plugin: failures)\n",
           ps, t, fl, sk);
    sdk_config_free(&cfg);
    if (steps_out) fclose(steps_out);
    return unexpected ? 1 : 0;
}
