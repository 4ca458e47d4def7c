/* contention.h - the shared resources of the runtime models and the
 * slowdown that running jobs cause each other (doc/runtime-models.md).
 *
 * A job's phase is a set of flows of equal volume (traffic.h).  Every
 * resource has a capacity in GB/s: a link per direction, a node's
 * injection and ejection, an I/O node's service, the file system.  Alone,
 * a phase's flows run at the rate its tightest resource allows,
 *   x0 = min over resources r of capacity(r) / count(r).
 * Among other jobs, resource r also carries their demand D(r): the
 * rates at which they use it, each weighted by the share of its time
 * the job spends in that phase (1 or 0 for a job that is in or out of a
 * burst).  Where the phase's own demand count(r) x0 and D(r) together
 * exceed the capacity, r is shared in proportion to demand, so
 *   x = x0 * min over r of min(1, capacity(r) / (count(r) x0 + D(r))).
 * The phase's slowdown is ref / x (at least 1), where ref is x0 of the
 * same phase in the best placement the model knows for the job: a job
 * alone on an empty machine, placed at its best, runs at its trace
 * runtime.
 */
#ifndef MESH_CONTENTION_H
#define MESH_CONTENTION_H

#include <stddef.h>
#include <stdint.h>

#include "bitmap.h"
#include "traffic.h"

/* Capacities in GB/s; INFINITY (or any value <= 0 given by a user,
 * mapped by the caller) means unlimited. */
struct mesh_net_params {
	double link_bw; /* one direction of one link */
	double node_bw; /* a node's injection, and its ejection */
	double ion_bw;  /* an I/O node's writes to storage */
	double fs_bw;   /* the parallel file system */
};

/* Which resources a model has. */
enum mesh_net_part {
	MESH_NET_NETWORK = 1u << 0, /* links, injection, I/O nodes */
	MESH_NET_FS = 1u << 1,      /* the file system */
};

/** \brief The defaults: 12.5 GB/s links and nodes (Özden et al.'s 100
 *  Gbit/s), I/O nodes at a sixth of a link (Mache's f = B_l / B_0 = 6,
 *  Ch. VI, from the Intel TFLOPS's 380 and 64 MB/s), a 48 GB/s file
 *  system (Özden et al.). */
void mesh_net_params_init(struct mesh_net_params *p);

/* One running job's phases on the resources: one list of the resources
 * either phase uses, with both counts. */
struct mesh_job_load {
	size_t n;
	uint32_t *res;
	double *comm, *io;          /* flow counts of each phase */
	double comm_x0, io_x0;      /* per-flow rate alone, here */
	double comm_ref, io_ref;    /* per-flow rate alone, best placement */
	double w_comm, w_io;        /* its weights in the totals now */
	double io_flows;            /* flows of its I/O phase */
	struct mesh_flows io_pairs; /* Mache's I/O pair counts (metrics) */
};

struct mesh_net;

/** \brief A network for t.
 *  \param parts enum mesh_net_part, or 0 for the I/O metrics alone (no
 *  phase is slowed); \param usable positions jobs may use (for the best
 *  placements), or NULL for all.
 *  \return 0, MESH_EINVAL (a NaN or non-positive capacity) or
 *  MESH_ENOMEM; *out untouched on error. */
int mesh_net_create(const struct mesh_topo *t, const struct mesh_net_params *p,
		    unsigned parts, const struct mesh_bitmap *usable,
		    struct mesh_net **out);

/** \brief Free; NULL is a no-op. */
void mesh_net_destroy(struct mesh_net *n);

/** \brief The load of a job on nodes[0..k) (rank order) with pattern p,
 *  its alone and best rates; weights 0 (not yet in the totals).
 *  \param[out] out free with mesh_job_load_free().
 *  \return 0, MESH_EINVAL (see mesh_traffic_comm()) or MESH_ENOMEM. */
int mesh_net_job(struct mesh_net *n, const uint32_t *nodes, size_t k,
		 const struct mesh_pattern *p, struct mesh_job_load *out);

void mesh_job_load_free(struct mesh_job_load *l);

/** \brief Set the job's weights in the totals (the share of its time in
 *  each phase now); 0, 0 takes it out.  The first non-zero weighing also
 *  adds its I/O pairs to the metrics' totals, 0, 0 removes them. */
void mesh_net_weigh(struct mesh_net *n, struct mesh_job_load *l, double w_comm,
		    double w_io);

/** \brief Slowdown (>= 1) of the job's communication (io = 0) or I/O
 *  (io = 1) phase while it is in that phase and the other jobs are at
 *  their weights; 1 for a phase without flows. */
double mesh_net_slowdown(const struct mesh_net *n,
			 const struct mesh_job_load *l, int io);

/** \brief The I/O write rate of the job alone in its placement, GB/s
 *  (the volume a checkpoint moves per second); 0 without I/O flows. */
double mesh_net_io_rate(const struct mesh_job_load *l);

/** \brief max_contention of all running jobs' I/O writes together
 *  (Mache, Ch. VI-VII): the most I/O pairs on one link. */
double mesh_net_io_max_contention(const struct mesh_net *n);

#endif
