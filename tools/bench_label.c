#include "tools/bench.h"
#include "tools/cli.h"

int bench_label(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    return cli_error("bench label is not implemented yet");
}
