/* input.c - opening input files with messages a person can act on. */
#include "input.h"

#include <errno.h>
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
