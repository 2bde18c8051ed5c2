/* progress.c - sudoctl's progress bar: "[#####-----]  45%  4500 puzzles
 * 12.3k/s  ETA 0:03" rewritten in place on stderr, at most 10 times a second. */
#include "progress.h"

#include <stdio.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

void progress_init(progress *p, bool on, bool forced, long total, double total_bytes)
{
    p->on = on || forced;
    p->forced = forced;
    p->start = p->last = now();
    p->done = 0;
    p->total = total;
    p->total_bytes = total_bytes;
    struct winsize ws;
    p->width = 80;
    if (ioctl(2, TIOCGWINSZ, &ws) == 0 && ws.ws_col >= 40) p->width = ws.ws_col;
}

static void human(double v, char *buf, size_t n)
{
    if (v >= 1e6)
        snprintf(buf, n, "%.1fM", v / 1e6);
    else if (v >= 1e4)
        snprintf(buf, n, "%.1fk", v / 1e3);
    else
        snprintf(buf, n, "%.0f", v);
}

static void draw(progress *p, double frac, double t)
{
    double el = t - p->start;
    double rate = el > 0 ? p->done / el : 0;
    char rb[32], tail[96], eta[32] = "";
    human(rate, rb, sizeof rb);
    if (frac > 0.001 && frac <= 1) {
        double left = el / frac - el;
        if (left < 0) left = 0;
        long s = (long)(left + 0.5);
        if (s >= 3600)
            snprintf(eta, sizeof eta, "  ETA %ld:%02ld:%02ld", s / 3600, s / 60 % 60, s % 60);
        else
            snprintf(eta, sizeof eta, "  ETA %ld:%02ld", s / 60, s % 60);
    }
    snprintf(tail, sizeof tail, " %3.0f%%  %ld  %s/s%s", frac * 100, p->done, rb, eta);
    int bar = p->width - (int)sizeof "[]" - 40;
    if (bar < 10) bar = 10;
    int fill = (int)(frac * bar + 0.5);
    fputs("\r[", stderr);
    for (int i = 0; i < bar; i++) fputc(i < fill ? '#' : '-', stderr);
    fprintf(stderr, "]%s\033[K", tail);
    fflush(stderr);
}

static double fraction(const progress *p, double bytes)
{
    if (p->total > 0) return (double)p->done / p->total;
    if (p->total_bytes > 0) return bytes / p->total_bytes;
    return 0;
}

void progress_update(progress *p, long done, double bytes)
{
    p->done = done;
    if (!p->on) return;
    double t = now();
    if (t - p->last < 0.1) return;
    p->last = t;
    draw(p, fraction(p, bytes), t);
}

void progress_end(progress *p)
{
    if (!p->on) return;
    if (p->last > p->start || p->forced) {
        draw(p, 1.0, now());
        fputc('\n', stderr);
    }
}

void progress_stop(progress *p)
{
    if (!p->on) return;
    if (p->last > p->start || p->forced) fputc('\n', stderr); /* end the bar's line as it is */
}
