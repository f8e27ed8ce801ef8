#include "tools/cli.h"

int sl_cmd_train(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    return cli_error("'train' is not implemented yet");
}
