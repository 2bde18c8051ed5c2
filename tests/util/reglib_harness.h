/* reglib_harness.h - HoDoKu's regression library (reglib-1.4.txt) run the
 * strict way, shared by the per-family unit tests.
 *
 * A line is parsed as /work/shared/reglib/FORMAT.md §1-3 says (fields, the
 * position with givens, placed digits and removed candidates, the expected
 * eliminations and placements). The technique mapped to its code is asked for
 * ALL its steps, and the line passes as §6 says: at least one step "matches"
 * (its HoDoKu digits field, computed by the test's digits function, equals the
 * line's), and every matching step makes exactly the line's eliminations and
 * placements; a fail case (-x) passes when no step matches. Pass counts are
 * kept per code as written in the library; a failing line not listed as known
 * (in the spec, or by line in tests/reglib/known_failures.tsv) is counted in
 * `failures`. */
#ifndef SUDOKU_REGLIB_HARNESS_H
#define SUDOKU_REGLIB_HARNESS_H

#include "testutil.h"

/* A set of candidates: bit cell*9 + digit-1. */
typedef struct rh_cands {
    uint64_t w[12];
} rh_cands;

void rh_cands_add(rh_cands *s, int cell, int digit);
bool rh_cands_eq(const rh_cands *a, const rh_cands *b);
/* Parse a candidate list ("436 524": digit, row, column); false when
 * malformed. */
bool rh_cands_parse(const char *field, rh_cands *out);
/* The eliminations / placements of a step as a set. */
void rh_step_elims(const sdk_step *s, rh_cands *out);
void rh_step_places(const sdk_step *s, rh_cands *out);

/* One test line of the library. */
typedef struct rh_entry {
    int line;             /* line number in the file */
    char code[16];        /* as written: "0402-1", "0606-x", "03111" */
    char base[8];         /* the 4-digit technique code */
    int variant;          /* N of "-N", else 0 */
    bool fail_case;       /* "-x" */
    bool siamese;         /* a 5-digit (Siamese fish) code */
    char digits[16];      /* the digits field */
    const char *fld[7];   /* the raw fields (into the parsed line) */
    sdk_grid grid;        /* the position */
    rh_cands elim, place; /* what the instance must do */
} rh_entry;

/* Parse a library line (the buffer is modified). Returns false for blank and
 * comment lines; fails the test on a malformed test line. */
bool rh_parse(char *line, int lineno, rh_entry *e);

/* Build a position from a grid field ('.'/'0' empty, 'd' given, '+d' placed)
 * and a removed-candidates field; fails the test when malformed. */
void rh_position(const char *grid, const char *removed, sdk_grid *g);

/* HoDoKu's digits field for step s found for entry e, written to out (at
 * least 16 bytes). Returns false when HoDoKu would not write s under e's code
 * at all (the step never matches). */
typedef bool (*rh_digits_fn)(const rh_entry *e, const sdk_step *s, char *out);

/* The placed digits, else the eliminated digits (FORMAT.md §5, chains, ALS,
 * Sue de Coq, single-digit patterns, templates). */
bool rh_digits_effect(const rh_entry *e, const sdk_step *s, char *out);
/* The eliminated digits only. */
bool rh_digits_elim(const rh_entry *e, const sdk_step *s, char *out);
/* The pattern digits our text shows after ": ": "1/2/3 in ..." gives 123. */
bool rh_digits_text(const rh_entry *e, const sdk_step *s, char *out);
/* The first digit after ": " ("XY-Chain: 6 6- r1c2 ..." gives 6). */
bool rh_digits_text_first(const rh_entry *e, const sdk_step *s, char *out);
/* Always empty (BUG+1). */
bool rh_digits_none(const rh_entry *e, const sdk_step *s, char *out);

/* How a code is run. */
typedef struct rh_code {
    const char *code;   /* "0402-1": that variant; "0402": the code, its
                           variants without an entry of their own, its -x cases */
    const char *plugin; /* plugin file name without ".so" */
    const char *id;     /* technique id */
    const char *opts;   /* options text, or NULL */
    rh_digits_fn digits;
} rh_code;

/* A line we knowingly fail, with the reason. */
typedef struct rh_known {
    int line;
    const char *why;
} rh_known;

typedef struct rh_spec {
    const rh_code *map;
    int nmap;
    const rh_known *known; /* may be NULL */
    int nknown;
    /* Code prefixes whose every line must have a map entry (NULL-terminated,
     * or NULL for none): an unmapped line fails the test. */
    const char *const *require;
    bool quiet; /* do not print failing lines */
} rh_spec;

/* Pass counts of one code as written in the library, in order of appearance. */
typedef struct rh_row {
    char code[16];
    const rh_code *map;
    int total, pass, known;
    int found; /* lines where some step makes exactly the line's effect,
                  whatever its digits field */
} rh_row;

typedef struct rh_result {
    rh_row row[128];
    int nrow;
    int lines;    /* lines run */
    int failures; /* failing lines not listed as known */
} rh_result;

/* Run every mapped line of reglib-1.4.txt; fills *res. Returns res->failures. */
int rh_run(const rh_spec *spec, rh_result *res);

/* Print the rows: "  code pass total", one line a code. */
void rh_print(const rh_result *res);

/* Run the map with no known failures and print its table (rh_print);
 * returns the failures. */
int rh_run_table(const rh_code *map, int nmap);

/* Print one line a map entry: "reglib code id pass/total pass". */
void rh_print_map(const rh_spec *spec, const rh_result *res);

/* The row of a code, or NULL. Sums of the rows whose code starts with prefix. */
const rh_row *rh_row_of(const rh_result *res, const char *code);
rh_row rh_sum(const rh_result *res, const char *prefix);

/* Map entries of tests/reglib/map.tsv whose code starts with prefix (single
 * technique ids only), run with the given plugin and digits function. The
 * strings live in a static pool. Returns the count. */
int rh_map_tsv(const char *prefix, const char *plugin, rh_digits_fn digits, rh_code *out, int max);

#endif
