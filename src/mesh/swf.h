/* swf.h - Standard Workload Format traces (Parallel Workloads Archive).
 *
 * 18 whitespace-separated fields per job line, -1 for missing values,
 * ';' header comments ("; MaxProcs: 128").  Fractional values are
 * accepted in time, CPU-time and memory fields, where real traces carry
 * them; the identifier and count fields must be integers.
 */
#ifndef MESH_SWF_H
#define MESH_SWF_H

#include <stddef.h>
#include <stdio.h>

#include "diag.h"

#define MESH_SWF_FIELDS 18

struct mesh_swf_job {
	long id;         /* 1 job number */
	double submit;   /* 2 submit time (s) */
	double wait;     /* 3 */
	double run;      /* 4 run time (s) */
	long procs;      /* 5 allocated processors */
	double avg_cpu;  /* 6 average CPU time used (may be fractional) */
	double used_mem; /* 7 */
	long req_procs;  /* 8 requested processors */
	double req_time; /* 9 requested time (s) */
	double req_mem;  /* 10 */
	long status;     /* 11 */
	long user, group, app, queue, partition, prev_job; /* 12-17 */
	double think;                                      /* 18 */
	long line; /* line number in the file */
};

struct mesh_swf_trace {
	struct mesh_swf_job *jobs;
	size_t n;
	long max_nodes; /* header MaxNodes, -1 if absent */
	long max_procs; /* header MaxProcs, -1 if absent */
};

/** \brief Name of SWF field i (1-based, 1..18), e.g. "req_procs". */
const char *mesh_swf_field_name(int i);

/** \brief Parse one job line (not a comment).
 *  \return 0, or MESH_EPARSE with d naming the field (file/line unset). */
int mesh_swf_parse_line(const char *line, struct mesh_swf_job *job,
			struct mesh_diag *d);

/** \brief Read a whole trace.  name is used in diagnostics.
 *  \param[out] out trace; free with mesh_swf_free().
 *  \return 0, MESH_EPARSE/MESH_EIO/MESH_ENOMEM with d set; nothing is
 *  returned on error (a bad line stops the read). */
int mesh_swf_read(FILE *f, const char *name, struct mesh_swf_trace **out,
		  struct mesh_diag *d);

/** \brief Open and read path. */
int mesh_swf_load(const char *path, struct mesh_swf_trace **out,
		  struct mesh_diag *d);

/** \brief Write job as one SWF line (the 18 fields, -1 for missing).
 *  \return 0 or MESH_EIO. */
int mesh_swf_write_job(FILE *f, const struct mesh_swf_job *job);

/** \brief Free; NULL is a no-op. */
void mesh_swf_free(struct mesh_swf_trace *tr);

#endif
