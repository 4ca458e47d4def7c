/* alloc.h - the allocator interface shared by meshsim and select/mesh.
 *
 * An allocator is created once per mesh from a name such as "snake-bf",
 * "mc1x1" or "sl:mc1x1", and then asked, any number of times, to choose
 * nodes for one job given the current view of the machine.  Allocators
 * keep no occupancy of their own: the view passed to every call is the
 * whole truth, which is what lets the Slurm plugin rebuild its state from
 * the job list after a restart.
 *
 * An allocator object owns scratch memory and is not thread-safe; the
 * caller serialises calls (the plugin holds its mutex).
 */
#ifndef MESH_ALLOC_H
#define MESH_ALLOC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bitmap.h"
#include "diag.h"
#include "topo.h"

/* The machine as one allocation sees it. */
struct mesh_view {
	const struct mesh_topo *topo;
	const struct mesh_bitmap *free; /* nodes that may be given out */
	/* Expected end time of the job holding each busy node, or NULL.
	 * Used by walltime-aware allocators (sl:*). */
	const double *end_time;
	double now;
};

/* A job's communication pattern among its own nodes (job hints, the
 * meshsim job-attribute sidecar and the contention runtime model).  Ranks
 * are the job's nodes in the order the allocator returned them. */
enum mesh_comm {
	MESH_COMM_UNKNOWN = 0, /* not given: the caller's default applies */
	MESH_COMM_NONE,        /* no inter-node traffic */
	MESH_COMM_ALL_TO_ALL,  /* every rank to every other rank */
	MESH_COMM_ONE_TO_ALL,  /* rank 0 to every other rank */
	/* a 2D/3D stencil: each rank to its neighbours on the job's own
	 * logical grid (its shape, else a near-cubic one; traffic.h) */
	MESH_COMM_NEAREST,
	MESH_COMM_CHAIN, /* rank i to ranks i-1 and i+1 */
	/* listed rank pairs (meshsim's job attributes); not parsed by name */
	MESH_COMM_PAIRS,
};
#define MESH_COMM_LAST MESH_COMM_PAIRS

/** \brief Parse "none", "all-to-all", "one-to-all", "nearest" or
 *  "chain".
 *  \return the pattern, or MESH_COMM_UNKNOWN if s names none of them. */
enum mesh_comm mesh_comm_parse(const char *s);

/** \brief Name of a pattern as mesh_comm_parse() reads it ("unknown"
 *  for MESH_COMM_UNKNOWN); static storage. */
const char *mesh_comm_name(enum mesh_comm c);

enum mesh_request_flags {
	MESH_REQ_CONTIGUOUS = 1u << 0, /* only a contiguous sub-mesh */
};

/* One job's request.  Zero-initialise, then set what is known. */
struct mesh_request {
	uint32_t nodes;           /* k >= 1 */
	int shape[MESH_MAX_DIMS]; /* requested shape, 0 = none */
	double end_time;          /* expected end; <= 0 if unknown */
	double io_intensity;      /* 0..1; < 0 if unknown */
	enum mesh_comm comm;      /* MESH_COMM_UNKNOWN if not given */
	uint64_t seed;            /* for randomised allocators */
	unsigned flags;           /* enum mesh_request_flags */
	/* Nodes that must be part of the answer (Slurm --nodelist). */
	const uint32_t *required;
	size_t n_required;
};

enum mesh_alloc_flags {
	/* Refuses unless a contiguous block exists (may refuse with >= k
	 * free nodes); every other allocator places whenever k are free. */
	MESH_ALLOC_CONTIGUOUS_ONLY = 1u << 0,
	MESH_ALLOC_USES_SHAPE = 1u << 1,
	MESH_ALLOC_USES_IO = 1u << 2,
	MESH_ALLOC_USES_WALLTIME = 1u << 3,
	/* Buddy systems: may refuse when blocks cannot cover k. */
	MESH_ALLOC_MAY_REFUSE = 1u << 4,
};

struct mesh_allocator;

struct mesh_alloc_info {
	const char *name;
	const char *summary; /* one line, with the paper reference */
	unsigned flags;      /* enum mesh_alloc_flags */
};

/** \brief Number of built-in allocators. */
size_t mesh_alloc_count(void);

/** \brief Description of built-in allocator i (< mesh_alloc_count()),
 *  in a stable order; static storage. */
