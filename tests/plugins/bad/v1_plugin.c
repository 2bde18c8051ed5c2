/* v1_plugin.c - a plugin as ABI version 1 laid its descriptor out (no size,
 * no data; its find never learned ctx->self). Written against a copy of the
 * v1 struct, as a plugin built with the old header would be: the loader must
 * refuse it, naming the file, ABI 1 and its own. */
#include <stddef.h>
#include <stdint.h>

typedef struct v1_technique {
    uint32_t abi; /* 1 */
    const char *id;
    const char *name;
    int difficulty;
    int score;
    int level;
    unsigned flags;
    int (*find)(const void *ctx, const void *g, void *sink);
    const char *summary;
} v1_technique;

static int find_nothing(const void *ctx, const void *g, void *sink)
{
    (void)ctx, (void)g, (void)sink;
    return 0;
}

static const v1_technique old = {.abi = 1,
                                 .id = "from-the-past",
                                 .name = "From the Past",
                                 .difficulty = 10,
                                 .find = find_nothing};

__attribute__((visibility("default"))) const v1_technique *const *sudoku_techniques(void)
{
    static const v1_technique *const list[] = {&old, NULL};
    return list;
}
