/* iogeom.h - where the I/O nodes lie, for the I/O-aware allocators PLAS
 * and MC-Elongated (private; never installed). */
#ifndef MESH_IOGEOM_H
#define MESH_IOGEOM_H

#include "diag.h"
#include "topo.h"

/* I/O geometry for PLAS and MC-Elongated (Mache Ch. VII generalised):
 * columns run along the axis over which the I/O nodes spread most (ties:
 * y, z, x); mid is the coordinate of the (m/2)-th I/O node in that order,
 * so the middle I/O link lies between mid - 1 and mid; u and w are the
 * other axes (u first in x, y, z order). */
struct mesh__io_geom {
	int axis, mid, u, w;
};

/* MESH_EINVAL (described in d, naming the allocator name) unless t has
 * designated I/O nodes: the I/O-aware allocators cannot work without
 * them. */
int mesh__io_required(const struct mesh_topo *t, const char *name,
		      struct mesh_diag *d);

/* 0, or MESH_EINVAL if t has no I/O nodes. */
int mesh__io_geometry(const struct mesh_topo *t, struct mesh__io_geom *g);

/* Middle-out rank of coordinate y along the column axis: mid, mid - 1,
 * mid + 1, mid - 2, ... alternate above and below the middle link (rows
 * past one end continue in order on the other). */
int mesh__io_rank(const struct mesh_topo *t, const struct mesh__io_geom *g,
		  int y);

#endif
