/* test_format.c - puzzle formats: every reader, every writer, precise errors. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "testutil.h"

static const char *seed =
    "..76.......3.45..2......59........4..41.2....3....9...5..7.49...8.9...7...4..2.8.";

static void line81_and_trailing_text(void **state)
{
    (void)state;
    sdk_grid g;
    sdk_error e;
    char buf[128];
    snprintf(buf, sizeof buf, "%s  ER=2.8 comment", seed);
    assert_true(sdk_parse(buf, &g, &e));
    char out[82];
    assert_string_equal(sdk_format_line(&g, out), seed);
    assert_int_equal(g.value[2], 7);
    assert_true(g.given[2]);
    assert_false(sdk_grid_has(&g, 0, 7)); /* removed by the peer r1c3 */
    /* '0' for empty is the same puzzle. */
    char zeros[82];
    for (int i = 0; i < 81; i++) zeros[i] = seed[i] == '.' ? '0' : seed[i];
    zeros[81] = 0;
    sdk_grid h;
    assert_true(sdk_parse(zeros, &h, &e));
    assert_memory_equal(g.cand, h.cand, sizeof g.cand);
}

/* sdk_line81_values, 16 cells at a time, against the rule cell by cell:
 * every byte value in every position (the first, inside each vector, the
 * 81st that is read alone). */
static void line81_values_every_byte(void **state)
{
    (void)state;
    char line[82];
    uint8_t v[81];
    memcpy(line, seed, 82);
    assert_true(sdk_line81_values(line, v));
    for (int i = 0; i < 81; i++) assert_int_equal(v[i], seed[i] == '.' ? 0 : seed[i] - '0');
    static const int at[] = {0, 1, 15, 16, 17, 47, 63, 64, 79, 80};
    for (size_t k = 0; k < sizeof at / sizeof *at; k++)
        for (int b = 0; b < 256; b++) {
            memcpy(line, seed, 82);
            line[at[k]] = (char)b;
            bool ok = (b >= '0' && b <= '9') || b == '.';
            assert_int_equal(sdk_line81_values(line, v), ok);
            if (ok) assert_int_equal(v[at[k]], b == '.' ? 0 : b - '0');
        }
}

static void errors_are_precise(void **state)
{
    (void)state;
    sdk_grid g;
    sdk_error e;
    char buf[128];
    snprintf(buf, sizeof buf, "%s", seed);
    buf[80] = 0;
    assert_false(sdk_parse(buf, &g, &e));
    assert_string_equal(e.code, SDK_E_FORMAT);
    assert_string_equal(e.msg, "80 cells, expected 81");
    snprintf(buf, sizeof buf, "%s", seed);
    buf[33] = 'x'; /* r4c7 */
    assert_false(sdk_parse(buf, &g, &e));
    assert_string_equal(e.msg, "r4c7: unexpected character 'x'");
    snprintf(buf, sizeof buf, "%s", seed);
    buf[15] = '5'; /* r2c7: 5 already at r2c6 */
    assert_false(sdk_parse(buf, &g, &e));
    assert_string_equal(e.code, SDK_E_CONFLICT);
    assert_string_equal(e.msg, "digit 5 twice in row 2 (r2c6, r2c7)");
    assert_false(sdk_parse("", &g, &e));
    assert_string_equal(e.msg, "empty puzzle");
}

static void printed_grid_round_trip(void **state)
{
    (void)state;
    sdk_grid g, h;
    sdk_error e;
    char text[2048];
    assert_true(sdk_parse(seed, &g, &e));
    sdk_format_printed(&g, text, sizeof text);
    assert_non_null(strstr(text, "------+-------+------"));
    assert_true(sdk_parse(text, &h, &e));
    assert_memory_equal(g.value, h.value, 81);
    /* A compact printed form with pipes and no spaces. */
    const char *compact =
        "..7|6..|...\n..3|.45|..2\n...|...|59.\n---+---+---\n...|...|.4.\n"
        ".41|.2.|...\n3..|..9|...\n---+---+---\n5..|7.4|9..\n.8.|9..|.7.\n..4|..2|.8.\n";
    assert_true(sdk_parse(compact, &h, &e));
    assert_memory_equal(g.value, h.value, 81);
    /* A row with 8 cells. */
    char bad[256];
    snprintf(bad, sizeof bad,
             "..7|6..|..\n..3|.45|..2\n...|...|59.\n...|...|.4.\n.41|.2.|...\n"
             "3..|..9|...\n5..|7.4|9..\n.8.|9..|.7.\n..4|..2|.8.\n");
    assert_false(sdk_parse(bad, &h, &e));
    assert_string_equal(e.msg, "row 1 (line 1): 8 cells, expected 9");
}

