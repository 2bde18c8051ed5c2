/* reglib_harness.c - see reglib_harness.h. */
#include "reglib_harness.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- candidate sets ----------------------------------------------------- */

void rh_cands_add(rh_cands *s, int cell, int digit)
{
    int k = cell * 9 + digit - 1;
    s->w[k / 64] |= 1ULL << (k % 64);
}

bool rh_cands_eq(const rh_cands *a, const rh_cands *b)
{
    return memcmp(a, b, sizeof *a) == 0;
}

bool rh_cands_parse(const char *f, rh_cands *out)
{
    memset(out, 0, sizeof *out);
    while (*f) {
        while (*f == ' ') f++;
        if (!*f) break;
        for (int i = 0; i < 3; i++)
            if (f[i] < '1' || f[i] > '9') return false;
        rh_cands_add(out, (f[1] - '1') * 9 + f[2] - '1', f[0] - '0');
        f += 3;
        if (*f && *f != ' ') return false;
    }
    return true;
}

void rh_step_elims(const sdk_step *s, rh_cands *out)
{
    memset(out, 0, sizeof *out);
    for (int i = 0; i < s->nelim; i++) rh_cands_add(out, s->elim[i].cell, s->elim[i].digit);
}

void rh_step_places(const sdk_step *s, rh_cands *out)
{
    memset(out, 0, sizeof *out);
    for (int i = 0; i < s->nplace; i++) rh_cands_add(out, s->place[i].cell, s->place[i].digit);
}

/* ---- lines -------------------------------------------------------------- */

void rh_position(const char *grid, const char *removed, sdk_grid *g)
{
    sdk_grid_init(g);
    int cell = 0;
    for (const char *q = grid; *q && cell < 81; q++) {
        bool placed = *q == '+';
        if (placed) q++;
        if (*q >= '1' && *q <= '9')
            sdk_grid_place(g, cell, *q - '0', !placed);
        else if (*q != '.' && *q != '0')
            fail_msg("bad grid character '%c' in %s", *q, grid);
        cell++;
    }
    if (cell != 81) fail_msg("grid of %d cells: %s", cell, grid);
    rh_cands rm;
    if (!rh_cands_parse(removed, &rm)) fail_msg("bad candidate list: %s", removed);
    for (int k = 0; k < 729; k++)
        if (rm.w[k / 64] >> (k % 64) & 1) sdk_grid_eliminate(g, k / 9, k % 9 + 1);
}

bool rh_parse(char *line, int lineno, rh_entry *e)
{
    size_t n = strlen(line);
    while (n && (line[n - 1] == '\n' || line[n - 1] == '\r' || line[n - 1] == ' ' ||
                 line[n - 1] == '\t'))
        line[--n] = 0;
    if (line[0] != ':') return false; /* blank, comment, disabled (#:) */
    memset(e, 0, sizeof *e);
    e->line = lineno;
    int nf = 0;
    char *p = line + 1;
    e->fld[nf++] = p;
    for (; *p && nf < 7; p++)
        if (*p == ':') {
            *p = 0;
            e->fld[nf++] = p + 1;
        }
    for (int i = nf; i < 7; i++) e->fld[i] = "";
    if (nf < 6) fail_msg("line %d: %d fields", lineno, nf);
    snprintf(e->code, sizeof e->code, "%s", e->fld[0]);
    size_t num = strspn(e->code, "0123456789");
    if (num != 4 && num != 5) fail_msg("line %d: bad code %s", lineno, e->code);
    snprintf(e->base, sizeof e->base, "%.4s", e->code);
    e->siamese = num == 5;
    if (e->code[num] == '-') {
        if (!strcmp(e->code + num, "-x"))
            e->fail_case = true;
        else
            e->variant = atoi(e->code + num + 1);
    }
    snprintf(e->digits, sizeof e->digits, "%s", e->fld[1]);
    rh_position(e->fld[2], e->fld[3], &e->grid);
    if (!rh_cands_parse(e->fld[4], &e->elim) || !rh_cands_parse(e->fld[5], &e->place))
        fail_msg("line %d: bad candidate list", lineno);
    return true;
}

/* ---- digits fields ------------------------------------------------------ */

static void mask_digits(unsigned m, char *out)
{
    int n = 0;
    for (int d = 1; d <= 9; d++)
        if (m >> d & 1) out[n++] = (char)('0' + d);
    out[n] = 0;
}

bool rh_digits_elim(const rh_entry *e, const sdk_step *s, char *out)
{
    (void)e;
    unsigned m = 0;
    for (int i = 0; i < s->nelim; i++) m |= 1u << s->elim[i].digit;
    mask_digits(m, out);
    return true;
}

bool rh_digits_effect(const rh_entry *e, const sdk_step *s, char *out)
{
    if (!s->nplace) return rh_digits_elim(e, s, out);
    unsigned m = 0;
    for (int i = 0; i < s->nplace; i++) m |= 1u << s->place[i].digit;
    mask_digits(m, out);
    return true;
}

