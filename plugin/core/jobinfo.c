/*
 * jobinfo.c - select/mesh's per-job data in Slurm's pack format
 * (jobinfo.h).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "jobinfo.h"

static void put32(unsigned char *p, uint32_t v)
{
	p[0] = (unsigned char) (v >> 24);
	p[1] = (unsigned char) (v >> 16);
	p[2] = (unsigned char) (v >> 8);
	p[3] = (unsigned char) v;
}

static uint32_t get32(const unsigned char *p)
{
	return (uint32_t) p[0] << 24 | (uint32_t) p[1] << 16 |
	       (uint32_t) p[2] << 8 | p[3];
}

size_t smc_jobinfo_encode(const char *placement, unsigned char *out, size_t cap)
{
	size_t blob = placement ? strlen(placement) + 1 : 0;
	size_t need = 4 + 2 + 4 + blob;

	if (need > cap)
		return need;
	put32(out, SMC_JOBINFO_MARK);
	out[4] = (unsigned char) (SMC_JOBINFO_FORMAT >> 8);
	out[5] = (unsigned char) SMC_JOBINFO_FORMAT;
	put32(out + 6, (uint32_t) blob);
	if (blob)
		memcpy(out + 10, placement, blob);
	return need;
}

long smc_jobinfo_decode(const unsigned char *buf, size_t len, char **placement)
{
	unsigned format;
	uint32_t blob;

	*placement = NULL;
	if (len < 4 || get32(buf) != SMC_JOBINFO_MARK)
		return 0;
	if (len < 10)
		return -1;
	format = (unsigned) buf[4] << 8 | buf[5];
	blob = get32(buf + 6);
	if (blob > SMC_JOBINFO_MAX_BLOB || blob > len - 10)
		return -1;
	if (format == SMC_JOBINFO_FORMAT && blob && buf[10 + blob - 1] == 0) {
		*placement = malloc(blob);
		if (!*placement)
			return -2;
		memcpy(*placement, buf + 10, blob);
	}
	return (long) (10 + blob);
}
