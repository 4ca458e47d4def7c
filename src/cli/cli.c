/* cli.c - the front ends' version line and usage errors (cli.h). */
#include "cli.h"

#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>

#include "revision.h"

const char cli_revision[] = CLI_REVISION;

void cli_print_version(const char *prog)
{
	printf("%s (slurm-mesh) %s\n", prog, cli_revision);
}

int cli_usage_error(const char *prog, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nTry '%s --help'.\n", prog);
	return 2;
}

int cli_bad_option(const char *prog, char *const *argv, int c)
{
	const char *arg = optind > 0 ? argv[optind - 1] : "";

	if (optopt && arg[0] == '-' && arg[1] != '-')
		return cli_usage_error(
		    prog, "%s option '-%c'",
		    c == ':' ? "missing value for" : "unknown", optopt);
	return cli_usage_error(prog, "%s option '%s'",
			       c == ':' ? "missing value for" : "unknown", arg);
}
