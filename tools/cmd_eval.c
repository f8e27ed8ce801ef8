#include "tools/cli.h"

int sl_cmd_eval(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    return cli_error("'eval' is not implemented yet");
}
