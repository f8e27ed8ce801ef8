#include "tools/cli.h"

int sl_cmd_bench(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    return cli_error("'bench' is not implemented yet");
}
