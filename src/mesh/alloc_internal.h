/* alloc_internal.h - what an allocator implementation provides.
 * Private to the library; never installed. */
#ifndef MESH_ALLOC_INTERNAL_H
#define MESH_ALLOC_INTERNAL_H

#include "alloc.h"
#include "freenodes.h"

struct mesh_alloc_ops {
	/* Parse params and set a->priv.  Optional. */
	int (*create)(struct mesh_allocator *a, const char *params,
		      struct mesh_diag *d);
	void (*destroy)(struct mesh_allocator *a);
	/* Place req->nodes nodes from v->free (required nodes already
	 * removed from the request and from v->free by the caller). */
	int (*place)(struct mesh_allocator *a, const struct mesh_view *v,
		     const struct mesh_request *req, uint32_t *out);
	/* Optional (needed by sl:<base>): enumerate the placements that
	 * place() considers equally good, the one place() returns first.
	 * Each is passed to cb in buf (req->nodes entries, owned by the
	 * caller); enumeration stops when cb returns non-zero.  Same
	 * preconditions and errors as place(). */
	int (*candidates)(struct mesh_allocator *a, const struct mesh_view *v,
			  const struct mesh_request *req, uint32_t *buf,
			  int (*cb)(void *ctx, const uint32_t *nodes),
			  void *ctx);
};

/* May the registry run the allocator on a cropped sub-mesh (alloc.c,
 * crop.c)?
 * Only if its answer depends on nothing but the free nodes, their L1
 * geometry, node index order and a->gdim; see doc/design.md, "Sparse
 * meshes". */
enum mesh__crop_policy {
	MESH__CROP_NEVER = 0,
	MESH__CROP_FREE, /* the bounding box of the free nodes */
};

struct mesh_alloc_entry {
	struct mesh_alloc_info info;
	const struct mesh_alloc_ops *ops;
	int variant; /* allocator-specific selector */
	enum mesh__crop_policy crop;
};

struct mesh__crop; /* crop.h: the cached sub-mesh */

struct mesh_allocator {
	const struct mesh_topo *topo;
	const struct mesh_alloc_entry *entry;
	char *name;
	void *priv;
	/* Scratch owned by the dispatcher for required-node handling. */
	struct mesh_bitmap *scratch_free;
	/* For wrappers (sl:<base>): the wrapped allocator. */
	struct mesh_allocator *base;
	char *params; /* as given to create, or NULL */
	/* Flags a composite adds to its entry's for the allocators it
	 * created (box-first over sl:contig-bf uses walltimes). */
	unsigned added_flags;
	/* The dimensions the allocator decides for: topo->dim, except in
	 * an allocator created for a crop, where they are the whole mesh's.
	 * Whatever depends on the mesh's extent (which shapes fit, how far
	 * a shell reaches) reads these, not topo->dim. */
	int gdim[MESH_MAX_DIMS];
	enum mesh_sparse_mode sparse;
	/* mesh_alloc_set_usable(): free nodes lie in blo..bhi (inclusive) */
	int bounded;
	int blo[MESH_MAX_DIMS], bhi[MESH_MAX_DIMS];
	unsigned long sparse_used; /* decisions that took a sparse path */
	/* The registry's crop (alloc.c): the box's sub-mesh and the
	 * allocator of the same name on it; both NULL, or both set. */
	struct mesh__crop *crop;
	struct mesh_allocator *crop_sub;
};

/* mesh_alloc_create() deciding for a mesh of dimensions gdim (a crop's
 * allocator: gdim are the whole mesh's; see struct mesh_allocator). */
int mesh__alloc_create_geom(const struct mesh_topo *t, const char *name,
			    const char *params, const int *gdim,
			    struct mesh_allocator **out, struct mesh_diag *d);

/* a's own placement, on a crop when that applies (alloc.c): what
 * mesh_alloc_place() runs after the request's checks, for allocators
 * that place through a base allocator (auto). */
int mesh__alloc_run(struct mesh_allocator *a, const struct mesh_view *v,
		    const struct mesh_request *req, uint32_t *out);

/* mesh__alloc_run() of part, an allocator that the composite a created,
 * with a's sparse mode and bounds (mesh_alloc_set_usable() reaches only
 * a's base chain); part's sparse decisions are counted as a's. */
int mesh__alloc_run_part(struct mesh_allocator *a, struct mesh_allocator *part,
			 const struct mesh_view *v,
			 const struct mesh_request *req, uint32_t *out);

/* Parameter helpers (params.c): look up "key" in "k=v,k=v"; 1 if
 * found. */
int mesh__param_get(const char *params, const char *key, char *val, size_t len);
/* Reject keys not in the NULL-terminated list; fills d. */
int mesh__param_check(const char *params, const char *const *known,
		      const char *alloc_name, struct mesh_diag *d);
int mesh__param_uint(const char *params, const char *key, unsigned long min,
		     unsigned long max, unsigned long *val,
		     struct mesh_diag *d);

/* The block hierarchy of a buddy system (alloc_mbs.c), shared with the
 * reference implementation in test/reference.c. */
struct mesh__mbs_block {
	int lo[3], ext[3];
	int32_t child;  /* first child, -1 for a leaf */
	int32_t sib;    /* next sibling, -1 for the last */
	int32_t parent; /* -1 for a top-level block */
	uint8_t level;  /* log_base of the volume */
	uint32_t order; /* free-list order: lower first (see alloc_mbs.c) */
};

/* The blocks of an mbs* allocator (owned by it), the base (4, 8 or 2)
 * and the number of levels; MESH_EINVAL for any other allocator. */
int mesh__mbs_hierarchy(const struct mesh_allocator *a,
			const struct mesh__mbs_block **blocks, uint32_t *nb,
			int *base, int *levels);

/* mm-inc on tori: sums below limit take the 32-bit pair loop (the
 * default, INT32_MAX, admits every sum that fits); tests pass 0 for
 * the 64-bit one.  MESH_EINVAL for any other allocator. */
int mesh__mm_set_narrow_limit(struct mesh_allocator *a, int64_t limit);

/* Ops tables, one per allocator family. */
extern const struct mesh_alloc_ops mesh__curve_ops;
extern const struct mesh_alloc_ops mesh__mc_ops;
extern const struct mesh_alloc_ops mesh__genalg_ops;
extern const struct mesh_alloc_ops mesh__mm_ops;
extern const struct mesh_alloc_ops mesh__paging_ops;
extern const struct mesh_alloc_ops mesh__random_ops;
extern const struct mesh_alloc_ops mesh__contig_ops;
extern const struct mesh_alloc_ops mesh__mbs_ops;
extern const struct mesh_alloc_ops mesh__plas_ops;
extern const struct mesh_alloc_ops mesh__mce_ops;
extern const struct mesh_alloc_ops mesh__sl_ops;
extern const struct mesh_alloc_ops mesh__auto_ops;
extern const struct mesh_alloc_ops mesh__box_ops;

#endif
