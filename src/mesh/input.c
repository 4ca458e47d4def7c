/* input.c - opening input files with messages a person can act on. */
#include "input.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "error.h"

int mesh__open_input(const char *path, const char *kind, FILE **f,
		     struct mesh_diag *d)
{
	struct stat st;

	/* fopen() succeeds on a directory; the read would fail later with
	 * a bare "read error". */
	if (!stat(path, &st) && S_ISDIR(st.st_mode))
		return mesh_diag_set(d, MESH_EIO, path, 0, "",
				     "is a directory, not %s", kind);
	*f = fopen(path, "r");
	if (!*f)
		return mesh_diag_set(d, MESH_ENOENT, path, 0, "",
				     "cannot open: %s", strerror(errno));
	return 0;
}

long mesh__read_line(FILE *f, char **buf, size_t *cap)
{
	size_t len = 0;
	int c;

	while ((c = getc_unlocked(f)) != EOF) {
		if (len + 2 > *cap) {
			size_t ncap = *cap ? *cap * 2 : 256;
			char *nb = realloc(*buf, ncap);

			if (!nb)
				return -1;
			*buf = nb;
			*cap = ncap;
		}
		(*buf)[len++] = (char) c;
		if (c == '\n')
			break;
	}
	if (*buf)
		(*buf)[len] = '\0';
	return (long) len;
}
