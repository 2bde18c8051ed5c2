/* seed001.c - the backtracking trace printed as the Dutch seed's program
 * prints it (seeds/001): the puzzle, then one block per try (step, cell,
 * the box's top-left cell, the digit, the result), the grid after every
 * accepted digit and after every backtrack (the cell that ran out of digits
 * shown as -1), the solved grid and the time taken. Its words are the
 * program's own (Dutch), so that its output can be compared line for line.
 *
 * The daemon sends the tries as events (`trace` in explain's result); the
 * grids are rebuilt here by replaying them on the puzzle. */
#include "seed001.h"

#include <string.h>

#include "sudoku/format.h"

#define RULE "---------------------------\n"

static void print_grid(FILE *f, const int v[81])
{
    for (int r = 0; r < 9; r++) {
        /* each cell in a field of two, the first one trimmed: "4-1 0" as the
         * program shows a backtrack (two of the seed's three -1 rows) */
        for (int c = 0; c < 9; c++) fprintf(f, c ? "%2d" : "%d", v[r * 9 + c]);
        putc('\n', f);
    }
}

static const char *result_text(int res)
{
    switch (res) {
    case 0:
        return NULL; /* printed with the step number */
    case 1:
        return "getal komt al voor in deze rij";
    case 2:
        return "getal komt al voor in deze kolom";
    case 3:
        return "getal komt al voor in dit blok";
    default:
        return NULL;
    }
}

/* One event: [step, cell, digit, result] (result an int or its English text). */
static bool event(const msgpack_object *e, long long *step, int *cell, int *digit, int *res)
{
    static const char *const names[] = {"valid digit found", "already in this row",
                                        "already in this column", "already in this box",
                                        "no valid digit: backtrack"};
    if (e->type != MSGPACK_OBJECT_ARRAY || e->via.array.size < 4) return false;
    const msgpack_object *a = e->via.array.ptr;
    *step = sdk_wire_int(&a[0], 0);
    *cell = (int)sdk_wire_int(&a[1], -1);
    *digit = (int)sdk_wire_int(&a[2], 0);
    *res = -1;
    if (a[3].type == MSGPACK_OBJECT_STR) {
        for (int i = 0; i < 5; i++)
            if (sdk_wire_str_is(&a[3], names[i])) *res = i;
    } else {
        *res = (int)sdk_wire_int(&a[3], -1);
    }
    return *cell >= 0 && *cell < 81 && *res >= 0 && *res <= 4;
}

bool render_seed001(FILE *f, const msgpack_object *r)
{
    char text[4096];
    sdk_grid g;
    sdk_error err;
    sdk_wire_text(sdk_wire_get(r, "puzzle"), text, sizeof text);
    if (!sdk_parse(text, &g, &err)) return false;
    int v[81];
    for (int c = 0; c < 81; c++) v[c] = g.value[c];
    const msgpack_object *t = sdk_wire_get(r, "trace");
    if (!t || t->type != MSGPACK_OBJECT_ARRAY) return false;
    fputs("Op te lossen sudoku:\n", f);
    print_grid(f, v);
    for (size_t i = 0; i < t->via.array.size; i++) {
        long long step;
        int cell, digit, res;
        if (!event(&t->via.array.ptr[i], &step, &cell, &digit, &res)) continue;
        if (res == 4) { /* the cell ran out of digits */
            fprintf(f, "stap %lld: geen geldig getal ---> backtrack\n", step);
            v[cell] = -1;
            print_grid(f, v);
            v[cell] = 0;
            continue;
        }
        int row = cell / 9, col = cell % 9, br = row / 3 * 3, bc = col / 3 * 3;
        fprintf(f,
                RULE "Stap\n" RULE "%lld\n" RULE "Veld\n" RULE "index %d\nrij %d\nkolom %d\n" RULE
                     "Blok (veld linksboven)\n" RULE "index %d\nrij %d\nkolom %d\n" RULE
                     "Invulpoging\n" RULE "getal %d\n" RULE "Resultaat\n" RULE,
                step, cell + 1, row + 1, col + 1, br * 9 + bc + 1, br + 1, bc + 1, digit);
        if (res == 0) {
            fprintf(f, "stap %lld: geldig getal gevonden\n", step);
            v[cell] = digit;
            print_grid(f, v);
        } else {
            fprintf(f, "%s\n", result_text(res));
        }
    }
    char status[32];
    sdk_wire_text(sdk_wire_get(r, "trace_status"), status, sizeof status);
    if (!strcmp(status, "solved")) {
        fputs("Sudoku is opgelost:\n", f);
        print_grid(f, v);
    } else if (!strcmp(status, "no-solution")) {
        fputs("Sudoku heeft geen oplossing.\n", f);
    } else {
        fputs("(afgebroken: --max-trace bereikt)\n", f);
    }
    const msgpack_object *sec = sdk_wire_get(r, "trace_seconds");
    if (sec) {
        char num[32];
        snprintf(num, sizeof num, "%.2f", sdk_wire_num(sec, 0));
        char *dot = strchr(num, '.');
        if (dot) *dot = ','; /* the Dutch decimal comma, as the program prints it */
        fprintf(f, "De totale rekentijd bedraagt slechts %s sec.\n", num);
    }
    return true;
}
