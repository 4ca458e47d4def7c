/*****************************************************************************\
 *  compat_2205.h - Slurm 22.05 in the spelling of later releases.
 *****************************************************************************
 *  Copyright (C) 2026 The slurm-mesh authors.
 *
 *  This file is part of slurm-mesh, a plugin for Slurm.  It is free
 *  software under the GNU General Public License, version 2 or later; see
 *  select_mesh.c for the full notice.
\*****************************************************************************/

#ifndef _SM_COMPAT_2205_H
#define _SM_COMPAT_2205_H

#include "src/common/gres.h"
#include "src/common/list.h"
#include "src/common/select.h"
#include "src/slurmctld/preempt.h"

/* 23.02 renamed List and ListIterator; the structs kept their tags. */
typedef struct xlist list_t;
typedef struct listIterator list_itr_t;
/* 23.02 dropped the tag: only the typedef is in both. */
typedef struct job_details job_details_t;

/* select/mesh can layer over cons_tres (SelectTypeParameters=
 * OTHER_CONS_TRES, removed in 24.05). */
#define SM_HAVE_SELECT_LAYER 1
typedef slurm_select_ops_t sm_layer_ops_t;

#endif
