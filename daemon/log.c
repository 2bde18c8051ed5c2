/* log.c - sudokud's logging: levels, to stderr (foreground) and/or syslog.
 *
 * Under systemd (stderr is the journal: $JOURNAL_STREAM names its device and
 * inode; or $INVOCATION_ID, set for every unit) a line is "<N>message": the
 * journal adds the time and "sudokud[pid]:" itself and reads the priority N
 * from the prefix (sd-daemon(3)); elsewhere "time name[pid]: level: msg". */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <syslog.h>
#include <time.h>
#include <unistd.h>
#include "daemon.h"

static int g_level = LOG_INFO_;
static bool g_syslog;
static const char *g_ident = "sudokud";
static const char *const names[] = {"error", "warning", "info", "debug"};
static const int prio[] = {LOG_ERR, LOG_WARNING, LOG_INFO, LOG_DEBUG};
static int g_journal = -1; /* -1: not decided yet */

/* Is stderr systemd's journal? */
static bool journal_stderr(void)
{
    const char *js = getenv("JOURNAL_STREAM");
    if (js && *js) {
        unsigned long long dev, ino;
        struct stat st;
        if (sscanf(js, "%llu:%llu", &dev, &ino) == 2 && fstat(2, &st) == 0 &&
            (unsigned long long)st.st_dev == dev && (unsigned long long)st.st_ino == ino)
            return true;
    }
    const char *inv = getenv("INVOCATION_ID");
    return inv && *inv && !isatty(2);
}

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
    if (g_syslog) syslog(prio[level], "%s", msg);
    if (g_journal < 0) g_journal = journal_stderr();
    if (g_journal && !g_syslog) {
        fprintf(stderr, "<%d>%s\n", prio[level], msg);
        return;
    }
    if (!g_syslog || !isatty(2)) {
        char ts[32];
        time_t t = time(NULL);
        struct tm tm;
        strftime(ts, sizeof ts, "%Y-%m-%d %H:%M:%S", localtime_r(&t, &tm));
        fprintf(stderr, "%s %s[%d]: %s: %s\n", ts, g_ident, (int)getpid(), names[level], msg);
    }
}
