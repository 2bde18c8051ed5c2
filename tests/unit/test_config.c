/* test_config.c - the config file and the plugin loader: a good config loads
 * in order with overrides and options; each kind of bad config or plugin is
 * refused with a precise message (file:line where there is a line). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "testutil.h"

static char conf_path[256];

static const char *build_dir(void)
{
    const char *b = getenv("SUDOKU_BUILD");
    return b ? b : "build";
}

/* Write a config whose plugin_dir is the build tree's; returns its path. */
static const char *write_conf(const char *body)
{
    snprintf(conf_path, sizeof conf_path, "/tmp/sudoku-test-conf-%d.conf", (int)getpid());
    FILE *f = fopen(conf_path, "w");
    assert_non_null(f);
    fprintf(f, "[sudokud]\nplugin_dir = %s/lib/sudokud/plugins\n%s", build_dir(), body);
    fclose(f);
    return conf_path;
}

static void expect_error(const char *body, const char *needle)
{
    sdk_config cfg;
    sdk_error err;
    bool ok = sdk_config_load(write_conf(body), &cfg, &err);
    if (ok) sdk_config_free(&cfg);
    assert_false(ok);
    if (!strstr(err.msg, needle)) fail_msg("error '%s' does not say '%s'", err.msg, needle);
    unlink(conf_path);
}

static void good_config_keeps_order_and_options(void **state)
{
    (void)state;
    sdk_config cfg;
    sdk_error err;
    const char *p = write_conf("workers = 3\n\n[profile default]\nnaked-single =\n"
                               "hidden-single-box = difficulty=1.7 foo=bar flag\n"
                               "; a comment\n[profile other]\nfull-house =\n");
    assert_true(sdk_config_load(p, &cfg, &err));
    assert_int_equal(cfg.workers, 3);
    const sdk_profile *d = sdk_config_profile(&cfg, NULL);
    assert_non_null(d);
    assert_int_equal(d->n, 2);
    assert_string_equal(d->entry[0].tech->id, "naked-single");
    assert_string_equal(d->entry[1].tech->id, "hidden-single-box");
    assert_int_equal(d->entry[1].difficulty, 17);
    assert_int_equal(d->entry[1].opts->n, 2);
    assert_string_equal(d->entry[1].opts->kv[0].key, "foo");
    assert_string_equal(d->entry[1].opts->kv[0].val, "bar");
    assert_non_null(strstr(d->entry[1].source, "singles.so"));
    assert_int_equal(d->scan, SDK_SCAN_DEFAULT); /* step */
    assert_int_equal(d->entry[0].scan, SDK_SCAN_DEFAULT);
    assert_non_null(sdk_config_profile(&cfg, "other"));
    assert_null(sdk_config_profile(&cfg, "nope"));
    sdk_config_free(&cfg);
    /* scan: a profile line (not a technique), and an entry option */
    p = write_conf("[profile default]\nnaked-single = scan=step\nscan = grid\npointing =\n"
                   "[profile other]\nscan = step\nfull-house = scan=grid\n");
    assert_true(sdk_config_load(p, &cfg, &err));
    d = sdk_config_profile(&cfg, NULL);
    assert_int_equal(d->n, 2);
    assert_int_equal(d->scan, SDK_SCAN_GRID);
    assert_int_equal(d->entry[0].scan, SDK_SCAN_STEP);
    assert_int_equal(d->entry[1].scan, SDK_SCAN_DEFAULT);
    const sdk_profile *o = sdk_config_profile(&cfg, "other");
    assert_int_equal(o->scan, SDK_SCAN_STEP);
    assert_int_equal(o->entry[0].scan, SDK_SCAN_GRID);
    sdk_config_free(&cfg);
    unlink(p);
}

