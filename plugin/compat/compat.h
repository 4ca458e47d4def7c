/*****************************************************************************\
 *  compat.h - what differs between the Slurm releases the plugins build
 *  against, and nothing else.
 *
 *  The plugins are written in the newest spelling (list_t *, list_itr_t *,
 *  headers by their current path); compat_<series>.h maps an older release
 *  onto it.  configure reads the release from the Slurm build tree and sets
 *  SM_SLURM_SERIES (m4/slurm.m4).  Entry points whose prototypes differ
 *  live in select_mesh_<series>.c and topology_mesh_<series>.c; this is the
 *  only header that tests the series.
 *****************************************************************************
 *  Copyright (C) 2026 The slurm-mesh authors.
 *
 *  This file is part of slurm-mesh, a plugin for Slurm.  It is free
 *  software under the GNU General Public License, version 2 or later; see
 *  select_mesh.c for the full notice.
\*****************************************************************************/

#ifndef _SM_COMPAT_H
#define _SM_COMPAT_H

#if SM_SLURM_SERIES == 2205
#include "compat_2205.h"
#elif SM_SLURM_SERIES == 2411
#include "compat_2411.h"
#else
#error "SM_SLURM_SERIES must be 2205 or 2411 (set by configure)"
#endif

#endif
