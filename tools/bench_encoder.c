#include "tools/bench.h"
#include "tools/cli.h"

int bench_encoder(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    return cli_error("bench encoder is not implemented yet");
}