static void refusals_are_precise(void **state)
{
    (void)state;
    char body[1024];
    expect_error("[profile default]\nfull-house =\nno-such-technique =\n",
                 ":5: technique 'no-such-technique' is in no loaded plugin");
    expect_error("[profile default]\nfull-house =\nfull-house =\n",
                 ":5: technique 'full-house' named twice in profile default");
    expect_error("[profile default]\nfull-house = difficulty=high\n",
                 ":4: difficulty must look like 3.2, got 'high'");
    expect_error("[profile default]\nfull-house = difficulty=99999999999\n",
                 ":4: difficulty must look like 3.2, got '99999999999'");
    expect_error("this line has no equals sign\n", ":3: expected 'key = value'");
    expect_error("[profile default\n", ":3: section header without closing ']'");
    expect_error("workers = many\n", ":3: workers must be a whole number");
    expect_error("colour = blue\n", ":3: unknown key 'colour' in [sudokud]");
    expect_error("uniqueness = maybe\n", ":3: uniqueness must be on or off, got 'maybe'");
    expect_error("[profile default]\nscan = all\n", ":4: scan must be step or grid, got 'all'");
    expect_error("[profile default]\nfull-house = scan=row\n",
                 ":4: scan must be step or grid, got 'row'");
    expect_error("[profile default]\nfull-house = pick=bets\n",
                 ":4: pick must be first, best, easiest, digit, tabling, ns-queue or hs-queue, "
                 "got 'bets'");
    expect_error("[profile other]\nfull-house =\n", "default profile 'default' is not defined");
    expect_error("[elsewhere]\nx = 1\n", ":4: unknown section [elsewhere]");
    snprintf(body, sizeof body,
             "plugin = %s/lib/sudokud/plugins/singles.so\n[profile default]\nfull-house =\n",
             build_dir());
    expect_error(body, "duplicate technique id 'full-house'");
    snprintf(body, sizeof body,
             "plugin = %s/test-plugins/bad_abi.so\n[profile default]\nfull-house =\n", build_dir());
    expect_error(body, "technique #1 was built for plugin ABI 4, this sudokud loads ABI 3 only: "
                       "rebuild the plugin against this SDK (docs/PLUGINS.md)");
    /* a plugin built for ABI 1 (before size, data and ctx->self): refused,
     * the message names the file, its ABI and ours */
    snprintf(body, sizeof body,
             "plugin = %s/test-plugins/v1_plugin.so\n[profile default]\nfull-house =\n",
             build_dir());
    char want[700];
    snprintf(want, sizeof want,
             "%s/test-plugins/v1_plugin.so: technique #1 was built for plugin ABI 1, this "
             "sudokud loads ABI 3 only",
             build_dir());
    expect_error(body, want);
    snprintf(body, sizeof body,
             "plugin = %s/test-plugins/small_size.so\n[profile default]\nfull-house =\n",
             build_dir());
    snprintf(want, sizeof want,
             "small_size.so: technique #1 has a descriptor of %zu bytes, ABI 3 needs %zu",
             offsetof(sdk_technique, data), sizeof(sdk_technique));
    expect_error(body, want);
    snprintf(body, sizeof body,
             "plugin = %s/test-plugins/no_symbol.so\n[profile default]\nfull-house =\n",
             build_dir());
    expect_error(body, "no symbol 'sudoku_techniques'");
    expect_error("plugin = /nonexistent/x.so\n", ":3: /nonexistent/x.so: cannot load");
    sdk_config cfg;
    sdk_error err;
    assert_false(sdk_config_load("/nonexistent.conf", &cfg, &err));
    assert_string_equal(err.msg, "/nonexistent.conf: cannot read: No such file or directory");
}

static void uniqueness_switch(void **state)
{
    (void)state;
    sdk_config cfg;
    sdk_error err;
    const char *p = write_conf("uniqueness = off\n[profile default]\nfull-house =\n");
    assert_true(sdk_config_load(p, &cfg, &err));
    assert_true(sdk_config_profile(&cfg, NULL)->no_uniqueness);
    sdk_config_free(&cfg);
    p = write_conf("[profile default]\nfull-house =\n");
    assert_true(sdk_config_load(p, &cfg, &err));
    assert_false(sdk_config_profile(&cfg, NULL)->no_uniqueness);
    sdk_config_free(&cfg);
    unlink(p);
}

/* Lines are read whole: a long comment stays a comment, a padded value does
 * not hide a second key, errors name the right line; a line over the limit
 * is an error. Numeric keys are checked against their ranges. */
