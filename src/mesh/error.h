/* error.h - error codes of the slurm-mesh library.
 *
 * Every library function returns 0 or a negative MESH_E* code; the codes
 * and their messages come from the single table below, as libuv does.
 */
#ifndef MESH_ERROR_H
#define MESH_ERROR_H

#define MESH_ERRNO_MAP(XX)                                                     \
	XX(EINVAL, -1, "invalid argument")                                     \
	XX(ENOMEM, -2, "out of memory")                                        \
	XX(ENOSPC, -3, "no placement satisfies the request")                   \
	XX(ENOENT, -4, "no such allocator or file")                            \
	XX(EPARSE, -5, "malformed input")                                      \
	XX(ERANGE, -6, "value out of range")                                   \
	XX(EIO, -7, "input/output error")                                      \
	XX(EINTERNAL, -8, "internal error")

enum mesh_errno {
#define MESH_XX(name, val, msg) MESH_##name = (val),
	MESH_ERRNO_MAP(MESH_XX)
#undef MESH_XX
};

/** \brief Message for an error code; never NULL. */
const char *mesh_strerror(int rc);

/** \brief Symbolic name ("MESH_ENOSPC") for an error code; never NULL. */
const char *mesh_err_name(int rc);

#endif
