#include "tools/cli.h"

int sl_cmd_info(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    return cli_error("'info' is not implemented yet");
}