static void text_digits(const sdk_step *s, bool first_only, char *out)
{
    const char *p = strstr(s->text, ": ");
    unsigned m = 0;
    if (p) {
        p += 2;
        while (*p >= '1' && *p <= '9') {
            m |= 1u << (*p - '0');
            p++;
            if (*p != '/' || first_only) break;
            p++;
        }
    }
    mask_digits(m, out);
}

bool rh_digits_text(const rh_entry *e, const sdk_step *s, char *out)
{
    (void)e;
    text_digits(s, false, out);
    return true;
}

bool rh_digits_text_first(const rh_entry *e, const sdk_step *s, char *out)
{
    (void)e;
    text_digits(s, true, out);
    return true;
}

bool rh_digits_none(const rh_entry *e, const sdk_step *s, char *out)
{
    (void)e;
    (void)s;
    out[0] = 0;
    return true;
}

/* ---- checking ----------------------------------------------------------- */

static const rh_code *lookup(const rh_spec *spec, const rh_entry *e)
{
    char plain[16];
    snprintf(plain, sizeof plain, "%s", e->code);
    if (e->fail_case) plain[strlen(plain) - 2] = 0;
    const char *keys[3] = {e->code, plain, e->base};
    for (int k = 0; k < 3; k++)
        for (int i = 0; i < spec->nmap; i++)
            if (!strcmp(spec->map[i].code, keys[k])) return &spec->map[i];
    return NULL;
}

/* §6: returns true on a pass; counts matching and differing steps, whether a
 * step makes exactly the line's effect, and the first differing step. */
static bool check(const rh_entry *e, const tu_steps *st, rh_digits_fn digits, int *matching,
                  int *differ, bool *exact, int *example)
{
    *matching = *differ = 0;
    *exact = false;
    *example = -1;
    for (int i = 0; i < st->n; i++) {
        const sdk_step *s = &st->s[i];
        rh_cands el, pl;
        rh_step_elims(s, &el);
        rh_step_places(s, &pl);
        bool same = rh_cands_eq(&el, &e->elim) && rh_cands_eq(&pl, &e->place);
        *exact |= same;
        char dg[16];
        if (!digits(e, s, dg) || strcmp(dg, e->digits)) continue;
        ++*matching;
        if (!same) {
            ++*differ;
            if (*example < 0) *example = i;
        }
    }
    if (e->fail_case) {
        for (int i = 0; i < st->n && *example < 0 && *matching; i++) {
            char dg[16];
            if (digits(e, &st->s[i], dg) && !strcmp(dg, e->digits)) *example = i;
        }
        return *matching == 0;
    }
    return *matching > 0 && *differ == 0;
}

/* tests/reglib/known_failures.tsv: "code<TAB>line<TAB>reason", the one list
 * of reglib lines we knowingly fail (the runner reads it too). */
typedef struct tsv_known {
    char code[16];
    int line;
    char why[400];
} tsv_known;

static const char *known_in_tsv(const char *code, int lineno)
{
    static tsv_known list[256];
    static int n = -1;
    if (n < 0) {
        n = 0;
        const char *path = tu_source_path("tests/reglib/known_failures.tsv");
        FILE *f = fopen(path, "r");
        if (!f) fail_msg("cannot read %s (set SUDOKU_SOURCE)", path);
        char line[1024];
        while (fgets(line, sizeof line, f) && n < (int)(sizeof list / sizeof *list)) {
            if (line[0] == '#' || line[0] == '\n') continue;
            line[strcspn(line, "\r\n")] = 0;
            char *c = strtok(line, "\t"), *l = strtok(NULL, "\t"), *why = strtok(NULL, "");
            if (!c || !l) fail_msg("%s: malformed line", path);
            snprintf(list[n].code, sizeof list[n].code, "%s", c);
            list[n].line = atoi(l);
            snprintf(list[n].why, sizeof list[n].why, "%s", why ? why : "");
            n++;
        }
        fclose(f);
    }
    for (int i = 0; i < n; i++)
        if (list[i].line == lineno && !strncmp(code, list[i].code, strlen(list[i].code)))
            return list[i].why;
    return NULL;
}

