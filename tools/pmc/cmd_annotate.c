/* cmd_annotate.c — `pmc annotate` (in progress). */
#include "cli.h"
int cmd_annotate(int argc, char **argv)
{
	(void)argc; (void)argv;
	cli_warn("not implemented yet");
	return CLI_EXIT_FAIL;
}
