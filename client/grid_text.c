/* grid_text.c - the candidate grid of `explain --grid` / `hint --grid` in the
 * terminal, drawn with box-drawing lines, with the step's pattern on it.
 *
 * Every cell is three lines of three candidate slots; a slot is two
 * characters, a marker and the digit. On a colour terminal the pattern is
 * coloured by role (the same roles as the HTML report: base blue, cover
 * yellow, fin magenta, pivot bright yellow, pincer cyan, on green, off red
 * background, ...), eliminations are red and struck through, placements
 * green and bold. Without colour (NO_COLOR, not a terminal, --color=never)
 * the marker says it: '-' eliminated, '+' placed, '*' part of the pattern.
 * Heavy lines separate the boxes; given digits are bold on a colour
 * terminal. */
#include "grid_text.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "i18n.h"
#include "render.h"
#include "rpc.h"

bool grid_colour_wanted(int mode, FILE *out)
{
    if (mode == COLOR_ALWAYS) return true;
    if (mode == COLOR_NEVER) return false;
    const char *nc = getenv("NO_COLOR");
    if (nc && *nc) return false;
    const char *term = getenv("TERM");
    if (term && !strcmp(term, "dumb")) return false;
    return isatty(fileno(out));
}

/* ANSI background per role (index: sdk_role), 256-colour where it helps tell
 * them apart, and a foreground that reads on it. */
static const char *const role_sgr[] = {
    "",                  /* none */
    "48;5;75;38;5;16",   /* base: blue */
    "48;5;214;38;5;16",  /* cover: amber */
    "48;5;135;38;5;231", /* fin: purple */
    "48;5;211;38;5;16",  /* endofin: pink */
    "48;5;226;38;5;16",  /* pivot: yellow */
    "48;5;44;38;5;16",   /* pincer: cyan */
    "48;5;77;38;5;16",   /* on: green */
    "48;5;209;38;5;16",  /* off: orange */
    "48;5;250;38;5;16",  /* als: grey (each set its own below) */
    "48;5;137;38;5;231", /* target: brown */
};
static const char *const als_sgr[] = {"48;5;117;38;5;16", "48;5;216;38;5;16", "48;5;150;38;5;16",
                                      "48;5;183;38;5;16"};
#define NROLE (int)(sizeof role_sgr / sizeof *role_sgr)

typedef struct look {
    signed char role[81][10]; /* -1 none; digit 0: the whole cell */
    unsigned char elim[81][10], place[81][10];
    signed char als[81]; /* which ALS the cell is in, -1 none */
} look;

/* HoDoKu's compact cells "r13489c4" / "r1c789,r23c8" into cells; count. */
static int compact_cells(const char *s, size_t n, int *out, int max)
{
    int k = 0;
    size_t i = 0;
    while (i < n && k < max) {
        if (s[i] != 'r') break;
        size_t j = i + 1;
        int rows[9], nr = 0, cols[9], nc = 0;
        while (j < n && s[j] >= '1' && s[j] <= '9' && nr < 9) rows[nr++] = s[j++] - '1';
        if (j >= n || s[j] != 'c' || !nr) break;
        j++;
        while (j < n && s[j] >= '1' && s[j] <= '9' && nc < 9) cols[nc++] = s[j++] - '1';
        if (!nc) break;
        for (int a = 0; a < nr; a++)
            for (int b = 0; b < nc && k < max; b++) out[k++] = rows[a] * 9 + cols[b];
        if (j < n && s[j] == ',')
            i = j + 1;
        else
            break;
    }
    return k;
}

