/* test_format.c - puzzle formats: every reader, every writer, precise errors. */
#include <stdio.h>
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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(line81_and_trailing_text),
        cmocka_unit_test(errors_are_precise),
        cmocka_unit_test(printed_grid_round_trip),
        cmocka_unit_test(candidate_grids_round_trip),
        cmocka_unit_test(reader_splits_streams),
        cmocka_unit_test(reader_reports_a_bad_line_alone),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