static void candidate_grids_round_trip(void **state)
{
    (void)state;
    sdk_grid g, h;
    sdk_error e;
    assert_true(sdk_parse(seed, &g, &e));
    sdk_grid_eliminate(&g, 0, 1); /* a pencilmark not implied by the givens */
    char c729[730], pm[4096];
    sdk_format_cands729(&g, c729);
    assert_int_equal(strlen(c729), 729);
    assert_true(sdk_parse(c729, &h, &e));
    for (int c = 0; c < 81; c++) {
        unsigned a = g.value[c] ? sdk_digit_bit(g.value[c]) : g.cand[c];
        unsigned b = h.value[c] ? sdk_digit_bit(h.value[c]) : h.cand[c];
        assert_int_equal(a, b);
    }
    sdk_format_pencilmarks(&g, pm, sizeof pm);
    assert_true(sdk_parse(pm, &h, &e));
    assert_memory_equal(g.cand, h.cand, sizeof g.cand);
    assert_memory_equal(g.value, h.value, 81);
    /* A cell with no candidate is refused, naming the cell. */
    c729[9 * 10 + 0] = '.';
    memset(c729 + 90, '.', 9); /* r2c2 */
    assert_false(sdk_parse(c729, &h, &e));
    assert_string_equal(e.msg, "r2c2 has no candidate");
}

static void reader_splits_streams(void **state)
{
    (void)state;
    char text[4096];
    sdk_grid g;
    sdk_error e;
    assert_true(sdk_parse(seed, &g, &e));
    char printed[1024];
    sdk_format_printed(&g, printed, sizeof printed);
    snprintf(text, sizeof text, "# a comment\n%s\n\n%s\n%s 3.4\n", seed, printed, seed);
    FILE *f = fmemopen(text, strlen(text), "r");
    sdk_reader r;
    sdk_reader_init(&r, f);
    const char *p;
    long line;
    int n = 0;
    long lines[3];
    while (sdk_reader_next(&r, &p, &line) == 1) {
        sdk_grid h;
        assert_true(sdk_parse(p, &h, &e));
        assert_memory_equal(g.value, h.value, 81);
        lines[n++] = line;
    }
    assert_int_equal(n, 3);
    assert_int_equal(lines[0], 2);
    assert_int_equal(lines[1], 4);
    assert_int_equal(lines[2], 16);
    sdk_reader_free(&r);
    fclose(f);
}

static void reader_reports_a_bad_line_alone(void **state)
{
    (void)state;
    char text[512];
    snprintf(text, sizeof text, "12345\n%s\n%s\n", seed, seed);
    FILE *f = fmemopen(text, strlen(text), "r");
    sdk_reader r;
    sdk_reader_init(&r, f);
    const char *p;
    long line;
    sdk_grid g;
    sdk_error e;
    assert_int_equal(sdk_reader_next(&r, &p, &line), 1);
    assert_false(sdk_parse(p, &g, &e));
    assert_string_equal(e.msg, "5 cells, expected 81");
    assert_int_equal(sdk_reader_next(&r, &p, &line), 1);
    assert_int_equal(line, 2);
    assert_true(sdk_parse(p, &g, &e));
    assert_int_equal(sdk_reader_next(&r, &p, &line), 1);
    assert_int_equal(line, 3);
    assert_int_equal(sdk_reader_next(&r, &p, &line), 0);
    sdk_reader_free(&r);
    fclose(f);
}

/* A regular file is read in blocks (split into lines in place), a memory
 * stream line by line with getline: both give the same puzzles at the same
 * lines, across block boundaries, CRLF, grids, a line longer than a block, a
 * NUL byte and a last line without its newline. */
