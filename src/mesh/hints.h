/* hints.h - what a user may say about a job: requested shape, I/O
 * intensity and communication pattern.
 *
 * One parser for every channel: the SPANK options of sbatch/salloc/srun,
 * the job's SPANK environment that select/mesh and site_factor/iobalance
 * read in slurmctld, and meshsim's job-attribute sidecar.  In the SPANK
 * environment the hints are NAME=value strings with the names below.
 */
#ifndef MESH_HINTS_H
#define MESH_HINTS_H

#include <stddef.h>

#include "alloc.h"
#include "diag.h"

#define MESH_HINT_SHAPE "MESH_SHAPE"               /* e.g. 4x2, 4x2x2 */
#define MESH_HINT_IO_INTENSITY "MESH_IO_INTENSITY" /* 0..1 */
#define MESH_HINT_COMM "MESH_COMM" /* all-to-all, one-to-all, nearest, none */

struct mesh_job_hints {
	int shape[MESH_MAX_DIMS]; /* 0 = not given */
	double io_intensity;      /* < 0 = not given */
	enum mesh_comm comm;      /* MESH_COMM_UNKNOWN = not given */
};

/** \brief No hints given. */
void mesh_hints_init(struct mesh_job_hints *h);

/** \brief Parse "WxH" or "WxHxD" (each 1..2^22) into shape (unused axes
 *  1).  \return 0, or MESH_EINVAL described in d (field "shape") with
 *  shape untouched. */
int mesh_shape_parse(const char *s, int shape[MESH_MAX_DIMS],
		     struct mesh_diag *d);

/** \brief Parse an I/O intensity in [0, 1].
 *  \return 0, or MESH_EINVAL described in d (field "io-intensity"). */
int mesh_io_intensity_parse(const char *s, double *v, struct mesh_diag *d);

/** \brief Parse a communication pattern (mesh_comm_parse's names).
 *  \return 0, or MESH_EINVAL described in d (field "comm"). */
int mesh_comm_parse_checked(const char *s, enum mesh_comm *c,
			    struct mesh_diag *d);

/** \brief Read the hints from n "NAME=value" strings (other names are
 *  ignored; a later duplicate wins).  A bad value is skipped: h keeps
 *  every good hint and the bad one's previous value.  \return 0, or
 *  MESH_EINVAL for the first bad value, described in d. */
int mesh_hints_from_env(const char *const *env, size_t n,
			struct mesh_job_hints *h, struct mesh_diag *d);

#endif