int rh_run(const rh_spec *spec, rh_result *res)
{
    memset(res, 0, sizeof *res);
    FILE *f = fopen(tu_reglib_path("reglib-1.4.txt"), "r");
    if (!f) fail_msg("cannot open %s", tu_reglib_path("reglib-1.4.txt"));
    static char line[4096];
    static rh_entry e;
    tu_steps st = {0};
    int lineno = 0;
    while (fgets(line, sizeof line, f)) {
        lineno++;
        if (!rh_parse(line, lineno, &e)) continue;
        const rh_code *m = lookup(spec, &e);
        if (!m) {
            for (int i = 0; spec->require && spec->require[i]; i++)
                if (!strncmp(e.code, spec->require[i], strlen(spec->require[i])))
                    fail_msg("line %d: code %s has no map entry", lineno, e.code);
            continue;
        }
        rh_row *r = NULL;
        for (int i = 0; i < res->nrow && !r; i++)
            if (!strcmp(res->row[i].code, e.code)) r = &res->row[i];
        if (!r) {
            if (res->nrow == (int)(sizeof res->row / sizeof *res->row)) fail_msg("too many codes");
            r = &res->row[res->nrow++];
            snprintf(r->code, sizeof r->code, "%s", e.code);
            r->map = m;
        }
        r->total++;
        res->lines++;
        tu_find_all(tu_tech(m->plugin, m->id), m->opts, &e.grid, &st);
        int matching, differ, example;
        bool exact;
        bool ok = check(&e, &st, m->digits, &matching, &differ, &exact, &example);
        r->found += exact;
        if (ok) {
            r->pass++;
            continue;
        }
        const char *why = NULL;
        for (int i = 0; i < spec->nknown && !why; i++)
            if (spec->known[i].line == lineno) why = spec->known[i].why;
        if (!why) why = known_in_tsv(e.code, lineno);
        if (why)
            r->known++;
        else
            res->failures++;
        if (spec->quiet) continue;
        if (why)
            printf("  known line %d %s: %s\n", lineno, e.code, why);
        else
            printf("  FAIL line %d %s digits %s: %d matching, %d differ (want %s%s)%s%s\n", lineno,
                   e.code, e.digits, matching, differ, e.fld[4], e.fld[5],
                   example >= 0 ? ", e.g. " : "", example >= 0 ? st.s[example].text : "");
    }
    fclose(f);
    tu_steps_free(&st);
    return res->failures;
}

void rh_print(const rh_result *res)
{
    printf("  %-8s %5s %5s\n", "code", "pass", "total");
    for (int i = 0; i < res->nrow; i++)
        printf("  %-8s %5d %5d\n", res->row[i].code, res->row[i].pass, res->row[i].total);
}

int rh_run_table(const rh_code *map, int nmap)
{
    rh_spec spec = {.map = map, .nmap = nmap};
    static rh_result res;
    int bad = rh_run(&spec, &res);
    rh_print(&res);
    return bad;
}

void rh_print_map(const rh_spec *spec, const rh_result *res)
{
    for (int i = 0; i < spec->nmap; i++) {
        const rh_row *r = rh_row_of(res, spec->map[i].code);
        printf("reglib %-7s %-24s %3d/%3d pass\n", spec->map[i].code, spec->map[i].id,
               r ? r->pass : 0, r ? r->total : 0);
    }
}

const rh_row *rh_row_of(const rh_result *res, const char *code)
{
    for (int i = 0; i < res->nrow; i++)
        if (!strcmp(res->row[i].code, code)) return &res->row[i];
    return NULL;
}

rh_row rh_sum(const rh_result *res, const char *prefix)
{
    rh_row sum;
    memset(&sum, 0, sizeof sum);
    snprintf(sum.code, sizeof sum.code, "%s", prefix);
    for (int i = 0; i < res->nrow; i++) {
        const rh_row *r = &res->row[i];
        if (strncmp(r->code, prefix, strlen(prefix))) continue;
        sum.total += r->total;
        sum.pass += r->pass;
        sum.known += r->known;
        sum.found += r->found;
    }
    return sum;
}

/* ---- map.tsv ------------------------------------------------------------ */

int rh_map_tsv(const char *prefix, const char *plugin, rh_digits_fn digits, rh_code *out, int max)
{
    static char pool[16384];
    static size_t used;
    const char *src = getenv("SUDOKU_SOURCE");
    char path[1024];
    snprintf(path, sizeof path, "%s/tests/reglib/map.tsv", src && *src ? src : ".");
    FILE *f = fopen(path, "r");
    if (!f) fail_msg("cannot open %s", path);
    char line[512];
    int n = 0;
    while (n < max && fgets(line, sizeof line, f)) {
        if (line[0] == '#' || strncmp(line, prefix, strlen(prefix))) continue;
        line[strcspn(line, "\r\n")] = 0;
        char *code = strtok(line, "\t"), *id = strtok(NULL, "\t"), *opts = strtok(NULL, "\t");
        if (!code || !id) continue;
        if (strchr(id, ',')) fail_msg("map.tsv %s: several ids (%s)", code, id);
        const char *parts[3] = {code, id, opts ? opts : ""};
        char *kept[3];
        for (int k = 0; k < 3; k++) {
            size_t len = strlen(parts[k]) + 1;
            if (used + len > sizeof pool) fail_msg("map.tsv pool full");
            kept[k] = memcpy(pool + used, parts[k], len);
            used += len;
        }
        out[n++] = (rh_code){kept[0], plugin, kept[1], kept[2], digits};
    }
    fclose(f);
    return n;
}
