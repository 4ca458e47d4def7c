/* workload.h - seeded synthetic workloads from the source papers, written
 * as an SWF trace plus a job-attribute sidecar (meshsim-gen).
 *
 * Three models (doc/workloads.md gives every parameter and the choices
 * the papers leave open):
 *   - MESH_WL_MACHE: Mache's I/O-intensive Workload I (000_*, Ch. VII,
 *     Table 7): exponential sizes (mean 16) and inter-arrival times, all
 *     jobs I/O bound (complete bipartite write traffic);
 *   - MESH_WL_OZDEN: Özden et al.'s jobs of compute and checkpoint phases
 *     (003_*): 2-20 nodes, 10-25 repetitions, bursts of I/O-heavy jobs;
 *   - MESH_WL_BLUEGENE: a Blue-Gene-like workload for Tang et al. (002_*):
 *     sizes in midplanes (1, 2, 4, ... 64 of 512 nodes), user estimates
 *     above the runtimes.  The Intrepid trace itself is not available.
 */
#ifndef MESH_WORKLOAD_H
#define MESH_WORKLOAD_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "alloc.h"

enum mesh_workload { MESH_WL_MACHE, MESH_WL_OZDEN, MESH_WL_BLUEGENE };

struct mesh_workload_opts {
	enum mesh_workload kind;
	size_t jobs; /* > 0 */
	uint64_t seed;
	uint32_t max_nodes;  /* machine size: sizes are capped to it */
	double interarrival; /* mean seconds, > 0 */
	double io_fraction;  /* share of I/O-bound jobs (mache), 0..1 */
	/* mache: an I/O-bound job's I/O share of its traffic, the rest
	 * all-to-all communication (Mache's Table 9); < 0: all I/O. */
	double io_ratio;
	double io_scale;      /* ozden: multiplies checkpoint volumes, > 0 */
	double runtime_scale; /* multiplies every runtime, > 0 */
};

struct mesh_gen_job {
	long id;
	double submit, run, req_time;
	uint32_t size;
	long user;
	double io_intensity; /* runtime share of I/O */
	double comm_share;   /* runtime share of communication */
	double io_volume;    /* GB */
	enum mesh_comm comm;
	double compute_phase, checkpoint_phase; /* s; 0 if not phased */
};

/** \brief The model's defaults for kind (interarrival, machine size,
 *  ...); seed 0, 1000 jobs. */
void mesh_workload_defaults(enum mesh_workload kind,
			    struct mesh_workload_opts *o);

/** \brief Parse "mache", "ozden" or "bluegene"; -1 if none. */
int mesh_workload_parse(const char *name);

/** \brief Name of a workload kind; static storage. */
const char *mesh_workload_name(enum mesh_workload kind);

/** \brief Generate o->jobs jobs, in submit order, deterministic in
 *  o->seed.  \param[out] out array of o->jobs entries (caller's).
 *  \return 0 or MESH_EINVAL (bad option). */
int mesh_workload_generate(const struct mesh_workload_opts *o,
			   struct mesh_gen_job *out);

/** \brief Write the jobs as SWF (with a header naming the generator,
 *  model, seed and options) and, if attrs is not NULL, as a sidecar.
 *  \return 0 or MESH_EIO. */
int mesh_workload_write(const struct mesh_workload_opts *o,
			const struct mesh_gen_job *jobs, FILE *swf,
			FILE *attrs);

#endif
