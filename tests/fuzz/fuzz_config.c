/* fuzz_config.c - libFuzzer target: the config file (lib/config.c).
 *
 * The bytes are a config file: written to a scratch file after two fixed
 * lines that point plugin_dir at the build's plugins, then loaded with
 * sdk_config_load() and freed, as sudokud does at start and on reload. The
 * entry point is only "load a config from a file", so it holds whatever the
 * reader inside becomes.
 *
 * A fuzzed config may name any plugin_dir or plugin path, and loading a
 * plugin runs its code: this target replaces dlopen() so that only files in
 * the build's plugin folder load (others fail as a missing file does), and
 * opens those once up front so that each run only counts references.
 */
#include <dirent.h>
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sudoku/host.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char plugin_dir[1024];
static char conf_path[1100];

void *dlopen(const char *file, int mode)
{
    static void *(*real)(const char *, int);
    if (!real) *(void **)&real = dlsym(RTLD_NEXT, "dlopen");
    size_t n = strlen(plugin_dir);
    bool ours = file && n && strncmp(file, plugin_dir, n) == 0 && file[n] == '/' &&
                !strstr(file + n, "/..") && !strchr(file + n + 1, '/');
    /* a refused path fails like a missing file (and sets dlerror) */
    return real(ours ? file : "/nonexistent/refused-by-fuzz_config.so", mode);
}

static void setup(void)
{
    const char *dir = getenv("SUDOKU_PLUGIN_DIR");
    snprintf(plugin_dir, sizeof plugin_dir, "%s", dir && *dir ? dir : FUZZ_PLUGIN_DIR);
    const char *tmp = getenv("TMPDIR");
    snprintf(conf_path, sizeof conf_path, "%s/fuzz_config.%d.conf", tmp && *tmp ? tmp : "/tmp",
             (int)getpid());
    DIR *d = opendir(plugin_dir);
    struct dirent *de;
    while (d && (de = readdir(d))) {
        size_t len = strlen(de->d_name);
        char path[2048];
        if (len < 4 || strcmp(de->d_name + len - 3, ".so") != 0) continue;
        snprintf(path, sizeof path, "%s/%s", plugin_dir, de->d_name);
        dlopen(path, RTLD_NOW | RTLD_LOCAL); /* kept open for the process */
    }
    if (d) closedir(d);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!conf_path[0]) setup();
    FILE *f = fopen(conf_path, "w");
    if (!f) return 0;
    fprintf(f, "[sudokud]\nplugin_dir = %s\n", plugin_dir);
    fwrite(data, 1, size, f);
    fclose(f);
    sdk_config cfg;
    sdk_error err;
    if (sdk_config_load(conf_path, &cfg, &err)) {
        (void)sdk_config_profile(&cfg, NULL);
        sdk_config_free(&cfg);
    }
    unlink(conf_path);
    return 0;
}