static void look_of(const msgpack_object *s, look *lk)
{
    memset(lk->role, -1, sizeof lk->role);
    memset(lk->elim, 0, sizeof lk->elim);
    memset(lk->place, 0, sizeof lk->place);
    memset(lk->als, -1, sizeof lk->als);
    if (!s) return;
    const msgpack_object *marks = sdk_wire_get(s, "marks");
    for (size_t i = 0; i < sdk_wire_len(marks) && marks->type == MSGPACK_OBJECT_ARRAY; i++) {
        const msgpack_object *m = &marks->via.array.ptr[i];
        if (m->type != MSGPACK_OBJECT_ARRAY || m->via.array.size < 3) continue;
        int c = sdk_wire_cell(&m->via.array.ptr[0]);
        long long d = sdk_wire_int(&m->via.array.ptr[1], -1);
        if (c < 0 || d < 0 || d > 9) continue;
        lk->role[c][d] = (signed char)sdk_wire_role(&m->via.array.ptr[2]);
    }
    const char *keys[] = {"placements", "eliminations"};
    for (int k = 0; k < 2; k++) {
        const msgpack_object *a = sdk_wire_get(s, keys[k]);
        for (size_t i = 0; i < sdk_wire_len(a) && a->type == MSGPACK_OBJECT_ARRAY; i++) {
            int c, d;
            bool pl;
            if (!sdk_wire_cand(&a->via.array.ptr[i], &c, &d, &pl)) continue;
            if (pl)
                lk->place[c][d] = 1;
            else
                lk->elim[c][d] = 1;
        }
    }
    /* the sets of an ALS step, each its own colour: "cells {digits}" */
    char tech[64], text[2048];
    sdk_wire_text(sdk_wire_get(s, "technique"), tech, sizeof tech);
    if (strncmp(tech, "als-", 4) && strcmp(tech, "death-blossom")) return;
    sdk_wire_text(sdk_wire_get(s, "text"), text, sizeof text);
    int set = 0;
    for (char *p = text; (p = strstr(p, " {")) != NULL; p++) {
        char *q = p;
        while (q > text && q[-1] != ' ' && q[-1] != '=') q--;
        int cells[81];
        int n = compact_cells(q, (size_t)(p - q), cells, 81);
        for (int i = 0; i < n; i++)
            if (lk->als[cells[i]] < 0) lk->als[cells[i]] = (signed char)set;
        if (n) set++;
    }
}

static void sgr(FILE *f, bool colour, const char *codes)
{
    if (colour && codes && *codes) fprintf(f, "\033[%sm", codes);
}
static void reset(FILE *f, bool colour)
{
    if (colour) fputs("\033[0m", f);
}

/* One slot (two characters) of cell c's line `row` (0..2), column `col`. */
static void slot(FILE *f, const sdk_grid *g, const look *lk, int c, int d, bool colour)
{
    bool has = sdk_grid_has(g, c, d);
    if (!has && !lk->place[c][d]) {
        fputs("  ", f);
        return;
    }
    int role = lk->role[c][d];
    if (lk->place[c][d]) {
        if (colour) {
            fprintf(f, " \033[1;97;42m%d\033[0m", d);
        } else
            fprintf(f, "+%d", d);
        return;
    }
    if (lk->elim[c][d]) {
        if (colour)
            fprintf(f, " \033[1;9;91;48;5;224m%d\033[0m", d);
        else
            fprintf(f, "-%d", d);
        return;
    }
    if (role > 0 && role < NROLE) {
        const char *code = role_sgr[role];
        if (role == 9 && lk->als[c] >= 0) code = als_sgr[lk->als[c] % 4];
        if (colour) {
            putc(' ', f);
            sgr(f, true, code);
            fprintf(f, "%d", d);
            reset(f, true);
        } else
            fprintf(f, "*%d", d);
        return;
    }
    fprintf(f, " %d", d);
}

/* The cell's background when the whole cell or its ALS is marked. */
static const char *cell_bg(const look *lk, int c)
{
    int r = lk->role[c][0];
    if (lk->als[c] >= 0) return als_sgr[lk->als[c] % 4];
    if (r > 0 && r < NROLE) return role_sgr[r];
    return NULL;
}

