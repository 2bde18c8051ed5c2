/* log.c - sudokud's logging: levels, to stderr (foreground) and/or syslog. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <syslog.h>
#include <time.h>
#include <unistd.h>
#include "daemon.h"

static int g_level = LOG_INFO_;
static bool g_syslog;
static const char *g_ident = "sudokud";
static const char *const names[] = {"error", "warning", "info", "debug"};

void log_init(int level, bool use_syslog, const char *ident)
{
    g_level = level;
    g_ident = ident;
    if (use_syslog && !g_syslog) openlog(ident, LOG_PID | LOG_NDELAY, LOG_DAEMON);
    g_syslog = use_syslog;
}

int log_level_parse(const char *s)
{
    for (int i = 0; i < 4; i++)
        if (!strcmp(s, names[i])) return i;
    if (!strcmp(s, "err")) return LOG_ERR_;
    if (!strcmp(s, "warn")) return LOG_WARN_;
    return -1;
}

const char *log_level_name(int level)
{
    return level >= 0 && level < 4 ? names[level] : "info";
}
int log_level(void)
{
    return g_level;
}

void log_msg(int level, const char *fmt, ...)
{
    if (level > g_level) return;
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (g_syslog) {
        static const int prio[] = {LOG_ERR, LOG_WARNING, LOG_INFO, LOG_DEBUG};
        syslog(prio[level], "%s", msg);
    }
    if (!g_syslog || !isatty(2)) {
        char ts[32];
        time_t t = time(NULL);
        struct tm tm;
        strftime(ts, sizeof ts, "%Y-%m-%d %H:%M:%S", localtime_r(&t, &tm));
        fprintf(stderr, "%s %s[%d]: %s: %s\n", ts, g_ident, (int)getpid(), names[level], msg);
    }
}
