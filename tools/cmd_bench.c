/* `seqlabel bench WHAT`: benchmarks that print figures (never tests). Each
 * lives in its own bench_*.c file. */
#include <string.h>

#include "tools/cli.h"
#include "tools/bench.h"

int sl_cmd_bench(int argc, char **argv)
{
    static const struct {
        const char *name;
        sl_cmd_fn fn;
    } benches[] = {
        {"features", bench_features},
        {"encoder", bench_encoder},
        {"label", bench_label},
        {"train", bench_train},
    };
    if (argc >= 2)
        for (size_t i = 0; i < sizeof benches / sizeof benches[0]; i++)
            if (!strcmp(argv[1], benches[i].name))
                return benches[i].fn(argc - 1, argv + 1);
    return cli_error("usage: seqlabel bench features|encoder|label|train [OPTIONS] (--help for each)");
}
