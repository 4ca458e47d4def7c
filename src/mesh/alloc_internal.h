/* alloc_internal.h - what an allocator implementation provides.
 * Private to the library; never installed. */
#ifndef MESH_ALLOC_INTERNAL_H
#define MESH_ALLOC_INTERNAL_H

#include "alloc.h"

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

/* May the dispatcher run the allocator on a cropped sub-mesh (crop.c)?
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

struct mesh__crop; /* crop.c: the cached sub-mesh and its allocator */

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
	struct mesh__crop *crop;
};

/* mesh_alloc_create() deciding for a mesh of dimensions gdim (a crop's
 * allocator: gdim are the whole mesh's; see struct mesh_allocator). */
int mesh__alloc_create_geom(const struct mesh_topo *t, const char *name,
			    const char *params, const int *gdim,
			    struct mesh_allocator **out, struct mesh_diag *d);

/* Run a->entry->ops->place on the bounding box of the free nodes when
 * the allocator allows it and it pays (crop.c).  Returns 1 with *rc set
 * and out[] in whole-mesh indices if it did, 0 if the caller must place
 * on the whole mesh. */
int mesh__crop_place(struct mesh_allocator *a, const struct mesh_view *v,
		     const struct mesh_request *req, uint32_t *out, int *rc);
void mesh__crop_destroy(struct mesh__crop *c);

/* Order-based allocators (curves, plas) on sparse meshes: 1, counted in
 * a->sparse_used, if this decision should read the free nodes instead of
 * scanning the order (at most 1/64 of the nodes free, per a->sparse). */
int mesh__sparse_wanted(struct mesh_allocator *a, const struct mesh_view *v);
/* pos[node] of every free node into buf, ascending; returns how many. */
uint32_t mesh__free_sorted(const struct mesh_allocator *a,
			   const struct mesh_bitmap *f, const uint32_t *pos,
			   uint32_t *buf);
/* Free nodes of f, within a's usable box if it has one. */
uint32_t mesh__free_count(const struct mesh_allocator *a,
			  const struct mesh_bitmap *f);
/* fn(ctx, node) for every free node of f in ascending order (within a's
 * usable box if any) until fn returns non-zero; returns that value. */
int mesh__free_each(const struct mesh_allocator *a, const struct mesh_bitmap *f,
		    int (*fn)(void *ctx, uint32_t node), void *ctx);

/* Parameter helpers: look up "key" in "k=v,k=v"; 1 if found. */
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

#endif
