/* proc.c - meshsweep's child processes (proc.h).
 *
 * HOW IT WORKS: SIGCHLD and the signals that stop meshsweep are blocked
 * while proc_wait() checks for an ended child and for a caught signal,
 * and unblocked atomically by sigsuspend(), so neither event can slip in
 * between the check and the sleep.
 */
#define _XOPEN_SOURCE 700 /* nftw */
#include "proc.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "outfile.h"

static void on_child(int sig)
{
	(void) sig;
}

void proc_init(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_child;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = SA_NOCLDSTOP;
	sigaction(SIGCHLD, &sa, NULL);
}

static void wait_set(sigset_t *set)
{
	sigemptyset(set);
	sigaddset(set, SIGCHLD);
	sigaddset(set, SIGINT);
	sigaddset(set, SIGTERM);
	sigaddset(set, SIGHUP);
}

pid_t proc_start(char *const *av, const char *out, int both, unsigned limit)
{
	pid_t pid = fork();
	int fd;

	if (pid)
		return pid;
	/* The child: default signals (a terminal's Ctrl-C reaches it too),
	 * output to the file. */
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGHUP, SIG_DFL);
	fd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (fd >= 0) {
		dup2(fd, 2);
		if (both)
			dup2(fd, 1);
		close(fd);
	}
	if (limit)
		alarm(limit);
	execvp(av[0], av);
	fprintf(stderr, "cannot run %s: %s\n", av[0], strerror(errno));
	_exit(127);
}

pid_t proc_wait(int *status)
{
	sigset_t set, old;
	pid_t pid;

	wait_set(&set);
	sigprocmask(SIG_BLOCK, &set, &old);
	while ((pid = waitpid(-1, status, WNOHANG)) == 0 && !cli_caught())
		sigsuspend(&old);
	sigprocmask(SIG_SETMASK, &old, NULL);
	return pid > 0 ? pid : -1;
}

static int any_left(const pid_t *pids, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (pids[i] > 0)
			return 1;
	return 0;
}

/* Reap what has ended among pids (blocking if hang), its wait status
 * in status[]. */
static void reap(pid_t *pids, int *status, size_t n, int hang)
{
	size_t i;
	pid_t r;

	for (i = 0; i < n; i++) {
		if (pids[i] <= 0)
			continue;
		do
			r = waitpid(pids[i], &status[i], hang ? 0 : WNOHANG);
		while (r < 0 && errno == EINTR);
		if (r == pids[i] || (r < 0 && errno == ECHILD))
			pids[i] = 0;
	}
}

void proc_stop(pid_t *pids, int *status, size_t n)
{
	const struct timespec tick = { 0, 50 * 1000 * 1000 };
	size_t i;
	int t;

	for (i = 0; i < n; i++)
		if (pids[i] > 0)
			kill(pids[i], SIGTERM);
	for (t = 0; t < 200 && any_left(pids, n); t++) {
		reap(pids, status, n, 0);
		if (any_left(pids, n))
			nanosleep(&tick, NULL);
	}
	for (i = 0; i < n; i++)
		if (pids[i] > 0)
			kill(pids[i], SIGKILL);
	reap(pids, status, n, 1);
}

int proc_run(char *const *av, const char *err)
{
	pid_t pid = proc_start(av, err, 0, 0), got;
	int st;

	if (pid < 0)
		return -1;
	while ((got = proc_wait(&st)) >= 0 && got != pid)
		;
	if (got < 0) {
		proc_stop(&pid, &st, 1);
		return -1;
	}
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

int proc_first_line(char *const *av, char *buf, size_t len)
{
	int fd[2], st;
	ssize_t n = 0, k;
	pid_t pid;

	if (!len || pipe(fd))
		return -1;
	pid = fork();
	if (!pid) {
		close(fd[0]);
		dup2(fd[1], 1);
		execvp(av[0], av);
		_exit(127);
	}
	close(fd[1]);
	while (pid > 0 && (size_t) n < len - 1 &&
	       ((k = read(fd[0], buf + n, len - 1 - (size_t) n)) > 0 ||
		(k < 0 && errno == EINTR)))
		n += k > 0 ? k : 0;
	close(fd[0]);
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	if (pid < 0)
		return -1;
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	return WIFEXITED(st) && !WEXITSTATUS(st) && buf[0] ? 0 : -1;
}

char *proc_read_file(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL;
	size_t cap = 0, n = 0, k;

	if (!f)
		return NULL;
	do {
		char *nb = realloc(buf, cap + 4096 + 1);

		if (!nb) {
			free(buf);
			fclose(f);
			return NULL;
		}
		buf = nb;
		cap += 4096;
		k = fread(buf + n, 1, cap - n, f);
		n += k;
	} while (k && !ferror(f));
	fclose(f);
	buf[n] = '\0';
	return buf;
}

static int remove_one(const char *path, const struct stat *st, int type,
		      struct FTW *ftw)
{
	(void) st;
	(void) ftw;
	if (type == FTW_DP)
		rmdir(path);
	else
		unlink(path);
	return 0;
}

void proc_remove_tree(const char *path)
{
	if (nftw(path, remove_one, 16, FTW_DEPTH | FTW_PHYS))
		fprintf(stderr, "meshsweep: could not remove %s: %s\n", path,
			strerror(errno));
}
