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

struct mesh_alloc_entry {
	struct mesh_alloc_info info;
	const struct mesh_alloc_ops *ops;
	int variant; /* allocator-specific selector */
};

struct mesh_allocator {
	const struct mesh_topo *topo;
	const struct mesh_alloc_entry *entry;
	char *name;
	void *priv;
	/* Scratch owned by the dispatcher for required-node handling. */
	struct mesh_bitmap *scratch_free;
	/* For wrappers (sl:<base>): the wrapped allocator. */
	struct mesh_allocator *base;
};

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
