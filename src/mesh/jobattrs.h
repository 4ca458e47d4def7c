/* jobattrs.h - meshsim's job-attribute sidecar: what the SWF trace does
 * not say about a job.
 *
 * A CSV file keyed by SWF job id.  The first non-comment line names the
 * columns, in any order; job_id is required, the others are optional,
 * and an empty field means "not given":
 *
 *   # comment
 *   job_id,io_intensity,io_volume,comm,shape,compute_phase,checkpoint_phase
 *   17,0.7,120,all-to-all,4x2,600,60
 *
 *   io_intensity      share of the runtime in parallel I/O, 0..1
 *   io_volume         data the job reads or writes, in GB (>= 0)
 *   comm              all-to-all, one-to-all, nearest, chain or none;
 *                     or "pairs:S>R S>R ..." (directed rank pairs)
 *   shape             requested shape WxH or WxHxD (for mc)
 *   compute_phase     seconds of one compute phase (> 0)
 *   checkpoint_phase  seconds of one checkpoint phase (>= 0)
 *   comm_share        share of the runtime in communication, 0..1
 *                     (io_intensity + comm_share <= 1)
 *
 * Every error names file:line:column, like the SWF parser.  The values
 * use the parsers of hints.h, as the SPANK options do.
 */
#ifndef MESH_JOBATTRS_H
#define MESH_JOBATTRS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "hints.h"

struct mesh_job_attr {
	long id;
	struct mesh_job_hints hints; /* shape, io_intensity, comm */
	double io_volume;            /* GB, < 0 = not given */
	double compute_phase;        /* s, < 0 = not given */
	double checkpoint_phase;     /* s, < 0 = not given */
	double comm_share;           /* 0..1, < 0 = not given */
	uint32_t *pairs;             /* comm pairs: sender, receiver ranks */
	size_t n_pairs;
	long line;
};

struct mesh_job_attrs {
	struct mesh_job_attr *a; /* sorted by id */
	size_t n;
};

/** \brief Read a sidecar from f; name is used in diagnostics.
 *  \param[out] out free with mesh_job_attrs_free().
 *  \return 0, or MESH_EPARSE (bad header, field or duplicate id), MESH_EIO
 *  or MESH_ENOMEM described in d; nothing is returned on error. */
int mesh_job_attrs_read(FILE *f, const char *name, struct mesh_job_attrs **out,
			struct mesh_diag *d);

/** \brief Open and read path (a directory or a missing file is an
 *  error naming it). */
int mesh_job_attrs_load(const char *path, struct mesh_job_attrs **out,
			struct mesh_diag *d);

/** \brief The attributes of job id, or NULL. */
const struct mesh_job_attr *mesh_job_attrs_find(const struct mesh_job_attrs *s,
						long id);

void mesh_job_attrs_free(struct mesh_job_attrs *s);

#endif