static void reader_blocks_match_lines(void **state)
{
    (void)state;
    sdk_grid g;
    sdk_error e;
    assert_true(sdk_parse(seed, &g, &e));
    char printed[1024];
    sdk_format_printed(&g, printed, sizeof printed);
    size_t cap = (size_t)4 << 20, len = 0;
    char *text = malloc(cap);
    assert_non_null(text);
    for (int i = 0; i < 6000; i++) {
        const char *eol = i % 7 == 3 ? "\r\n" : "\n";
        if (i % 997 == 5) len += (size_t)snprintf(text + len, cap - len, "%s", printed);
        if (i % 1499 == 7) { /* a short grid: the next line starts the next puzzle */
            len += (size_t)snprintf(text + len, cap - len, "1 2 3 4 5 6 7 8 9\n");
            len += (size_t)snprintf(text + len, cap - len, "# note\n");
        }
        if (i == 4000) {
            memset(text + len, 'x', 300000);
            len += 300000;
            text[len++] = '\n';
            memcpy(text + len, "ab\0cd\n", 6);
            len += 6;
        }
        len += (size_t)snprintf(text + len, cap - len, "%s%s", i % 11 ? seed : "12345", eol);
    }
    len += (size_t)snprintf(text + len, cap - len, "%s", seed); /* no newline */
    FILE *mem = fmemopen(text, len, "r"), *file = tmpfile();
    assert_non_null(mem);
    assert_non_null(file);
    assert_int_equal(fwrite(text, 1, len, file), len);
    rewind(file);
    sdk_reader a, b;
    sdk_reader_init(&a, mem);
    sdk_reader_init(&b, file);
    assert_false(a.blocks);
    assert_true(b.blocks);
    int n = 0;
    for (;;) {
        const char *pa, *pb;
        long la = -1, lb = -1;
        int ra = sdk_reader_next(&a, &pa, &la), rb = sdk_reader_next(&b, &pb, &lb);
        assert_int_equal(ra, rb);
        if (ra != 1) break;
        assert_int_equal(la, lb);
        assert_string_equal(pa, pb);
        assert_int_equal(a.len, strlen(pa));
        assert_int_equal(b.len, strlen(pb));
        n++;
    }
    assert_true(n > 6000);
    sdk_reader_free(&a);
    sdk_reader_free(&b);
    fclose(mem);
    fclose(file);
    free(text);
}

static void star_and_underscore_are_blanks(void **state)
{
    (void)state;
    sdk_grid g, h;
    sdk_error e;
    char buf[82];
    int k = 0;
    for (int i = 0; i < 81; i++) buf[i] = seed[i] == '.' ? (k++ % 2 ? '*' : '_') : seed[i];
    buf[81] = 0;
    assert_true(sdk_parse(seed, &g, &e));
    assert_true(sdk_parse(buf, &h, &e));
    assert_memory_equal(g.value, h.value, 81);
    assert_memory_equal(g.cand, h.cand, sizeof g.cand);
    buf[3] = '#'; /* r1c4 */
    assert_false(sdk_parse(buf, &h, &e));
    assert_string_equal(e.code, SDK_E_FORMAT);
    assert_string_equal(e.msg, "r1c4: unexpected character '#'");
}

/* A line of HoDoKu's reglib: givens, placed digits ('+'), removed candidates. */
static const char *library =
    ":0002:1:74..+2+9..6+3+9.8..2..+28.3+7.+945.+2..651......+9+3.+2...328....63...7.9+2.+79+6.2..."
    "5+1+2+9+3+8+764:118 123 125 126 185::175:";

