/* sacct.h - a Slurm cluster's accounting (sacct --parsable2) as SWF jobs.
 *
 * The input is what a site runs (sacct2swf(1) gives the command):
 * '|'-separated fields under a header line that names them, in any
 * order, one record per job allocation.  Each finished job becomes one
 * SWF job: submit, wait (start - submit), run (ElapsedRaw, or end -
 * start), size (NNodes or AllocCPUS), requested size and time, status,
 * user, group and partition.  Records that are not a finished job are
 * counted, never guessed at: steps, jobs still pending or running, and
 * jobs that ended without starting (cancelled while pending, or refused
 * at submission: NodeList "None assigned").  Anything
 * else that cannot be read is an error naming file, line and field.
 */
#ifndef MESH_SACCT_H
#define MESH_SACCT_H

#include <stddef.h>
#include <stdio.h>

#include "diag.h"
#include "swf.h"

/* What the SWF processor fields count. */
enum mesh_sacct_count {
	MESH_SACCT_NODES, /* NNodes, ReqNodes: a job's nodes (default) */
	MESH_SACCT_CPUS   /* AllocCPUS, ReqCPUS */
};

/* Slurm's final job states, each with its SWF status. */
#define MESH_SACCT_STATES 9

struct mesh_sacct_trace {
	struct mesh_swf_trace *swf; /* in submit order; submit in epoch s */
	double first_submit;        /* the earliest submit, epoch s */
	size_t records;             /* data lines read */
	size_t steps;               /* step records ("123.batch"): use -X */
	size_t unfinished;          /* pending, running, suspended, ... */
	size_t never_started;       /* ended with no start or no nodes */
	size_t state_jobs[MESH_SACCT_STATES]; /* jobs per final state */
	char **partitions; /* SWF partition k is partitions[k - 1] */
	size_t n_partitions;
};

/** \brief Slurm's name of final state k (0..MESH_SACCT_STATES-1), e.g.
 *  "TIMEOUT", and its SWF status in *swf_status (1 completed, 0 failed,
 *  5 cancelled). */
const char *mesh_sacct_state(int k, int *swf_status);

/** \brief Read sacct --parsable2 output.  name is used in diagnostics.
 *  \param[out] out filled; free with mesh_sacct_free().
 *  \return 0, or MESH_EPARSE/MESH_EIO/MESH_ENOMEM with d set (nothing
 *  is returned on error). */
int mesh_sacct_read(FILE *f, const char *name, enum mesh_sacct_count count,
		    struct mesh_sacct_trace *out, struct mesh_diag *d);

/** \brief Open and read path. */
int mesh_sacct_load(const char *path, enum mesh_sacct_count count,
		    struct mesh_sacct_trace *out, struct mesh_diag *d);

/** \brief Free what mesh_sacct_read() filled; a zeroed struct is fine. */
void mesh_sacct_free(struct mesh_sacct_trace *t);

#endif
