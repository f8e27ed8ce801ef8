#include "tools/bench.h"
#include "tools/cli.h"

int bench_train(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    return cli_error("bench train is not implemented yet");
}
