/* bench_generate.c - puzzle generation: ours against qqwing in the same run,
 * rare SE targets, and --needs for every technique of a profile.
 *
 *   bench_generate [--config F] [-n N] [--rare K] [--needs K] [--needs-profile P]
 *                  [--needs-seconds S] [--part qqwing|rare|needs|all]
 *
 * Part qqwing: `qqwing --generate N --difficulty D --one-line` for simple,
 * easy, intermediate and expert (CPU time of the child), and ours N puzzles
 * at the matching HoDoKu level with the hodoku profile, each rated (thread
 * CPU time, one core): simple and easy -> easy, intermediate -> medium,
 * expert -> hard (qqwing's expert means its singles-and-pairs solver had to
 * guess). Part rare: K puzzles each for ER 7.0-7.9, 8.0-8.9 and 9.0- with the
 * default profile. Part needs: K puzzles for each technique of a profile
 * (default `standard`) but singles and trial and error, a time budget each.
 * Every figure is CPU time; the machine's load is printed first. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>
#include "sudoku/generate.h"
#include "sudoku/host.h"

static double thread_cpu(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static double children_cpu(void)
{
    struct rusage ru;
    getrusage(RUSAGE_CHILDREN, &ru);
    return (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec * 1e-6 +
           (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec * 1e-6;
}

static sdk_gen_target open_target(void)
{
    sdk_gen_target t;
    memset(&t, 0, sizeof t);
    t.er_min = t.er_max = t.ep_min = t.ep_max = t.ed_min = t.ed_max = -1;
    t.clues_min = 17, t.clues_max = 81;
    return t;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

typedef struct run {
    int made, asked;
    double cpu, median, max;
    long rated;
} run;

/* n puzzles of target t; per-puzzle CPU times for the median. */
static run make(const sdk_gen_target *t, const sdk_profile *p, const sdk_profile *lp, int n,
                double budget, uint64_t seed)
{
    run r = {.asked = n};
    double *each = calloc((size_t)n, sizeof *each);
    double t0 = thread_cpu();
    for (int i = 0; i < n; i++) {
        sdk_gen_opts o = {.seed = seed,
                          .index = (uint64_t)i,
                          .profile = p,
                          .level_profile = lp,
                          .unique_ok = true,
                          .max_seconds = budget};
        sdk_gen_result res;
        sdk_error err;
        double c0 = thread_cpu();
        if (sdk_generate(t, &o, &res, &err)) r.made++;
        each[i] = thread_cpu() - c0;
        r.rated += res.rated;
        if (each[i] > r.max) r.max = each[i];
    }
    r.cpu = thread_cpu() - t0;
    qsort(each, (size_t)n, sizeof *each, cmp_double);
    r.median = n ? each[n / 2] : 0;
    free(each);
    return r;
}

static void part_qqwing(const sdk_config *cfg, int n)
{
    static const struct {
        const char *qq;
        int level;
    } map[] = {{"simple", SDK_LEVEL_EASY},
               {"easy", SDK_LEVEL_EASY},
               {"intermediate", SDK_LEVEL_MEDIUM},
               {"expert", SDK_LEVEL_HARD}};
    const sdk_profile *hp = sdk_config_profile(cfg, "hodoku");
    if (!hp) hp = sdk_config_profile(cfg, "");
    printf("\n== qqwing vs ours: %d puzzles per difficulty, CPU time\n", n);
    printf("%-13s %10s %12s  %-8s %10s %12s %8s\n", "qqwing", "puzzles", "puzzles/s", "ours",
           "made", "puzzles/s", "ratio");
    for (size_t i = 0; i < sizeof map / sizeof *map; i++) {
        char cmd[256];
        snprintf(cmd, sizeof cmd, "qqwing --generate %d --difficulty %s --one-line 2>/dev/null", n,
                 map[i].qq);
        double c0 = children_cpu();
        FILE *f = popen(cmd, "r");
        int lines = 0;
        char buf[256];
        while (f && fgets(buf, sizeof buf, f))
            if (strlen(buf) >= 81) lines++;
        if (f) pclose(f);
        double qcpu = children_cpu() - c0;
        sdk_gen_target t = open_target();
        t.level = map[i].level;
        run r = make(&t, hp, hp, n, 60, 1000 + i);
        double qrate = lines && qcpu > 0 ? lines / qcpu : 0;
        double orate = r.cpu > 0 ? r.made / r.cpu : 0;
        printf("%-13s %10d %12.0f  %-8s %10d %12.0f %7.2fx\n", map[i].qq, lines, qrate,
               sdk_level_name(map[i].level), r.made, orate, qrate > 0 ? orate / qrate : 0);
        if (!lines) printf("  (qqwing not found: apt-get install qqwing)\n");
    }
}

