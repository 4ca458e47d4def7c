/* input.h - opening the library's input files (private). */
#ifndef MESH_INPUT_H
#define MESH_INPUT_H

#include <stdio.h>

#include "diag.h"

/** \brief Open path for reading.  kind names the file in the message
 *  when path is a directory ("a trace file", "a sidecar file").
 *  \return 0 with *f set, or MESH_EIO (a directory) / MESH_ENOENT
 *  (cannot open, with strerror) described in d. */
int mesh__open_input(const char *path, const char *kind, FILE **f,
		     struct mesh_diag *d);

/** \brief Read one line of any length (with its newline) into *buf,
 *  growing it; the caller holds f's lock (flockfile), so each byte costs
 *  no locking.  \return its length, 0 at EOF, -1 if out of memory. */
long mesh__read_line(FILE *f, char **buf, size_t *cap);

struct mesh_swf_trace;
struct mesh_swf_job;

/** \brief Append job to tr->jobs, which holds *cap entries (grown by
 *  doubling).  \return 0 or MESH_ENOMEM. */
int mesh__swf_push_job(struct mesh_swf_trace *tr, size_t *cap,
		       const struct mesh_swf_job *job);

#endif
