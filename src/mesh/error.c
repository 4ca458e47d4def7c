/* error.c - messages for the MESH_E* codes, generated from one table. */
#include "error.h"

const char *mesh_strerror(int rc)
{
	switch (rc) {
	case 0:
		return "success";
#define MESH_XX(name, val, msg)                                                \
	case MESH_##name:                                                      \
		return msg;
		MESH_ERRNO_MAP(MESH_XX)
#undef MESH_XX
	default:
		return "unknown error";
	}
}

const char *mesh_err_name(int rc)
{
	switch (rc) {
	case 0:
		return "0";
#define MESH_XX(name, val, msg)                                                \
	case MESH_##name:                                                      \
		return "MESH_" #name;
		MESH_ERRNO_MAP(MESH_XX)
#undef MESH_XX
	default:
		return "MESH_E?";
	}
}
