/* test_sudokilo_examples.c - every example of the sudokilo seed (seeds/000)
 * through the sudokilo profile.
 *
 * tests/unit/sudokilo_examples.txt holds each example's position, worked out
 * from the seed's diagrams, and the deduction the seed draws (its format is
 * described at its top). One cmocka test per example:
 *   - the position has a completion (the solver), so it is a real position;
 *   - sound: each expected deduction holds in every completion (the solver
 *     finds none against it), and one step of the example's technique, run
 *     as the sudokilo profile's entry (its options, its difficulty), makes
 *     all of them;
 *   - unsound: each claim is false in some completion (so making it would be
 *     wrong), and no technique of the profile makes it (the last resort is
 *     run only for its own example, rule 5).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sudoku/format.h"
#include "sudoku/solver.h"
#include "testutil.h"

#define MAX_EXAMPLES 96
#define MAX_DEDUCTIONS 32

typedef struct deduction {
    uint8_t cell, digit, place; /* place: cell=digit, else cell<>digit */
} deduction;

typedef struct example {
    char name[64]; /* "step 19 example 2" */
    char id[48];
    int line; /* of its `example` line */
    bool sound;
    sdk_grid g;
    int n;
    deduction d[MAX_DEDUCTIONS];
} example;

static sdk_config cfg;
static const sdk_profile *profile;
static example examples[MAX_EXAMPLES];
static int nexamples;

/* ---- reading the data file ------------------------------------------------ */

static const char *data_path;
static int data_line;

static void bad(const char *what, const char *tok)
{
    fprintf(stderr, "%s:%d: %s '%s'\n", data_path, data_line, what, tok);
    exit(1);
}

/* "r2c8" (rows and columns swapped when transposed) -> cell. */
static int cell_of(const char *t, bool tr)
{
    if (t[0] != 'r' || t[1] < '1' || t[1] > '9' || t[2] != 'c' || t[3] < '1' || t[3] > '9')
        bad("not a cell", t);
    int r = t[1] - '1', c = t[3] - '1';
    return tr ? c * 9 + r : r * 9 + c;
}

/* "r2", "c8", "b4" -> house 0..26. */
static int house_of(const char *t, bool tr)
{
    if (strlen(t) != 2 || t[1] < '1' || t[1] > '9') bad("not a house", t);
    int k = t[1] - '1';
    switch (t[0]) {
    case 'r':
        return tr ? 9 + k : k;
    case 'c':
        return tr ? k : 9 + k;
    case 'b':
        return 18 + (tr ? 3 * (k % 3) + k / 3 : k);
    }
    bad("not a house", t);
    return -1;
}

static int digit_of(const char *t)
{
    if (strlen(t) != 1 || t[0] < '1' || t[0] > '9') bad("not a digit", t);
    return t[0] - '0';
}

/* "r2c8<>7" or "r3c5=4". */
static deduction deduction_of(const char *t, bool tr)
{
    deduction d = {(uint8_t)cell_of(t, tr), 0, 0};
    const char *p = t + 4;
    if (!strncmp(p, "<>", 2))
        p += 2;
    else if (*p == '=')
        d.place = 1, p++;
    else
        bad("not a deduction", t);
    d.digit = (uint8_t)digit_of(p);
    return d;
}