static void part_rare(const sdk_config *cfg, int k)
{
    const sdk_profile *p = sdk_config_profile(cfg, "");
    static const int ranges[][2] = {{70, 79}, {80, 89}, {90, -1}};
    printf("\n== rare Sudoku Explainer targets (profile %s), %d puzzles each\n", p->name, k);
    printf("%-10s %6s %12s %12s %12s %10s\n", "ER", "made", "median s", "max s", "total s",
           "rated");
    for (int i = 0; i < 3; i++) {
        sdk_gen_target t = open_target();
        t.er_min = ranges[i][0], t.er_max = ranges[i][1];
        run r = make(&t, p, p, k, 120, 77 + (uint64_t)i);
        char name[32];
        snprintf(name, sizeof name, "%d.%d-%s", t.er_min / 10, t.er_min % 10,
                 t.er_max < 0 ? "" : (t.er_max == 79 ? "7.9" : "8.9"));
        printf("%-10s %3d/%-2d %12.2f %12.2f %12.2f %10ld\n", name, r.made, r.asked, r.median,
               r.max, r.cpu, r.rated);
    }
}

static bool skip_needs(const sdk_technique *t)
{
    static const char *const ids[] = {"full-house", "naked-single", "hidden-single-box",
                                      "hidden-single-line"};
    if (t->flags & SDK_TF_LAST_RESORT) return true;
    for (size_t i = 0; i < sizeof ids / sizeof *ids; i++)
        if (!strcmp(t->id, ids[i])) return true;
    return false;
}

static void part_needs(const sdk_config *cfg, const char *profile, int k, double seconds)
{
    const sdk_profile *p = sdk_config_profile(cfg, profile);
    if (!p) {
        printf("no profile %s\n", profile);
        return;
    }
    printf("\n== --needs TECHNIQUE with profile %s: %d puzzles each, budget %.0f s each\n", p->name,
           k, seconds);
    printf("%-36s %6s %12s %12s %10s\n", "technique", "made", "median s", "max s", "rated");
    int ok = 0, total = 0;
    for (int i = 0; i < p->n; i++) {
        const sdk_technique *tech = p->entry[i].tech;
        if (skip_needs(tech)) continue;
        sdk_gen_target t = open_target();
        t.nneeds = 1;
        t.needs[0] = tech->id;
        run r = make(&t, p, p, k, seconds, 500 + (uint64_t)i);
        total++;
        ok += r.made == r.asked;
        printf("%-36s %3d/%-2d %12.2f %12.2f %10ld\n", tech->id, r.made, r.asked, r.median, r.max,
               r.rated);
        fflush(stdout);
    }
    printf("%d of %d techniques produced every puzzle asked\n", ok, total);
}

int main(int argc, char **argv)
{
    const char *conf = getenv("SUDOKU_CONF"), *part = "all", *needs_profile = "standard";
    int n = 1000, rare = 5, needs = 2;
    double needs_seconds = 30;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--config") && i + 1 < argc)
            conf = argv[++i];
        else if (!strcmp(argv[i], "-n") && i + 1 < argc)
            n = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--rare") && i + 1 < argc)
            rare = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--needs") && i + 1 < argc)
            needs = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--needs-profile") && i + 1 < argc)
            needs_profile = argv[++i];
        else if (!strcmp(argv[i], "--needs-seconds") && i + 1 < argc)
            needs_seconds = atof(argv[++i]);
        else if (!strcmp(argv[i], "--part") && i + 1 < argc)
            part = argv[++i];
        else {
            fprintf(stderr,
                    "usage: bench_generate [--config F] [-n N] [--rare K] [--needs K] "
                    "[--needs-profile P] [--needs-seconds S] [--part qqwing|rare|needs|all]\n");
            return 2;
        }
    }
    char def[4096];
    if (!conf) {
        char self[4096];
        ssize_t len = readlink("/proc/self/exe", self, sizeof self - 1);
        if (len < 0) len = 0;
        self[len] = 0;
        char *slash = strrchr(self, '/');
        if (slash) *slash = 0;
        snprintf(def, sizeof def, "%s/../etc/sudokud/sudokud.conf", self);
        conf = def;
    }
    sdk_config cfg;
    sdk_error err;
    if (!sdk_config_load(conf, &cfg, &err)) {
        fprintf(stderr, "bench_generate: %s\n", err.msg);
        return 1;
    }
    double load[3] = {0};
    FILE *lf = fopen("/proc/loadavg", "r");
    if (lf) {
        if (fscanf(lf, "%lf %lf %lf", &load[0], &load[1], &load[2]) != 3) load[0] = -1;
        fclose(lf);
    }
    printf("bench_generate: config %s; load %.2f %.2f %.2f\n", conf, load[0], load[1], load[2]);
    if (!strcmp(part, "all") || !strcmp(part, "qqwing")) part_qqwing(&cfg, n);
    if (!strcmp(part, "all") || !strcmp(part, "rare")) part_rare(&cfg, rare);
    if (!strcmp(part, "all") || !strcmp(part, "needs"))
        part_needs(&cfg, needs_profile, needs, needs_seconds);
    sdk_config_free(&cfg);
    return 0;
}
