/*****************************************************************************\
 *  select_mesh.h - declarations shared by the files of select/mesh.
 *****************************************************************************
 *  Copyright (C) 2026 The slurm-mesh authors.
 *
 *  This file is part of slurm-mesh, a plugin for Slurm.  It is free
 *  software under the GNU General Public License, version 2 or later; see
 *  select_mesh.c for the full notice.
\*****************************************************************************/

#ifndef _SELECT_MESH_H
#define _SELECT_MESH_H

#include <inttypes.h>

extern const char plugin_type[];

#define NODEINFO_MAGIC 0x8e5a

struct select_nodeinfo {
	uint16_t magic;
	uint16_t alloc_cpus;
	uint64_t alloc_memory;
	char *tres_alloc_fmt_str;
	double tres_alloc_weighted;
};

#endif
