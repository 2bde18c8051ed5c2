/* sudoku/format.h - reading and writing puzzles.
 *
 * Read: 81-character lines (1-9, '.', '0', '*' or '_' empty; text after the 81
 * cells is ignored), printed 9-line grids (separators '|', '-', '+', spaces),
 * candidate grids as 729 characters (9 per cell, the digit when present,
 * '.'/'0' when not), the printed pencilmark grids of HoDoKu and Sudoku
 * Explainer, HoDoKu library lines (":0000:x:<grid>:<removed>:::", '+d' a
 * placed digit, removed candidates as "<digit><row><col>") and SadMan .sdk
 * files ('#X' header lines, the grid bare or in a [Puzzle] section; other
 * sections such as [State] are skipped).
 * Errors say what, where and why, in sdk_error.
 */
#ifndef SUDOKU_FORMAT_H
#define SUDOKU_FORMAT_H

#include <stdio.h>
#include "sudoku/error.h"
#include "sudoku/grid.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Parse one puzzle in any supported form (the text may span lines). Givens
 * become clues with candidates computed from peers; a candidate grid keeps its
 * candidates, and a cell with a single candidate is taken as solved (placed). The grid
 * is checked for digits twice in a house. Returns true on success. */
bool sdk_parse(const char *text, sdk_grid *g, sdk_error *err);

/* The usual batch line: true when s holds 81 cells, each a digit or '.'
 * (nothing is read past them), with their values in v ('.' and '0' are 0). */
bool sdk_line81_values(const char *s, uint8_t v[81]);

/* A puzzle reader over a stream of lines: one puzzle per line, or multi-line
 * printed grids. Blank lines and lines starting with '#' between puzzles are
 * skipped. sdk_reader_next() returns 1 with the puzzle's text (to feed to
 * sdk_parse; valid until the next call) and its first line number, 0 at end
 * of input, -1 on a read error. A regular file is read ahead in big blocks
 * (the stream's position is then past what was returned); other streams
 * (pipes, terminals) a line at a time. */
typedef struct sdk_reader {
    FILE *in;
    long line; /* lines read so far */
    char *buf; /* current puzzle text */
    size_t cap;
    char *pending; /* a line read ahead */
    size_t pcap;
    bool has_pending;
    bool skip_section; /* inside a SadMan .sdk section other than [Puzzle] */
    /* A regular file is read in blocks and split into lines in place (no
     * getline per line): block holds [pos, end) still unread. */
    bool blocks;
    size_t len;         /* strlen of the text last returned */
    char *block, *held; /* held: the line read ahead (into block or pending) */
    size_t block_cap, pos, end;
} sdk_reader;

void sdk_reader_init(sdk_reader *r, FILE *in);
int sdk_reader_next(sdk_reader *r, const char **text, long *first_line);
void sdk_reader_free(sdk_reader *r);

/* Writers. out needs 82 / 730 bytes; the printed forms need 1024 / 4096. */
char *sdk_format_line(const sdk_grid *g, char *out);                  /* 81 chars, '.' empty */
char *sdk_format_cands729(const sdk_grid *g, char *out);              /* 729 chars */
char *sdk_format_printed(const sdk_grid *g, char *out, size_t n);     /* 9-line grid */
char *sdk_format_pencilmarks(const sdk_grid *g, char *out, size_t n); /* HoDoKu-style */

/* Build a grid from 81 values (0 empty): clues placed, candidates from peers. */
void sdk_grid_from_values(sdk_grid *g, const uint8_t values[81]);

#ifdef __cplusplus
}
#endif
#endif
