/* cli.h - what every front end says the same way: its version (the
 * exact source revision) and its usage errors. */
#ifndef CLI_CLI_H
#define CLI_CLI_H

/* The source revision this program was built from, e.g.
 * "0.1.0-g6deb0cb3a1b2-dirty" (src/cli/revision.sh). */
extern const char cli_revision[];

/* "PROG (slurm-mesh) REVISION" on stdout, for --version and -V. */
void cli_print_version(const char *prog);

/* "PROG: MESSAGE" and "Try 'PROG --help'." on stderr; returns 2, the
 * usage error status. */
int cli_usage_error(const char *prog, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Where another command of the package is: $ENV if set; else next to
 * this program (its real path, /proc/self/exe), as installed; else at
 * build_rel from this program's directory, in the build tree; else name,
 * found on PATH.  The path goes into out (PATH_MAX bytes); 0 if it is
 * executable, -1 if not found (out is then name). */
int cli_find_tool(const char *env, const char *name, const char *build_rel,
		  char *out);

/* For getopt_long's '?' and ':' (with opterr = 0 and ':' leading the
 * short options): names the unknown option or the one missing its
 * value, then the pointer to --help; returns 2. */
int cli_bad_option(const char *prog, char *const *argv, int c);

#endif
