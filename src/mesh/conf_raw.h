/* conf_raw.h - mesh.conf's first pass, shared by conf.c and conf_lex.c
 * (private to the library): each key's raw value and line, and the
 * NodeName=/Coord= definitions, before anything is built from them. */
#ifndef MESH_CONF_RAW_H
#define MESH_CONF_RAW_H

#include <stddef.h>

#include "diag.h"
#include "topo.h"

struct conf_kv {
	char *val;
	long line;
};

struct conf_def {
	char *name;
	int coord[MESH_MAX_DIMS];
	int ncoord;
	long line;
};

struct conf_raw {
	const char *file;
	struct conf_kv dims, nodes, order, io, alloc, params, curve, dshape,
	    dio, dcomm, pplaces, ptime, cores;
	struct conf_kv bw[4]; /* LinkBandwidth= ... FileSystemBandwidth= */
	struct conf_def *defs;
	size_t ndefs, cap;
	long last_line;
};

/* The runtime models' capacities' keys (contention.h), in struct order. */
extern const char *const mesh__conf_bw_keys[4];

/* A diagnostic at file r->file, line (1 if none), key. */
int mesh__conf_err(struct mesh_diag *d, int rc, const struct conf_raw *r,
		   long line, const char *key, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));

/* Moves a sub-parser's diagnostic to file/line/key; returns rc. */
int mesh__conf_relocate(struct mesh_diag *d, int rc, const struct conf_raw *r,
			long line, const char *key);

/* First pass: records every key with its line into r (zeroed, r->file
 * set); 0 or an error described in d. */
int mesh__conf_parse_text(struct conf_raw *r, const char *text, size_t len,
			  struct mesh_diag *d);

void mesh__conf_raw_free(struct conf_raw *r);

#endif
