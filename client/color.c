/* color.c - sudoctl's colour decision and ANSI helpers (see color.h). */
#include "color.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static bool g_on;

static const char *const sgr[STYLE_COUNT] = {
    [STYLE_NONE] = "",         [STYLE_BOLD] = "\033[1m",     [STYLE_DIM] = "\033[2m",
    [STYLE_RED] = "\033[31m",  [STYLE_GREEN] = "\033[32m",   [STYLE_YELLOW] = "\033[33m",
    [STYLE_BLUE] = "\033[34m", [STYLE_MAGENTA] = "\033[35m", [STYLE_CYAN] = "\033[36m",
};

bool color_parse(const char *s, color_when *out)
{
    static const struct {
        const char *name;
        color_when when;
    } names[] = {
        {"auto", COLOR_AUTO},     {"tty", COLOR_AUTO},   {"if-tty", COLOR_AUTO},
        {"always", COLOR_ALWAYS}, {"yes", COLOR_ALWAYS}, {"force", COLOR_ALWAYS},
        {"never", COLOR_NEVER},   {"no", COLOR_NEVER},   {"none", COLOR_NEVER},
    };
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
        if (!strcmp(s, names[i].name)) {
            *out = names[i].when;
            return true;
        }
    return false;
}

bool color_setup(color_when when, int fd)
{
    if (when == COLOR_ALWAYS)
        g_on = true;
    else if (when == COLOR_NEVER)
        g_on = false;
    else {
        const char *nc = getenv("NO_COLOR"), *term = getenv("TERM");
        g_on = !(nc && *nc) && isatty(fd) && !(term && !strcmp(term, "dumb"));
    }
    return g_on;
}

bool color_on(void)
{
    return g_on;
}

const char *color_start(color_style s)
{
    return g_on && s > STYLE_NONE && s < STYLE_COUNT ? sgr[s] : "";
}

const char *color_reset(void)
{
    return g_on ? "\033[0m" : "";
}

void color_fwrite(FILE *f, color_style s, const char *text, size_t n)
{
    bool styled = g_on && s > STYLE_NONE && s < STYLE_COUNT;
    if (styled) fputs(sgr[s], f);
    fwrite(text, 1, n, f);
    if (styled) fputs("\033[0m", f);
}

void color_fputs(FILE *f, color_style s, const char *text)
{
    color_fwrite(f, s, text, strlen(text));
}

void color_fprintf(FILE *f, color_style s, const char *fmt, ...)
{
    bool styled = g_on && s > STYLE_NONE && s < STYLE_COUNT;
    if (styled) fputs(sgr[s], f);
    va_list ap;
    va_start(ap, fmt);
    vfprintf(f, fmt, ap);
    va_end(ap);
    if (styled) fputs("\033[0m", f);
}
