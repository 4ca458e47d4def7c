/* outfile.c - complete-or-untouched output files and signal handling for
 * the front ends (outfile.h).
 *
 * HOW IT WORKS: the temporary files' names live in a fixed table that
 * the signal handler may read: a name is written before its slot is
 * counted as used, with the signals blocked, so the handler sees only
 * whole names and calls only unlink() and _exit(), which are
 * async-signal-safe.
 *
 * Only a regular file (or a name that does not exist yet) is replaced by
 * rename: a device, a FIFO or a terminal, or a symlink to one, is opened
 * and written in place, since renaming over /dev/null as root would
 * replace the machine's null device with a file.
 */
#include "outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_TEMPS 8

static char temp_name[MAX_TEMPS][PATH_MAX];
static volatile sig_atomic_t temp_used[MAX_TEMPS];
static volatile sig_atomic_t caught;
static const int handled[] = { SIGINT, SIGTERM, SIGHUP };

static void remove_temps(void)
{
	int i;

	for (i = 0; i < MAX_TEMPS; i++)
		if (temp_used[i])
			unlink(temp_name[i]);
}

void cli_exit_signal(int sig)
{
	remove_temps();
	_exit(128 + sig);
}

static void on_signal(int sig)
{
	cli_exit_signal(sig);
}

static void note_signal(int sig)
{
	if (!caught)
		caught = sig;
}

void cli_signals(int deferred)
{
	struct sigaction sa;
	size_t i;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = deferred ? note_signal : on_signal;
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < sizeof(handled) / sizeof(handled[0]); i++)
		sigaddset(&sa.sa_mask, handled[i]);
	/* No SA_RESTART: a deferred signal ends a blocking wait(). */
	for (i = 0; i < sizeof(handled) / sizeof(handled[0]); i++)
		sigaction(handled[i], &sa, NULL);
}

int cli_caught(void)
{
	return caught;
}

static void block(sigset_t *old)
{
	sigset_t set;
	size_t i;

	sigemptyset(&set);
	for (i = 0; i < sizeof(handled) / sizeof(handled[0]); i++)
		sigaddset(&set, handled[i]);
	sigprocmask(SIG_BLOCK, &set, old);
}

/* "dir/.name.XXXXXX" for path; -1 if it does not fit. */
static int temp_pattern(const char *path, char *buf)
{
	const char *slash = strrchr(path, '/');
	int dl = slash ? (int) (slash - path + 1) : 0;
	int n = snprintf(buf, PATH_MAX, "%.*s.%s.XXXXXX", dl, path,
			 slash ? slash + 1 : path);

	return n < 0 || n >= PATH_MAX ? -1 : 0;
}

/* A free slot holding a new temporary file for path, its descriptor in
 * *fd; -1 with errno set if none. */
static int new_temp(const char *path, int *fd)
{
	mode_t mask;
	int i;

	for (i = 0; i < MAX_TEMPS && temp_used[i]; i++)
		;
	if (i == MAX_TEMPS) {
		errno = EMFILE;
		return -1;
	}
	if (temp_pattern(path, temp_name[i])) {
		errno = ENAMETOOLONG;
		return -1;
	}
	*fd = mkstemp(temp_name[i]);
	if (*fd < 0)
		return -1;
	temp_used[i] = 1;
	mask = umask(0);
	umask(mask);
	fchmod(*fd, 0666 & ~mask);
	return i;
}

int cli_out_open(struct cli_outfile *o, const char *prog, const char *opt,
		 const char *path)
{
	struct stat st;
	sigset_t old;
	int fd = -1, err;

	o->path = path;
	o->f = NULL;
	o->slot = -1;
	if (!path || !strcmp(path, "-")) {
		o->f = stdout;
		return 0;
	}
	if (!stat(path, &st) && !S_ISREG(st.st_mode)) {
		o->f = fopen(path, "w");
		if (o->f)
			return 0;
		fprintf(stderr, "%s: %s: cannot open %s: %s\n", prog, opt, path,
			strerror(errno));
		return -1;
	}
	block(&old);
	o->slot = new_temp(path, &fd);
	err = errno;
	sigprocmask(SIG_SETMASK, &old, NULL);
	if (o->slot >= 0) {
		o->f = fdopen(fd, "w");
		err = errno;
		if (o->f)
			return 0;
		close(fd);
		cli_out_abort(o);
	}
	fprintf(stderr, "%s: %s: cannot create %s: %s\n", prog, opt, path,
		strerror(err));
	return -1;
}

static void release(struct cli_outfile *o, int remove_it)
{
	sigset_t old;

	if (o->slot < 0)
		return;
	block(&old);
	if (remove_it)
		unlink(temp_name[o->slot]);
	temp_used[o->slot] = 0;
	sigprocmask(SIG_SETMASK, &old, NULL);
	o->slot = -1;
}

int cli_out_commit(struct cli_outfile *o, const char *prog, const char *opt)
{
	sigset_t old;
	int bad, err;

	if (o->f == stdout || !o->f) {
		bad = o->f && (fflush(o->f) || ferror(o->f));
		if (bad)
			fprintf(stderr, "%s: %s: write error on stdout: %s\n",
				prog, opt, strerror(errno));
		return bad ? -1 : 0;
	}
	bad = fflush(o->f) || ferror(o->f);
	err = errno;
	if (fclose(o->f) && !bad) {
		bad = 1;
		err = errno;
	}
	o->f = NULL;
	if (o->slot < 0) { /* written in place */
		if (bad)
			fprintf(stderr, "%s: %s: cannot write %s: %s\n", prog,
				opt, o->path, strerror(err));
		return bad ? -1 : 0;
	}
	/* Signals wait until the file has its real name and the slot is
	 * free: a signal finds either the temporary file or none. */
	block(&old);
	if (!bad && rename(temp_name[o->slot], o->path)) {
		bad = 1;
		err = errno;
	}
	if (bad)
		unlink(temp_name[o->slot]);
	temp_used[o->slot] = 0;
	o->slot = -1;
	sigprocmask(SIG_SETMASK, &old, NULL);
	if (bad)
		fprintf(stderr, "%s: %s: cannot write %s: %s\n", prog, opt,
			o->path, strerror(err));
	return bad ? -1 : 0;
}

void cli_out_abort(struct cli_outfile *o)
{
	if (o->f && o->f != stdout)
		fclose(o->f);
	o->f = NULL;
	release(o, 1);
}
