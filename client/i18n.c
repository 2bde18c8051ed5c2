/* i18n.c - read a GNU gettext catalog (.mo) and look messages up in it.
 *
 * A .mo file is: a magic number (0x950412de, in the writer's byte order), a
 * revision, the count N, the offsets of two tables of N (length, offset) pairs
 * - the original strings sorted, and their translations - and a hash table we
 * do not need: a binary search over the sorted originals finds a message.
 * Reading the file ourselves (rather than through setlocale + gettext) means
 * `--lang eo` works on a system where no Esperanto locale is installed. */
#include "i18n.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef SUDOCTL_LOCALEDIR
#define SUDOCTL_LOCALEDIR "/usr/share/locale"
#endif

static struct {
    char lang[16];
    unsigned char *data;
    size_t size;
    uint32_t n, orig, trans;
    bool swap;
} cat = {"en", NULL, 0, 0, 0, 0, false};

static uint32_t u32(size_t off)
{
    if (off + 4 > cat.size) return 0;
    uint32_t v;
    memcpy(&v, cat.data + off, 4);
    if (cat.swap) v = __builtin_bswap32(v);
    return v;
}

static bool load(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) return false;
    unsigned char *buf = NULL;
    size_t size = 0, cap = 0;
    for (;;) {
        if (size == cap) {
            cap = cap ? cap * 2 : 65536;
            if (cap > (64u << 20)) break;
            unsigned char *nb = realloc(buf, cap);
            if (!nb) break;
            buf = nb;
        }
        size_t got = fread(buf + size, 1, cap - size, f);
        if (!got) break;
        size += got;
    }
    fclose(f);
    if (size < 28) {
        free(buf);
        return false;
    }
    uint32_t magic;
    memcpy(&magic, buf, 4);
    cat.data = buf;
    cat.size = size;
    cat.swap = magic == 0xde120495u;
    if (magic != 0x950412deu && !cat.swap) goto bad;
    cat.n = u32(8);
    cat.orig = u32(12);
    cat.trans = u32(16);
    if ((uint64_t)cat.orig + 8ull * cat.n > size || (uint64_t)cat.trans + 8ull * cat.n > size)
        goto bad;
    for (uint32_t i = 0; i < cat.n; i++) /* every string inside the file, NUL-ended */
        for (int t = 0; t < 2; t++) {
            uint32_t len = u32((t ? cat.trans : cat.orig) + 8 * i);
            uint32_t off = u32((t ? cat.trans : cat.orig) + 8 * i + 4);
            if ((uint64_t)off + len >= size || cat.data[off + len]) goto bad;
        }
    return true;
bad:
    free(buf);
    memset(&cat, 0, sizeof cat);
    snprintf(cat.lang, sizeof cat.lang, "en");
    return false;
}

/* "ja_JP.UTF-8" -> "ja"; "" for C/POSIX. */
static void lang_of(const char *v, char *out, size_t n)
{
    out[0] = 0;
    if (!v || !*v || !strcmp(v, "C") || !strcmp(v, "POSIX") || !strncmp(v, "C.", 2)) return;
    size_t k = 0;
    while (v[k] && v[k] != '_' && v[k] != '.' && v[k] != '@' && v[k] != ':' && k + 1 < n) {
        out[k] = v[k];
        k++;
    }
    out[k] = 0;
}

/* <folder of this executable>/../share/locale (build and install trees),
 * else the configured locale folder. */
static bool catalog_path(const char *lang, char *path, size_t n)
{
    const char *env = getenv("SUDOCTL_LOCALEDIR");
    if (env && *env) {
        snprintf(path, n, "%s/%s/LC_MESSAGES/sudoctl.mo", env, lang);
        if (access(path, R_OK) == 0) return true;
    }
    char exe[1024];
    ssize_t l = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (l > 0) {
        exe[l] = 0;
        char *s = strrchr(exe, '/');
        if (s) {
            *s = 0;
            snprintf(path, n, "%s/../share/locale/%s/LC_MESSAGES/sudoctl.mo", exe, lang);
            if (access(path, R_OK) == 0) return true;
        }
    }
    snprintf(path, n, "%s/%s/LC_MESSAGES/sudoctl.mo", SUDOCTL_LOCALEDIR, lang);
    return access(path, R_OK) == 0;
}

bool i18n_init(const char *lang)
{
    free(cat.data); /* a language chosen again: start from English */
    memset(&cat, 0, sizeof cat);
    snprintf(cat.lang, sizeof cat.lang, "en");
    char want[16] = "";
    if (lang) {
        lang_of(lang, want, sizeof want);
    } else {
        /* LANGUAGE may list several: take the first with a catalog */
        const char *vars[] = {"LC_ALL", "LC_MESSAGES", "LANG"};
        const char *language = getenv("LANGUAGE");
        const char *locale = NULL;
        for (int i = 0; i < 3 && !locale; i++) {
            const char *v = getenv(vars[i]);
            if (v && *v) locale = v;
        }
        char loc[16];
        lang_of(locale, loc, sizeof loc);
        if (language && *language && loc[0]) {
            char path[1200];
            for (const char *p = language; *p;) {
                char one[16];
                lang_of(p, one, sizeof one);
                if (!strcmp(one, "en")) return true;
                if (one[0] && catalog_path(one, path, sizeof path) && load(path)) {
                    snprintf(cat.lang, sizeof cat.lang, "%s", one);
                    return true;
                }
                const char *c = strchr(p, ':');
                if (!c) break;
                p = c + 1;
            }
        }
        snprintf(want, sizeof want, "%s", loc);
    }
    if (!want[0] || !strcmp(want, "en")) return true;
    char path[1200];
    if (!catalog_path(want, path, sizeof path) || !load(path)) return lang == NULL;
    snprintf(cat.lang, sizeof cat.lang, "%s", want);
    return true;
}

const char *i18n_lang(void)
{
    return cat.lang;
}

/* The translation's length of msgid in the catalog, -1 when absent. */
static long lookup_len(const char *msgid)
{
    uint32_t lo = 0, hi = cat.n;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        int c = strcmp(msgid, (const char *)cat.data + u32(cat.orig + 8 * mid + 4));
        if (!c) return (long)u32(cat.trans + 8 * mid);
        if (c < 0)
            hi = mid;
        else
            lo = mid + 1;
    }
    return -1;
}

bool i18n_has(const char *msgid)
{
    return cat.data && msgid && *msgid && lookup_len(msgid) > 0;
}

const char *i18n_gettext(const char *msgid)
{
    if (!cat.data || !msgid || !*msgid) return msgid;
    uint32_t lo = 0, hi = cat.n;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        const char *o = (const char *)cat.data + u32(cat.orig + 8 * mid + 4);
        int c = strcmp(msgid, o);
        if (!c) {
            uint32_t len = u32(cat.trans + 8 * mid);
            const char *t = (const char *)cat.data + u32(cat.trans + 8 * mid + 4);
            return len ? t : msgid;
        }
        if (c < 0)
            hi = mid;
        else
            lo = mid + 1;
    }
    return msgid;
}