const struct mesh_alloc_info *mesh_alloc_describe(size_t i);

/** \brief Create an allocator.
 *  \param name e.g. "hilbert-bf", "mc1x1", "sl:mc1x1".
 *  \param params "key=value[,key=value]" or NULL (allocator specific).
 *  \param[out] out new allocator; free with mesh_alloc_destroy().
 *  \return 0; MESH_ENOENT (unknown name), MESH_EINVAL (bad parameter)
 *  or MESH_ENOMEM, described in d; *out untouched on error.
 *  The topology must outlive the allocator. */
int mesh_alloc_create(const struct mesh_topo *t, const char *name,
		      const char *params, struct mesh_allocator **out,
		      struct mesh_diag *d);

/** \brief The first built-in allocator that places only contiguous
 *  sub-meshes (MESH_ALLOC_CONTIGUOUS_ONLY) and accepts t: what a Slurm
 *  plugin falls back to for a --contiguous job when its own allocator
 *  returned a scattered set.
 *  \return 0, or MESH_ENOENT if none accepts t; *out untouched then. */
int mesh_alloc_create_contiguous(const struct mesh_topo *t,
				 struct mesh_allocator **out);

/** \brief Free; NULL is a no-op. */
void mesh_alloc_destroy(struct mesh_allocator *a);

/** \brief Name the allocator was created with. */
const char *mesh_alloc_name(const struct mesh_allocator *a);

/** \brief Flags (enum mesh_alloc_flags) of the allocator. */
unsigned mesh_alloc_flags(const struct mesh_allocator *a);

/* Sparse meshes: positions far outnumber the nodes that can be free
 * (a mesh.conf naming 32 nodes in Dimensions=2048x2048).  Allocators
 * whose answer depends only on the free nodes' geometry then run on the
 * bounding box of the free nodes, and the curve fits build their run
 * list from the free nodes; the answers are the same as on the whole
 * mesh (doc/design.md, "Sparse meshes"). */
enum mesh_sparse_mode {
	MESH_SPARSE_AUTO = 0, /* when it pays (the default) */
	MESH_SPARSE_OFF,      /* always the whole mesh */
	MESH_SPARSE_ALWAYS,   /* whenever possible (tests) */
};

/** \brief Set the sparse mode (also of a wrapped base allocator). */
void mesh_alloc_set_sparse(struct mesh_allocator *a, enum mesh_sparse_mode m);

/** \brief Declare that only positions set in usable are ever free in
 *  the views given to a (select/mesh: the positions of named nodes).
 *  Per-decision passes over the free map then cover only the bounding
 *  box of usable, and free positions outside that box are ignored.  NULL
 *  lifts the bound.  Applies to a wrapped base too.
 *  \return 0, or MESH_EINVAL if usable is not of the mesh's size. */
int mesh_alloc_set_usable(struct mesh_allocator *a,
			  const struct mesh_bitmap *usable);

/** \brief Decisions so far that took a sparse path (a crop or the curve
 *  fits' free-node run list), including a wrapped base's. */
unsigned long mesh_alloc_sparse_count(const struct mesh_allocator *a);

/** \brief Choose req->nodes distinct free nodes.
 *  \param[out] out array of at least req->nodes entries; receives node
 *  indices (all in v->free, all distinct, required nodes included).
 *  \return 0; MESH_EINVAL (k == 0, k > nodes, required node not free or
 *  duplicated); MESH_ENOSPC (fewer than k free, or none of the
 *  allocator's placements fits).  out is unspecified on error. */
int mesh_alloc_place(struct mesh_allocator *a, const struct mesh_view *v,
		     const struct mesh_request *req, uint32_t *out);

/** \brief The allocator that Allocator=auto uses for req on t: with I/O
 *  nodes and I/O intensity >= threshold, "mc-elongated" (comm
 *  all-to-all, one-to-all or nearest) or "plas" (otherwise); else
 *  "hilbert-bf" (comm none), or for every other job "mc1x1" on a mesh
 *  and "box-first" on a torus; static storage.  doc/allocators.md gives
 *  the reasons (Mache Ch. V, VII, VIII) and the measurements. */
const char *mesh_auto_choice(const struct mesh_topo *t,
			     const struct mesh_request *req, double threshold);

#endif
