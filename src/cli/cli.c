/* cli.c - the front ends' version line and usage errors (cli.h). */
#include "cli.h"

#include <getopt.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

/* Is there an executable name in a directory of $PATH? */
static int on_path(const char *name)
{
	const char *p = getenv("PATH"), *colon;
	char buf[PATH_MAX];

	for (; p && *p; p = *colon ? colon + 1 : colon) {
		colon = strchr(p, ':');
		if (!colon)
			colon = p + strlen(p);
		snprintf(buf, sizeof(buf), "%.*s/%s", (int) (colon - p), p,
			 name);
		if (!access(buf, X_OK))
			return 1;
	}
	return 0;
}

int cli_find_tool(const char *env, const char *name, const char *build_rel,
		  char *out)
{
	const char *e = getenv(env);
	char self[PATH_MAX], *slash;
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);

	if (e && *e) {
		snprintf(out, PATH_MAX, "%s", e);
		return access(out, X_OK) ? -1 : 0;
	}
	self[n > 0 ? n : 0] = '\0';
	slash = strrchr(self, '/');
	if (slash) {
		snprintf(out, PATH_MAX, "%.*s/%s", (int) (slash - self), self,
			 name);
		if (!access(out, X_OK))
			return 0;
		snprintf(out, PATH_MAX, "%.*s/%s", (int) (slash - self), self,
			 build_rel);
		if (!access(out, X_OK))
			return 0;
	}
	snprintf(out, PATH_MAX, "%s", name);
	return on_path(name) ? 0 : -1;
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
