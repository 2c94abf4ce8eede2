/* cmd_diff.c — `pmc diff` (in progress). */
#include "cli.h"
int cmd_diff(int argc, char **argv)
{
	(void)argc; (void)argv;
	cli_warn("not implemented yet");
	return CLI_EXIT_FAIL;
}
