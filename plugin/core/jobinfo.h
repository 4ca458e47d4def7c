/*
 * jobinfo.h - the bytes of select/mesh's per-job data (the placement
 * summary) in Slurm's pack format: a 32-bit mark, a 16-bit format and a
 * length-prefixed blob, all in network byte order, as pack32, pack16 and
 * packmem write them.  The decoder reads bytes from slurmctld's state
 * files and from every RPC that carries a job, so it is Slurm-free here
 * and fuzzed (test/fuzz/fuzz_jobinfo.c).
 */
#ifndef SMC_JOBINFO_H
#define SMC_JOBINFO_H

#include <stddef.h>

#define SMC_JOBINFO_MARK 0x4d455348u /* "MESH" */
#define SMC_JOBINFO_FORMAT 1
/* The longest blob read: far above any summary, far below Slurm's own
 * limit on a packed blob, so a corrupt length is caught here. */
#define SMC_JOBINFO_MAX_BLOB 65536

/*
 * Write the bytes for placement (NULL: none) into out if they fit in
 * cap.  Format 1's blob is the summary with its NUL; none is an empty
 * blob.  RET how many bytes they take (compare with cap).
 */
size_t smc_jobinfo_encode(const char *placement, unsigned char *out,
			  size_t cap);

/*
 * Read select/mesh's data at buf[0 .. len - 1].  Without the mark there
 * (a state written before the data existed: the next field is another
 * plugin's) nothing is read.  *placement: a new string (free()) when
 * the data is format 1 and its blob a NUL-terminated text, else NULL; a
 * later format is skipped whole.
 * RET the bytes read (0 without the mark), or -1 when the data is cut
 * short or its blob is longer than the bytes left or than
 * SMC_JOBINFO_MAX_BLOB; or -2 when out of memory.
 */
long smc_jobinfo_decode(const unsigned char *buf, size_t len, char **placement);

#endif