static void hodoku_library_lines(void **state)
{
    (void)state;
    sdk_grid g;
    sdk_error e;
    assert_true(sdk_parse(library, &g, &e));
    assert_int_equal(g.value[0], 7);
    assert_true(g.given[0]);
    assert_int_equal(g.value[4], 2); /* +2: placed, not given */
    assert_false(g.given[4]);
    assert_false(sdk_grid_has(&g, 7, 1));  /* 118: 1 removed from r1c8 */
    assert_false(sdk_grid_has(&g, 11, 1)); /* 123 */
    sdk_grid k;                            /* without the removed field r1c8 has its 1 */
    char bare[256];
    snprintf(bare, sizeof bare, "%.*s::::", (int)(strchr(library + 8, ':') - library), library);
    assert_true(sdk_parse(bare, &k, &e));
    assert_true(sdk_grid_has(&k, 7, 1));
    /* trailing CR and blanks, and the 6-colon form, read the same */
    char buf[512];
    snprintf(buf, sizeof buf, "%s\r\n", library);
    sdk_grid h;
    assert_true(sdk_parse(buf, &h, &e));
    assert_memory_equal(g.cand, h.cand, sizeof g.cand);
    /* precise errors */
    assert_false(sdk_parse(":0000:x", &h, &e));
    assert_string_equal(e.code, SDK_E_FORMAT);
    assert_string_equal(e.msg, "library line: 2 fields after the first ':', expected the grid in "
                               "the third (:technique:digits:grid:removed:...)");
    snprintf(buf, sizeof buf, ":0000:x:%.80s:::", seed);
    assert_false(sdk_parse(buf, &h, &e));
    assert_string_equal(e.msg, "library line, grid field: 80 cells, expected 81");
    snprintf(buf, sizeof buf, ":0000:x:%s:::", seed);
    buf[8 + 12] = 'x'; /* r2c4 */
    assert_false(sdk_parse(buf, &h, &e));
    assert_string_equal(e.msg, "library line, grid field: r2c4: unexpected character 'x'");
    snprintf(buf, sizeof buf, ":0000:x:+.%s:::", seed + 1);
    assert_false(sdk_parse(buf, &h, &e));
    assert_string_equal(e.msg,
                        "library line, grid field: r1c1: '+' must be followed by a digit 1-9");
    snprintf(buf, sizeof buf, ":0000:x:%s:118 1x3:::", seed);
    assert_false(sdk_parse(buf, &h, &e));
    assert_string_equal(e.msg, "library line, removed field: '1x3' is not a candidate "
                               "(<digit><row><column>, each 1-9)");
    snprintf(buf, sizeof buf, ":0000:x:%s:113:::", seed); /* r1c3 holds 7 */
    assert_false(sdk_parse(buf, &h, &e));
    assert_string_equal(e.msg, "library line, removed field: 113: r1c3 already holds 7");
}

static void sadman_sdk_files(void **state)
{
    (void)state;
    sdk_grid g, h;
    sdk_error e;
    char rows[9][10];
    for (int r = 0; r < 9; r++) {
        memcpy(rows[r], seed + r * 9, 9);
        rows[r][9] = 0;
    }
    char grid[128] = "";
    for (int r = 0; r < 9; r++) {
        strcat(grid, rows[r]);
        strcat(grid, "\n");
    }
    char text[1024];
    /* headers, [Puzzle], then a [State] section that must not be read */
    snprintf(text, sizeof text,
             "#ARuud\n#DA test\n#LEasy\n[Puzzle]\n%s[State]\n%.81s\n[PencilMarks]\n1 2 3\n", grid,
             "123456789123456789123456789123456789123456789123456789123456789123456789123456789");
    assert_true(sdk_parse(seed, &g, &e));
    assert_true(sdk_parse(text, &h, &e));
    assert_memory_equal(g.value, h.value, 81);
    /* the bare form: headers and 9 rows */
    snprintf(text, sizeof text, "#ARuud\n%s", grid);
    assert_true(sdk_parse(text, &h, &e));
    assert_memory_equal(g.value, h.value, 81);
    assert_false(sdk_parse("[State]\n123456789\n", &h, &e));
    assert_string_equal(e.msg, "section [State] but no [Puzzle] section (SadMan .sdk)");
    /* a stream of two .sdk files, the first with a [State] section */
    snprintf(text, sizeof text, "#AOne\n[Puzzle]\n%s[State]\n%s#ATwo\n#B2006\n%s", grid, grid,
             grid);
    FILE *f = fmemopen(text, strlen(text), "r");
    sdk_reader r;
    sdk_reader_init(&r, f);
    const char *p;
    long line, lines[4];
    int n = 0;
    while (sdk_reader_next(&r, &p, &line) == 1) {
        assert_true(n < 4);
        assert_true(sdk_parse(p, &h, &e));
        assert_memory_equal(g.value, h.value, 81);
        lines[n++] = line;
    }
    assert_int_equal(n, 2);
    assert_int_equal(lines[0], 3);
    assert_int_equal(lines[1], 24);
    sdk_reader_free(&r);
    fclose(f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(line81_and_trailing_text),
        cmocka_unit_test(line81_values_every_byte),
        cmocka_unit_test(errors_are_precise),
        cmocka_unit_test(printed_grid_round_trip),
        cmocka_unit_test(candidate_grids_round_trip),
        cmocka_unit_test(reader_splits_streams),
        cmocka_unit_test(reader_reports_a_bad_line_alone),
        cmocka_unit_test(reader_blocks_match_lines),
        cmocka_unit_test(star_and_underscore_are_blanks),
        cmocka_unit_test(hodoku_library_lines),
        cmocka_unit_test(sadman_sdk_files),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
