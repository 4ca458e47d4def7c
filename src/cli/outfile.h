/* outfile.h - output files that are either complete or untouched, and the
 * front ends' handling of SIGINT, SIGTERM and SIGHUP.
 *
 * An output is written to a temporary file in its directory and renamed
 * over the real name once it is complete, so a reader never sees a
 * half-written file and an old file survives a failed or interrupted run.
 * An existing output that is not a regular file (a device such as
 * /dev/null, a FIFO, a terminal, or a symlink to one) is written in place.
 * On a signal, every temporary file still open is removed and the
 * program exits 128 + the signal number.
 */
#ifndef CLI_OUTFILE_H
#define CLI_OUTFILE_H

#include <signal.h>
#include <stdio.h>

struct cli_outfile {
	const char *path; /* the real name; "-" or NULL: stdout */
	FILE *f;          /* where to write; stdout for "-" */
	int slot;         /* temporary file's index, -1 if none */
};

/* Handle SIGINT, SIGTERM and SIGHUP.  deferred = 0: remove the
 * temporary files and _exit(128 + signal) at once.  deferred = 1: only
 * note the signal (cli_caught() returns it; blocking calls return with
 * EINTR), for a program that must stop its children first. */
void cli_signals(int deferred);

/* The signal caught in deferred mode, or 0. */
int cli_caught(void);

/* Remove the temporary files still open and exit 128 + sig. */
void cli_exit_signal(int sig) __attribute__((noreturn));

/* Open a temporary file for path beside it ("-": stdout).  On failure
 * print "prog: opt: cannot create PATH: reason" and return -1. */
int cli_out_open(struct cli_outfile *o, const char *prog, const char *opt,
		 const char *path);

/* Flush and close the temporary file, and rename it to the real name;
 * on a write error print it, remove the temporary file and return -1.
 * stdout is only flushed. */
int cli_out_commit(struct cli_outfile *o, const char *prog, const char *opt);

/* Close and remove the temporary file, if any: the real file, if it
 * existed, is left as it was. */
void cli_out_abort(struct cli_outfile *o);

#endif
