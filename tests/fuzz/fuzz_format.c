/* fuzz_format.c - libFuzzer target: puzzle and grid text (lib/format.c).
 *
 * The bytes are read twice: as one puzzle text for sdk_parse() (what a
 * request's `puzzle` becomes), and as a file of puzzles through sdk_reader
 * (what sudoctl -f reads), each puzzle it splits off parsed in turn. A grid
 * that parses must come back from what we write of it: the 81-character
 * line and the printed grid give the same values, the pencilmark and the
 * 729-character grids keep every value (or read back as a conflict where
 * the grid has no solution; see round_trips). Otherwise the target aborts.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sudoku/format.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(bool ok, const char *what, const char *text)
{
    if (ok) return;
    fprintf(stderr, "fuzz_format: %s\n--- text written ---\n%s\n", what, text);
    abort();
}

static void same_values(const sdk_grid *a, const sdk_grid *b, bool exact, const char *text)
{
    for (int c = 0; c < 81; c++)
        if (a->value[c] && a->value[c] != b->value[c])
            check(false, "a value got lost or changed on the way back", text);
        else if (exact && !a->value[c] && b->value[c])
            check(false, "a value appeared on the way back", text);
}

static void round_trips(const sdk_grid *g)
{
    static char text[4096];
    sdk_grid back;
    sdk_error err;
    sdk_format_line(g, text);
    check(sdk_parse(text, &back, &err), "the 81-character line of a grid does not parse", text);
    same_values(g, &back, true, text);
    sdk_format_printed(g, text, sizeof text);
    check(sdk_parse(text, &back, &err), "the printed grid does not parse", text);
    same_values(g, &back, true, text);
    /* A candidate grid takes a cell with one candidate as solved: two such
     * cells of one digit in a house (a grid with no solution) read back as
     * a conflict. A cell with no candidate left (givens that leave a cell
     * nothing: parsed, to be told no-solution by the solver) has no
     * pencilmark form at all. Anything else must read back. */
    bool dead = false;
    for (int c = 0; c < 81; c++) dead |= !g->value[c] && !g->cand[c];
    sdk_format_pencilmarks(g, text, sizeof text);
    if (sdk_parse(text, &back, &err))
        same_values(g, &back, false, text);
    else
        check(dead || !strcmp(err.code, SDK_E_CONFLICT), "the pencilmark grid does not parse",
              text);
    sdk_format_cands729(g, text);
    if (sdk_parse(text, &back, &err))
        same_values(g, &back, false, text);
    else
        check(!strcmp(err.code, SDK_E_CONFLICT), "the 729-character grid does not parse", text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 1 << 16) return 0; /* more than any puzzle: nothing new to learn */
    char *text = malloc(size + 1);
    if (!text) return 0;
    memcpy(text, data, size);
    text[size] = 0;
    sdk_grid g;
    sdk_error err;
    if (sdk_parse(text, &g, &err)) round_trips(&g);

    FILE *f = fmemopen(text, size ? size : 1, "r");
    if (f) {
        sdk_reader r;
        sdk_reader_init(&r, f);
        const char *puzzle;
        long line;
        while (sdk_reader_next(&r, &puzzle, &line) == 1)
            if (sdk_parse(puzzle, &g, &err)) round_trips(&g);
        sdk_reader_free(&r);
        fclose(f);
    }
    free(text);
    return 0;
}
