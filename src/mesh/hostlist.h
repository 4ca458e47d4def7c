/* hostlist.h - a small Slurm-free hostlist expander.
 *
 * Understands the hostlist syntax of slurm.conf: comma-separated items,
 * each a name with any number of bracketed range groups, e.g.
 * "n[0-15,20]", "r[0-1]n[0-3]", "io[00-03]-eth", "login1,login2".
 * The low bound's digit count sets the zero padding ("n[00-15]").  With
 * several groups in one item the last group varies fastest, as in Slurm.
 */
#ifndef MESH_HOSTLIST_H
#define MESH_HOSTLIST_H

#include <stddef.h>

#include "diag.h"

/** \brief Expand a hostlist expression.
 *  \param spec expression (no whitespace).
 *  \param max refuse expansions of more than max names (MESH_ERANGE).
 *  \param[out] out new array of *n malloc'ed names; free with
 *  mesh_hostlist_free().
 *  \param[out] n number of names.
 *  \return 0; MESH_EPARSE or MESH_ERANGE described in d (field
 *  "hostlist", line 0), or MESH_ENOMEM; *out and *n untouched on error. */
int mesh_hostlist_expand(const char *spec, size_t max, char ***out, size_t *n,
			 struct mesh_diag *d);

/** \brief Free the result of mesh_hostlist_expand(); NULL is a no-op. */
void mesh_hostlist_free(char **names, size_t n);

#endif
