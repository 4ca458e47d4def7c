/* conf.h - mesh.conf: where each Slurm node sits in the mesh, and which
 * allocator places jobs.
 *
 * Slurm-style "Key=Value" pairs, several per line, keys case-insensitive,
 * '#' starts a comment.  See doc/mesh.conf.5 for the full syntax:
 *
 *   Dimensions=4x4            # 't' after a length = wraparound
 *   Nodes=n[0-15]             # mapped x fastest, then y, then z
 *   NodeOrder=xyz             # optional permutation, first = fastest
 *   NodeName=n3 Coord=0,3     # explicit position (overrides the order)
 *   IONodes=0,0;3,3           # coordinates, or a hostlist of node names
 *   Allocator=mc1x1
 *   AllocatorParameters=k=v,k=v
 *   Curve=hilbert             # node ranking of topology/mesh
 *   DefaultMeshShape=4x2      # per-job hint defaults (hints.h)
 *   DefaultIOIntensity=0.2
 *   DefaultComm=nearest
 *   PlanMaxPlacements=1024    # bound on select/mesh's WILL_RUN search
 *   PlanMaxTime=0.05          # (seconds; plan.h)
 *   CoresPerNode=8            # meshsim: a trace's processors per node
 *   LinkBandwidth=12.5        # the runtime models' capacities, GB/s
 *   NodeBandwidth=12.5        # (meshsim; inf = unlimited)
 *   IONodeBandwidth=2.08
 *   FileSystemBandwidth=48
 *
 * Every problem is reported through struct mesh_diag with the file, the
 * line and the key; nothing is guessed or silently repaired.
 */
#ifndef MESH_CONF_H
#define MESH_CONF_H

#include <stddef.h>
#include <stdint.h>

#include "contention.h"
#include "curve.h"
#include "diag.h"
#include "hints.h"
#include "topo.h"

struct mesh_conf_entry {
	const char *name; /* points into node_name[] */
	uint32_t idx;     /* mesh index */
};

/* The defaults of PlanMaxPlacements= and PlanMaxTime=. */
#define MESH_CONF_PLAN_MAX_PLACES 1024
#define MESH_CONF_PLAN_MAX_SECONDS 0.05
/* The largest CoresPerNode= (and meshsim's --cores-per-node). */
#define MESH_CONF_MAX_CORES 4096u

/* Read-only for users; create with mesh_conf_load()/mesh_conf_parse(). */
struct mesh_conf {
	char *path;             /* file name used in diagnostics */
	struct mesh_topo *topo; /* with the I/O node set applied */
	/* node_name[i] is the node at mesh index i, or NULL when the
	 * position holds no node (such positions are never allocated). */
	char **node_name;
	long *node_line;  /* line that placed node_name[i], or 0 */
	uint32_t n_named; /* non-NULL entries of node_name */
	struct mesh_conf_entry *by_name; /* sorted by name, n_named long */
	char *allocator;                 /* registry name, validated */
	char *alloc_params;              /* "k=v,k=v" or NULL */
	long nodes_line;       /* line of the first Nodes=/NodeName= key */
	enum mesh_curve curve; /* Curve=, MESH_CURVE_HILBERT if not given */
	/* DefaultMeshShape=, DefaultIOIntensity=, DefaultComm=: what a job
	 * that gives no hint of its own is taken to say (unset = none). */
	struct mesh_job_hints hint_defaults;
	/* PlanMaxPlacements=, PlanMaxTime=: mesh_plan_query's max_places
	 * and max_seconds for select/mesh's WILL_RUN (0 = no bound). */
	size_t plan_max_places;
	double plan_max_seconds;
	/* CoresPerNode=: how many of a trace's processors make a node
	 * (meshsim, sim.h's cores_per_node); 0 when not given.  The
	 * plugins take cores from Slurm's node records instead. */
	uint32_t cores_per_node;
	/* LinkBandwidth= ... FileSystemBandwidth=: the runtime models'
	 * capacities, the defaults where not given; bit i of net_set says
	 * the i-th key (in struct order) was given. */
	struct mesh_net_params net;
	unsigned net_set;
};

/** \brief Read and validate a mesh.conf file.
 *  \param[out] out new configuration; free with mesh_conf_destroy().
 *  \return 0; MESH_EIO (cannot read), MESH_EPARSE, MESH_ERANGE,
 *  MESH_EINVAL or MESH_ENOENT (unknown allocator) described in d with
 *  file, line (> 0 for every problem inside the file) and key, or
 *  MESH_ENOMEM.  *out untouched on error. */
int mesh_conf_load(const char *path, struct mesh_conf **out,
		   struct mesh_diag *d);

/** \brief Like mesh_conf_load() on text already in memory.
 *  \param name file name used in diagnostics. */
int mesh_conf_parse(const char *text, size_t len, const char *name,
		    struct mesh_conf **out, struct mesh_diag *d);

/** \brief Free; NULL is a no-op. */
void mesh_conf_destroy(struct mesh_conf *c);

/** \brief Mesh index of a node name.
 *  \return 0 with *idx set, or MESH_ENOENT. */
int mesh_conf_lookup(const struct mesh_conf *c, const char *name,
		     uint32_t *idx);

/** \brief Check the mesh against the node names Slurm knows: every Slurm
 *  node must sit in the mesh and every mesh node must exist in Slurm.
 *  \return 0, or MESH_ENOENT described in d (first problem only). */
int mesh_conf_validate_nodes(const struct mesh_conf *c,
			     const char *const *names, size_t n,
			     struct mesh_diag *d);

/** \brief "DIR/mesh.conf" for the slurm.conf path given (or "mesh.conf"
 *  when it has no directory part) into buf.
 *  \return 0, or MESH_ERANGE if buf is too small. */
int mesh_conf_path_near(const char *slurm_conf, char *buf, size_t len);

#endif
