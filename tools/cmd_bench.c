/* `seqlabel bench WHAT`: benchmarks that print figures (never tests). Each
 * lives in its own bench_*.c file. */
#include <stdio.h>
#include <string.h>

#include "tools/cli.h"
#include "tools/bench.h"

int sl_cmd_bench(int argc, char **argv)
{
    static const struct {
        const char *name;
        sl_cmd_fn fn;
        void (*help)(FILE *);
    } benches[] = {
        {"features", bench_features, bench_features_help},
        {"encoder", bench_encoder, bench_encoder_help},
        {"label", bench_label, bench_label_help},
        {"train", bench_train, bench_train_help},
    };
    const size_t n = sizeof benches / sizeof benches[0];
    if (argc >= 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
        printf("usage: seqlabel bench features|encoder|label|train [OPTIONS]\n"
               "\n"
               "Benchmarks that print figures: speed and memory are measured here, never\n"
               "asserted by tests. docs/ says which figures each document took from them.\n");
        for (size_t i = 0; i < n; i++) {
            printf("\n");
            benches[i].help(stdout);
        }
        return 0;
    }
    if (argc >= 2)
        for (size_t i = 0; i < n; i++)
            if (!strcmp(argv[1], benches[i].name))
                return benches[i].fn(argc - 1, argv + 1);
    return cli_usage_error("usage: seqlabel bench features|encoder|label|train [OPTIONS] (--help: all of them)");
}