static void read_examples(void)
{
    data_path = tu_source_path("tests/unit/sudokilo_examples.txt");
    FILE *f = fopen(data_path, "r");
    if (!f) {
        perror(data_path);
        exit(1);
    }
    char buf[1024];
    example *e = NULL;
    bool tr = false;
    data_line = 0;
    while (fgets(buf, sizeof buf, f)) {
        data_line++;
        char *save, *tok = strtok_r(buf, " \t\r\n", &save);
        if (!tok || tok[0] == '#') continue;
        if (!strcmp(tok, "example")) {
            if (e) bad("example inside an example", tok);
            if (nexamples == MAX_EXAMPLES) bad("too many examples", tok);
            e = &examples[nexamples++];
            memset(e, 0, sizeof *e);
            char *step = strtok_r(NULL, " \t\r\n", &save), *n = strtok_r(NULL, " \t\r\n", &save);
            char *kind = strtok_r(NULL, " \t\r\n", &save), *id = strtok_r(NULL, " \t\r\n", &save);
            if (!step || !n || !kind || !id) bad("incomplete example line", tok);
            if (strcmp(kind, "sound") && strcmp(kind, "unsound")) bad("neither sound nor", kind);
            e->sound = !strcmp(kind, "sound");
            snprintf(e->id, sizeof e->id, "%s", id);
            tr = false;
            while ((tok = strtok_r(NULL, " \t\r\n", &save)))
                if (!strcmp(tok, "transposed"))
                    tr = true;
                else if (strcmp(tok, "built"))
                    bad("unknown flag", tok);
            snprintf(e->name, sizeof e->name, "%s%s example %s%s",
                     strncmp(step, "rule", 4) ? "step " : "", step, n, tr ? " (transposed)" : "");
            e->line = data_line;
            sdk_grid_init(&e->g);
            continue;
        }
        if (!e) bad("outside an example", tok);
        if (!strcmp(tok, "end")) {
            e = NULL;
        } else if (!strcmp(tok, "place")) {
            while ((tok = strtok_r(NULL, " \t\r\n", &save))) {
                deduction d = deduction_of(tok, tr);
                if (!d.place) bad("not a placement", tok);
                sdk_grid_place(&e->g, d.cell, d.digit, true);
            }
        } else if (!strcmp(tok, "grid")) {
            sdk_error err;
            tok = strtok_r(NULL, " \t\r\n", &save);
            if (!tok || tr || !sdk_parse(tok, &e->g, &err)) bad("not a grid", tok ? tok : "");
        } else if (!strcmp(tok, "cands")) {
            while ((tok = strtok_r(NULL, " \t\r\n", &save))) {
                int c = cell_of(tok, tr);
                if (tok[4] != '=') bad("not cell=digits", tok);
                unsigned keep = 0;
                for (const char *p = tok + 5; *p; p++)
                    keep |= sdk_digit_bit(digit_of((char[]){*p, 0}));
                for (int d = 1; d <= 9; d++)
                    if (!(keep & sdk_digit_bit(d))) sdk_grid_eliminate(&e->g, c, d);
            }
        } else if (!strcmp(tok, "only") || !strcmp(tok, "drop")) {
            bool only = !strcmp(tok, "only");
            char *dt = strtok_r(NULL, " \t\r\n", &save);
            if (!dt) bad("no digit after", tok);
            int d = digit_of(dt);
            int h = -1;
            if (only) {
                char *ht = strtok_r(NULL, " \t\r\n", &save);
                if (!ht) bad("no house after", tok);
                h = house_of(ht, tr);
            }
            sdk_bb cells = sdk_bb_none();
            while ((tok = strtok_r(NULL, " \t\r\n", &save))) sdk_bb_add(&cells, cell_of(tok, tr));
            sdk_bb gone = only ? sdk_bb_andnot(sdk_house_bb[h], cells) : cells;
            SDK_BB_FOREACH(c, gone) sdk_grid_eliminate(&e->g, c, d);
        } else if (!strcmp(tok, "expect") || !strcmp(tok, "claim")) {
            if (!strcmp(tok, "expect") != e->sound) bad("wrong kind of deduction for", tok);
            while ((tok = strtok_r(NULL, " \t\r\n", &save))) {
                if (e->n == MAX_DEDUCTIONS) bad("too many deductions", tok);
                e->d[e->n++] = deduction_of(tok, tr);
            }
        } else {
            bad("unknown line", tok);
        }
    }
    fclose(f);
    if (e) bad("no end to the last example", e->name);
}

/* ---- checking one example ------------------------------------------------- */

static char *deduction_text(const deduction *d, char *buf)
{
    snprintf(buf, 16, "r%dc%d%s%d", d->cell / 9 + 1, d->cell % 9 + 1, d->place ? "=" : "<>",
             d->digit);
    return buf;
}

/* Completions of g where d does not hold: for a sound deduction there must
 * be none, for a claim at least one. */
static int completions_against(const sdk_grid *g, const deduction *d)
{
    sdk_grid h = *g;
    if (d->place)
        sdk_grid_eliminate(&h, d->cell, d->digit);
    else
        sdk_grid_place(&h, d->cell, d->digit, false);
    return sdk_solve_grid(&h, 1, NULL, NULL);
}