static void whole_lines_and_ranges(void **state)
{
    (void)state;
    size_t big = 3000;
    char *body = malloc(SDK_CONFIG_LINE_MAX + 512);
    assert_non_null(body);
    /* a 3000-byte comment line ending in what looks like a key */
    int k = sprintf(body, "; ");
    memset(body + k, 'c', big), k += (int)big;
    sprintf(body + k, " workers = 7\nworkers = 2\n[profile default]\nfull-house =\n");
    sdk_config cfg;
    sdk_error err;
    const char *p = write_conf(body);
    assert_true(sdk_config_load(p, &cfg, &err));
    assert_int_equal(cfg.workers, 2);
    sdk_config_free(&cfg);
    /* a padded value: the second key on the line is part of the value */
    k = sprintf(body, "workers = 2");
    memset(body + k, ' ', 1500), k += 1500;
    sprintf(body + k, "deadline_ms = 5\n");
    expect_error(body, ":3: value longer than 511 bytes");
    sprintf(body, "workers = 2      deadline_ms = 5\n");
    expect_error(body, ":3: workers must be a whole number");
    /* the right line after a long one */
    k = sprintf(body, "; ");
    memset(body + k, 'c', big), k += (int)big;
    sprintf(body + k, "\ncolour = blue\n");
    expect_error(body, ":4: unknown key 'colour'");
    /* a line over the limit */
    memset(body, 'c', SDK_CONFIG_LINE_MAX + 10);
    body[0] = ';';
    sprintf(body + SDK_CONFIG_LINE_MAX + 10, "\n");
    expect_error(body, ":3: line longer than 4096 bytes");
    free(body);
    /* ranges, with the range in the message */
    char want[160];
    snprintf(want, sizeof want, ":3: workers must be a whole number from 0 to %d",
             sdk_config_max_workers());
    expect_error("workers = 100000\n", want);
    expect_error("max_message = 1\n", ":3: max_message must be a whole number from 4096 to");
    expect_error("deadline_ms = 0\n", ":3: deadline_ms must be a whole number from 10 to");
    expect_error("read_timeout_ms = -5\n", "read_timeout_ms must be a whole number");
    expect_error("worker_memory = 1K\n", "worker_memory must be a whole number from 0 or");
    expect_error("max_connections = 4\nmax_connections_per_uid = 5\n",
                 "max_connections_per_uid (5) is more than max_connections (4)");
    p = write_conf("max_message = 64K\nworker_memory = 0\nidle_timeout_ms = 0\n"
                   "[profile default]\nfull-house =\n");
    assert_true(sdk_config_load(p, &cfg, &err));
    assert_int_equal(cfg.max_message, 65536);
    assert_true(cfg.worker_memory == 0 && cfg.idle_timeout_ms == 0);
    assert_int_equal(cfg.max_connections_per_uid, 128); /* half of max_connections */
    sdk_config_free(&cfg);
    /* settings alone: no plugin loaded, so a profile naming an unknown
     * technique is not seen, but a bad number is */
    /* idle_exit: a duration, off or from 1 s to 7 days */
    expect_error("idle_exit = 200ms\n", ":3: idle_exit must be off or from 1s to 7 days");
    expect_error("idle_exit = 8d\n", ":3: idle_exit must be a duration");
    expect_error("idle_exit = 200h\n", ":3: idle_exit must be off or from 1s to 7 days");
    p = write_conf("idle_exit = 10m\n");
    assert_true(sdk_config_read_settings(p, "/etc/x.conf", &cfg, &err));
    assert_true(cfg.idle_exit_ms == 600000);
    p = write_conf("idle_exit = off\n");
    assert_true(sdk_config_read_settings(p, "/etc/x.conf", &cfg, &err));
    assert_true(cfg.idle_exit_ms == 0);
    p = write_conf("workers = 2\n");
    assert_true(sdk_config_read_settings(p, "/etc/x.conf", &cfg, &err));
    assert_true(cfg.idle_exit_ms == -1); /* not set */
    p = write_conf("workers = 1\n[profile default]\nno-such-technique =\n");
    assert_true(sdk_config_read_settings(p, "/etc/x.conf", &cfg, &err));
    assert_int_equal(cfg.workers, 1);
    assert_int_equal(cfg.nplugin, 0);
    p = write_conf("workers = lots\n");
    assert_false(sdk_config_read_settings(p, "/etc/x.conf", &cfg, &err));
    assert_non_null(strstr(err.msg, "/etc/x.conf:3: workers must be"));
    unlink(p);
}

static void shipped_config_loads(void **state)
{
    (void)state;
    sdk_config cfg;
    tu_load_config(&cfg);
    assert_non_null(sdk_config_profile(&cfg, "default"));
    assert_non_null(sdk_config_profile(&cfg, "sudokilo"));
    assert_non_null(sdk_config_profile(&cfg, "singles"));
    sdk_config_free(&cfg);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(good_config_keeps_order_and_options),
        cmocka_unit_test(refusals_are_precise),
        cmocka_unit_test(uniqueness_switch),
        cmocka_unit_test(whole_lines_and_ranges),
        cmocka_unit_test(shipped_config_loads),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
