/* contention.h - network load of running jobs and the slowdown it causes
 * (meshsim --runtime-model contention).
 *
 * Traffic is counted as Mache does in Ch. VI of his dissertation: the
 * load of a directed link is the number of sender-receiver pairs whose
 * dimension-ordered route uses it.  A job has two kinds of traffic:
 *   - its communication pattern among its own nodes (enum mesh_comm);
 *   - its parallel I/O, the complete bipartite write traffic from its
 *     nodes to every I/O node.
 * Each kind is present in the network in proportion to the share of the
 * job's runtime spent in that phase.  A job in a phase meets its own
 * traffic of that kind plus the weighted traffic of every other running
 * job; the phase is slowed by the bottleneck link it uses, relative to a
 * reference load that no placement can beat.  doc/runtime-models.md
 * gives the formulas.
 */
#ifndef MESH_CONTENTION_H
#define MESH_CONTENTION_H

#include <stddef.h>
#include <stdint.h>

#include "alloc.h"
#include "topo.h"

/* The links of one running job: sparse, in slot order (ioload.h's
 * numbering: node * 6 + axis * 2 + (1 for the - direction)). */
struct mesh_job_traffic {
	size_t n_links;
	uint32_t *link;
	double *comm;                /* pairs of its pattern on each link */
	double *io;                  /* pairs of its I/O traffic on each link */
	double comm_share, io_share; /* runtime shares of the two phases */
	double comm_ref, io_ref;     /* reference bottlenecks, >= 1 */
};

/* All running jobs' weighted load, link by link. */
struct mesh_net;

/** \brief Create an empty network for t.
 *  \return 0 or MESH_ENOMEM; *out untouched on error. */
int mesh_net_create(const struct mesh_topo *t, struct mesh_net **out);

/** \brief Free; NULL is a no-op. */
void mesh_net_destroy(struct mesh_net *n);

/** \brief Compute the traffic of a job on nodes[0..k) (rank order).
 *  \param comm pattern (UNKNOWN and NONE: no communication traffic);
 *  \param comm_share, io_share runtime shares in [0, 1], sum <= 1.  The
 *  I/O loads are computed whenever t has I/O nodes, even with io_share
 *  0, for the I/O metrics; without I/O nodes they are 0.
 *  \param[out] out filled; free with mesh_job_traffic_free().
 *  \return 0, MESH_EINVAL (bad node or share) or MESH_ENOMEM. */
int mesh_net_traffic(struct mesh_net *n, const uint32_t *nodes, size_t k,
		     enum mesh_comm comm, double comm_share, double io_share,
		     struct mesh_job_traffic *out);

void mesh_job_traffic_free(struct mesh_job_traffic *tr);

/** \brief Add (sign 1) or remove (sign -1) a running job's weighted load. */
void mesh_net_add(struct mesh_net *n, const struct mesh_job_traffic *tr,
		  int sign);

/** \brief Stretch of a running job (already added): wall seconds per
 *  second of trace runtime, (1 - c - i) + c * s_comm + i * s_io, where
 *  s_kind = max(1, bottleneck / reference).  s_comm and s_io may be
 *  NULL. */
double mesh_net_stretch(const struct mesh_net *n,
			const struct mesh_job_traffic *tr, double *s_comm,
			double *s_io);

/** \brief max_contention of the I/O write traffic of all running jobs
 *  together (Mache, Ch. VI-VII): the largest unweighted I/O load on any
 *  link; O(links). */
double mesh_net_io_max_contention(const struct mesh_net *n);

/** \brief Largest load of one kind on any link of the job alone
 *  (max_contention of its I/O traffic when kind_io is nonzero). */
double mesh_job_traffic_max(const struct mesh_job_traffic *tr, int kind_io);

#endif
