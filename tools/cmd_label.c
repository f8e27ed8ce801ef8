#include "tools/cli.h"

int sl_cmd_label(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    return cli_error("'label' is not implemented yet");
}
