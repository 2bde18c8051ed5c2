/* i18n.h - sudoctl's languages: gettext catalogs (po/LANG.po compiled by msgfmt
 * into <localedir>/LANG/LC_MESSAGES/sudoctl.mo), read by i18n.c itself so that
 * a language works without its system locale installed. */
#ifndef SUDOCTL_I18N_H
#define SUDOCTL_I18N_H

#include <stdbool.h>

/* Pick the language: lang ("eo", "ja", "nl", "hi", "en") or, when NULL, the
 * environment (LANGUAGE, LC_ALL, LC_MESSAGES, LANG). False when lang names a
 * language without a catalog (English is then used). */
bool i18n_init(const char *lang);
const char *i18n_lang(void); /* "en" when no catalog is loaded */
/* Whether the loaded catalog translates msgid (an entry, not empty). */
bool i18n_has(const char *msgid);
/* The translation of msgid, or msgid itself. */
const char *i18n_gettext(const char *msgid);

#define _(s) i18n_gettext(s)
#define N_(s) s

#endif
