#include "tools/bench.h"
#include "tools/cli.h"

int bench_features(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    return cli_error("bench features is not implemented yet");
}
