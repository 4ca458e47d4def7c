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
 *   - MESH_WL_PODS: communicating jobs of listed sizes (accelerator pods
 *     on a torus: 1, 2, 4, ... 32 by default), each size equally likely,
 *     log-uniform runtimes, estimates above them (ours).
 */
#ifndef MESH_WORKLOAD_H
#define MESH_WORKLOAD_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "alloc.h"

enum mesh_workload {
	MESH_WL_MACHE,
	MESH_WL_OZDEN,
	MESH_WL_BLUEGENE,
	MESH_WL_PODS
};

#define MESH_WL_MAX_SIZES 16

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
	/* pods: the job sizes, each equally likely (capped to max_nodes) */
	uint32_t sizes[MESH_WL_MAX_SIZES];
	size_t n_sizes;
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

/** \brief Parse "mache", "ozden", "bluegene" or "pods"; -1 if none. */
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

/* Attributes for the jobs of an existing trace (meshsim-gen attrs), from
 * stated distributions (doc/workloads.md):
 *   - a job does I/O with probability io_fraction; its I/O share is then
 *     uniform in [io_lo, io_hi], else 0;
 *   - its pattern is comm, or with MESH_COMM_UNKNOWN one of all-to-all,
 *     nearest, chain, one-to-all and none, equally likely;
 *   - its communication share is uniform in [comm_lo, comm_hi] (0 for
 *     none), cut to 1 minus its I/O share;
 *   - with phases, an I/O job is phased: compute phases uniform in
 *     100-600 s, checkpoints as long as keeps its I/O share. */
struct mesh_attrgen_opts {
	uint64_t seed;
	double io_fraction, io_lo, io_hi;
	enum mesh_comm comm;
	double comm_lo, comm_hi;
	int phases;
};

/** \brief Defaults: seed 0, half the jobs doing 5-50% I/O, all-to-all at
 *  10-50%, no phases. */
void mesh_attrgen_defaults(struct mesh_attrgen_opts *o);

/** \brief Attributes for n jobs of ids[0..n), deterministic in o->seed
 *  and the ids.  \param[out] out n entries (caller's; only the attribute
 *  fields and the id are set).  \return 0 or MESH_EINVAL. */
int mesh_attrgen(const struct mesh_attrgen_opts *o, const long *ids, size_t n,
		 struct mesh_gen_job *out);

/** \brief Write a sidecar of n jobs; the header line records the
 *  command (note).  \return 0 or MESH_EIO. */
int mesh_attrs_write(FILE *f, const char *note, const struct mesh_gen_job *jobs,
		     size_t n);

#endif