void grid_text_draw(FILE *f, const sdk_grid *g, const msgpack_object *step, bool colour)
{
    static look lk;
    look_of(step, &lk);
    /* heavy lines between boxes, light between cells */
    static const char *const top =
        "┏━━━━━━━┯━━━━━━━┯━━━━━━━┳━━━━━━━┯━━━━━━━┯━━━━━━━┳━━━━━━━┯━━━━━━━┯━━━━━━━┓";
    static const char *const thin =
        "┠───────┼───────┼───────╂───────┼───────┼───────╂───────┼───────┼───────┨";
    static const char *const thick =
        "┣━━━━━━━┿━━━━━━━┿━━━━━━━╋━━━━━━━┿━━━━━━━┿━━━━━━━╋━━━━━━━┿━━━━━━━┿━━━━━━━┫";
    static const char *const bottom =
        "┗━━━━━━━┷━━━━━━━┷━━━━━━━┻━━━━━━━┷━━━━━━━┷━━━━━━━┻━━━━━━━┷━━━━━━━┷━━━━━━━┛";
    fputs("      c1      c2      c3      c4      c5      c6      c7      c8      c9\n", f);
    fprintf(f, "   %s\n", top);
    for (int r = 0; r < 9; r++) {
        for (int line = 0; line < 3; line++) {
            if (line == 1)
                fprintf(f, "r%d ", r + 1);
            else
                fputs("   ", f);
            for (int col = 0; col < 9; col++) {
                int c = r * 9 + col;
                fputs(col % 3 == 0 ? "┃" : "│", f);
                const char *bg = colour ? cell_bg(&lk, c) : NULL;
                if (g->value[c]) {
                    if (line == 1) {
                        if (colour) {
                            fprintf(f, "   \033[%sm%d\033[0m   ", g->given[c] ? "1" : "34",
                                    g->value[c]);
                        } else
                            fprintf(f, "   %d   ", g->value[c]);
                    } else
                        fputs("       ", f);
                    continue;
                }
                sgr(f, colour, bg);
                for (int k = 0; k < 3; k++) {
                    slot(f, g, &lk, c, line * 3 + k + 1, colour);
                    if (bg) sgr(f, colour, bg);
                }
                putc(' ', f);
                if (bg) reset(f, colour);
            }
            fputs("┃\n", f);
        }
        if (r < 8) fprintf(f, "   %s\n", r % 3 == 2 ? thick : thin);
    }
    fprintf(f, "   %s\n", bottom);
    if (!step) return;
    /* which roles the picture uses */
    bool used[NROLE] = {false}, any = false, el = false, pl = false;
    for (int c = 0; c < 81; c++)
        for (int d = 0; d <= 9; d++) {
            int r = lk.role[c][d];
            if (r > 0 && r < NROLE) used[r] = any = true;
            el |= lk.elim[c][d] != 0;
            pl |= lk.place[c][d] != 0;
        }
    if (!any && !el && !pl) return;
    static const char *const names[] = {
        "",          N_("base"),   N_("cover"),     N_("fin"),         N_("endo fin"),
        N_("pivot"), N_("pincer"), N_("on (true)"), N_("off (false)"), N_("almost locked set"),
        N_("target")};
    fputs("   ", f);
    for (int r = 1; r < NROLE; r++) {
        if (!used[r]) continue;
        if (colour) {
            sgr(f, true, role_sgr[r]);
            fprintf(f, " %s ", _(names[r]));
            reset(f, true);
            putc(' ', f);
        } else
            fprintf(f, "*%s  ", _(names[r]));
    }
    if (el) {
        if (colour)
            fprintf(f, "\033[1;9;91;48;5;224m %s \033[0m ", _("eliminated"));
        else
            fprintf(f, "-%s  ", _("eliminated"));
    }
    if (pl) {
        if (colour)
            fprintf(f, "\033[1;97;42m %s \033[0m", _("placed"));
        else
            fprintf(f, "+%s", _("placed"));
    }
    putc('\n', f);
}
