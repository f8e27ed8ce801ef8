#include "tools/cli.h"

int sl_cmd_features(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    return cli_error("'features' is not implemented yet");
}