static bool step_makes(const sdk_step *s, const deduction *d)
{
    if (d->place) {
        for (int i = 0; i < s->nplace; i++)
            if (s->place[i].cell == d->cell && s->place[i].digit == d->digit) return true;
        return false;
    }
    for (int i = 0; i < s->nelim; i++)
        if (s->elim[i].cell == d->cell && s->elim[i].digit == d->digit) return true;
    return false;
}

typedef struct collect {
    sdk_step *s;
    int n, cap;
} collect;

static int keep(void *ctx, const sdk_step *s)
{
    collect *c = ctx;
    if (c->n == c->cap) {
        c->cap = c->cap ? 2 * c->cap : 16;
        c->s = realloc(c->s, sizeof *c->s * (size_t)c->cap);
        assert_non_null(c->s);
    }
    c->s[c->n++] = *s;
    return SDK_CONTINUE;
}

static void check_example(void **state)
{
    const example *e = *state;
    char t[16];
    printf("  %s (%s:%d), %s, %s\n", e->name, "sudokilo_examples.txt", e->line, e->id,
           e->sound ? "sound" : "unsound");
    assert_true(sdk_solve_grid(&e->g, 1, NULL, NULL) > 0); /* a real position */
    int entry = sdk_profile_find(profile, e->id);
    if (entry < 0) fail_msg("%s: %s is not in the sudokilo profile", e->name, e->id);
    sdk_run_opts o = {.unique = true, .no_guess = true};
    collect c = {NULL, 0, 0};
    sdk_sink sink = {keep, &c};
    if (e->sound) {
        for (int k = 0; k < e->n; k++) {
            const deduction *d = &e->d[k];
            if (!d->place && !sdk_grid_has(&e->g, d->cell, d->digit))
                fail_msg("%s: %s: not a candidate in the position", e->name, deduction_text(d, t));
            if (completions_against(&e->g, d))
                fail_msg("%s: %s does not follow from the position", e->name, deduction_text(d, t));
        }
        sdk_engine_find(profile, entry, &e->g, &o, &sink);
        int found = -1;
        for (int i = 0; i < c.n && found < 0; i++) {
            int k = 0;
            while (k < e->n && step_makes(&c.s[i], &e->d[k])) k++;
            if (k == e->n) found = i;
        }
        if (found < 0) {
            for (int i = 0; i < c.n; i++) printf("    got: %s\n", c.s[i].text);
            free(c.s);
            fail_msg("%s: no %s step makes all %d deductions", e->name, e->id, e->n);
        }
        printf("    %s\n", c.s[found].text);
    } else {
        for (int k = 0; k < e->n; k++) {
            const deduction *d = &e->d[k];
            if (!sdk_grid_has(&e->g, d->cell, d->digit))
                fail_msg("%s: claim %s: not a candidate", e->name, deduction_text(d, t));
            if (!completions_against(&e->g, d))
                fail_msg("%s: claim %s holds after all", e->name, deduction_text(d, t));
        }
        /* every technique; the last resort too when the claim is its */
        o.no_guess = !(profile->entry[entry].tech->flags & SDK_TF_LAST_RESORT);
        sdk_engine_hint(profile, &e->g, &o, true, &sink);
        for (int i = 0; i < c.n; i++)
            for (int k = 0; k < e->n; k++)
                if (step_makes(&c.s[i], &e->d[k])) {
                    printf("    made by: %s\n", c.s[i].text);
                    free(c.s);
                    fail_msg("%s: %s made, yet a completion has it", e->name,
                             deduction_text(&e->d[k], t));
                }
        for (int i = 0; i < c.n && i < 3; i++) printf("    found: %s\n", c.s[i].text);
        printf("    %d claims each false in some completion; none made by the %d steps the "
               "profile finds\n",
               e->n, c.n);
    }
    free(c.s);
}

int main(void)
{
    read_examples();
    tu_load_config(&cfg);
    profile = sdk_config_profile(&cfg, "sudokilo");
    if (!profile) {
        fprintf(stderr, "no sudokilo profile in the config\n");
        return 1;
    }
    static struct CMUnitTest tests[MAX_EXAMPLES];
    for (int i = 0; i < nexamples; i++)
        tests[i] = (struct CMUnitTest){examples[i].name, check_example, NULL, NULL, &examples[i]};
    int rc = _cmocka_run_group_tests("sudokilo_examples", tests, (size_t)nexamples, NULL, NULL);
    sdk_config_free(&cfg);
    return rc;
}
