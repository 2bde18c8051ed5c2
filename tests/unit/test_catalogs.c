/* test_catalogs.c - every technique sudokud loads has its name translated in
 * every language catalog sudoctl ships (po/LANG.po, compiled by the build into
 * build/share/locale), and so have the rating's level names; read through
 * sudoctl's own catalog reader (client/i18n.c). The messages written in
 * sudoctl's sources are checked against the catalogs by
 * tests/integration/test_i18n.py (xgettext + msgcmp). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <cmocka.h>

#include "i18n.h"
#include "sudoku/engine.h"
#include "sudoku/host.h"
#include "sudoku/technique.h"

static const char *const langs[] = {"eo", "ja", "nl", "hi"};

static void test_names_translated(void **state)
{
    (void)state;
    const char *conf = getenv("SUDOKU_CONF");
    const char *build = getenv("SUDOKU_BUILD");
    assert_non_null(conf);
    assert_non_null(build);
    char dir[1024];
    snprintf(dir, sizeof dir, "%s/share/locale", build);
    setenv("SUDOCTL_LOCALEDIR", dir, 1);
    sdk_config cfg;
    sdk_error err;
    if (!sdk_config_load(conf, &cfg, &err)) fail_msg("config: %s", err.msg);
    int ntech = 0;
    for (int i = 0; i < cfg.nplugin; i++)
        for (int k = 0; cfg.plugin[i].list[k]; k++) ntech++;
    assert_true(ntech >= 100);
    for (size_t l = 0; l < sizeof langs / sizeof *langs; l++) {
        assert_true(i18n_init(langs[l]));
        assert_string_equal(i18n_lang(), langs[l]);
        int missing = 0;
        for (int i = 0; i < cfg.nplugin; i++)
            for (int k = 0; cfg.plugin[i].list[k]; k++) {
                const char *name = cfg.plugin[i].list[k]->name;
                if (!i18n_has(name)) {
                    print_error("%s: no translation of technique name '%s'\n", langs[l], name);
                    missing++;
                }
            }
        for (int lv = 0; lv <= SDK_LEVEL_EXTREME; lv++)
            if (!i18n_has(sdk_level_name(lv))) {
                print_error("%s: no translation of level '%s'\n", langs[l], sdk_level_name(lv));
                missing++;
            }
        assert_int_equal(missing, 0);
    }
    sdk_config_free(&cfg);
}

static void test_unknown_language(void **state)
{
    (void)state;
    assert_false(i18n_init("xx"));
    assert_string_equal(i18n_lang(), "en");
    assert_string_equal(i18n_gettext("Naked Single"), "Naked Single");
    assert_true(i18n_init("en"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_names_translated),
        cmocka_unit_test(test_unknown_language),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
