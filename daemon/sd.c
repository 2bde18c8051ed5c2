/* sd.c - sudokud's own minimal systemd glue, no libsystemd: sd_notify-style
 * state messages ("READY=1", "RELOADING=1", "STOPPING=1", "STATUS=...") as
 * one datagram to $NOTIFY_SOCKET (a path, or "@name" for an abstract socket),
 * and socket activation (LISTEN_PID / LISTEN_FDS: the listening socket is fd
 * 3). Both read their variables once and remove them from the environment so
 * that the workers do not see them. */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>
#include "daemon.h"

static struct sockaddr_un notify_addr;
static socklen_t notify_len; /* 0: no notify socket */
static int listen_fd = -1;

void sd_init(void)
{
    const char *e = getenv("NOTIFY_SOCKET");
    size_t n = e ? strlen(e) : 0;
    if (n >= 2 && n < sizeof notify_addr.sun_path && (e[0] == '/' || e[0] == '@')) {
        memset(&notify_addr, 0, sizeof notify_addr);
        notify_addr.sun_family = AF_UNIX;
        memcpy(notify_addr.sun_path, e, n);
        if (e[0] == '@') notify_addr.sun_path[0] = 0; /* abstract: no NUL at the end */
        notify_len = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + n + (e[0] == '/'));
    } else if (e && *e) {
        log_warn("NOTIFY_SOCKET '%s' is neither a path nor @abstract: not notifying", e);
    }
    unsetenv("NOTIFY_SOCKET");

    /* socket activation: fds from 3 on, for us only when LISTEN_PID is ours */
    const char *pid = getenv("LISTEN_PID"), *fds = getenv("LISTEN_FDS");
    if (pid && fds && atol(pid) == (long)getpid()) {
        long k = atol(fds);
        if (k >= 1) {
            listen_fd = 3;
            fcntl(listen_fd, F_SETFD, FD_CLOEXEC);
            if (k > 1) log_warn("LISTEN_FDS=%ld: using the first socket only", k);
        }
    }
    unsetenv("LISTEN_PID");
    unsetenv("LISTEN_FDS");
    unsetenv("LISTEN_FDNAMES");
}

bool sd_notifying(void)
{
    return notify_len > 0;
}

int sd_listen_fd(void)
{
    return listen_fd;
}

void sd_notifyf(const char *fmt, ...)
{
    if (!notify_len) return;
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (n < 0) return;
    if ((size_t)n >= sizeof msg) n = (int)sizeof msg - 1;
    int fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    if (fd < 0) {
        log_warn("notify: socket: %s", strerror(errno));
        return;
    }
    ssize_t w =
        sendto(fd, msg, (size_t)n, MSG_NOSIGNAL, (struct sockaddr *)&notify_addr, notify_len);
    if (w < 0) log_warn("notify: sendto: %s", strerror(errno));
    close(fd);
}
