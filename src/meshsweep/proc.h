/* proc.h - meshsweep's child processes (meshsim, meshsim-gen): started
 * with their output in a file, waited for without missing a signal, and
 * stopped and reaped when meshsweep is interrupted. */
#ifndef MESHSWEEP_PROC_H
#define MESHSWEEP_PROC_H

#include <stddef.h>
#include <sys/types.h>

/* Catch SIGCHLD (proc_wait sleeps until a child ends or a signal that
 * outfile.h's deferred mode notes arrives). */
void proc_init(void);

/* Start av[0] (PATH searched) with stderr, and stdout too if both, in
 * the file out (created or truncated); with limit > 0 the child is
 * killed by SIGALRM after limit seconds of wall time (the alarm survives
 * exec).  The child's pid, or -1. */
pid_t proc_start(char *const *av, const char *out, int both, unsigned limit);

/* The next child to end and its wait status, or -1 once a signal was
 * caught (cli_caught()) and no child has ended. */
pid_t proc_wait(int *status);

/* SIGTERM to every pid that is not 0, then wait for them (SIGKILL to any
 * still running after 10 s).  Each pid reaped is set to 0, its wait
 * status in status[]. */
void proc_stop(pid_t *pids, int *status, size_t n);

/* Run av to its end, its stderr in err; its exit status (128 + signal
 * if it was killed), or -1 if it could not start or a signal was caught
 * (the child is then stopped). */
int proc_run(char *const *av, const char *err);

/* Run av and read the first line of its stdout into buf (without the
 * newline); 0, or -1 if it failed or printed nothing. */
int proc_first_line(char *const *av, char *buf, size_t len);

/* The contents of the file at path (a child's output), NUL-terminated,
 * in malloc'ed memory; NULL if it cannot be read. */
char *proc_read_file(const char *path);

/* Remove the directory tree at path (no symbolic links followed). */
void proc_remove_tree(const char *path);

#endif
