/* mesh.h - umbrella header of the slurm-mesh allocator library.
 *
 * The library is free of Slurm: the mesh model (topo.h), free maps
 * (bitmap.h), curves (curve.h), allocators (alloc.h), dispersal metrics
 * (metrics.h), SWF traces (swf.h), mesh.conf (conf.h) and the simulator
 * (sim.h).  Errors are negative MESH_E* codes (error.h); parsers report
 * "file:line:field: message" through struct mesh_diag (diag.h).
 */
#ifndef MESH_MESH_H
#define MESH_MESH_H

#include "alloc.h"
#include "bitmap.h"
#include "comment.h"
#include "conf.h"
#include "contention.h"
#include "curve.h"
#include "diag.h"
#include "error.h"
#include "ioload.h"
#include "hints.h"
#include "hint_cache.h"
#include "hostlist.h"
#include "jobattrs.h"
#include "metrics.h"
#include "plan.h"
#include "priority.h"
#include "sacct.h"
#include "sim.h"
#include "swf.h"
#include "topo.h"
#include "workload.h"

#endif
