/* fuzz_jobinfo.c - the decoder of select/mesh's per-job data
 * (plugin/core/jobinfo.c) on arbitrary bytes, as slurmctld reads them
 * from its state files.  An input that starts with "hex:" is hex (so
 * that the seeds, which hold zero bytes, can be strings); any other is
 * taken as it is.  The decoder reads only the bytes it is given (they
 * are copied to a block of exactly that size, for ASan and valgrind),
 * reads nothing without the mark, and what it reads as a summary
 * encodes back to the same bytes. */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "jobinfo.h"

const char *const fuzz_seeds[] = {
	/* "alloc=mc1x1 bbox=2x1x1", format 1 */
	"hex:4d45534800010000001761"
	"6c6c6f633d6d633178312062626f783d3278317831"
	"00",
	/* no summary yet */
	"hex:4d455348000100000000",
	/* a later format, skipped */
	"hex:4d4553480002000000030102030405",
	/* a state written before the data existed: a node count */
	"hex:00000004ffffffff",
	/* cut short */
	"hex:4d455348000100000017616c",
	NULL
};

static int hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	unsigned char *buf, *again;
	char *placement = NULL;
	size_t n = 0, i, blob;
	long rc;
	int hi = -1, v;

	if (size > 65536)
		return 0;
	buf = malloc(size ? size : 1);
	if (!buf)
		return 0;
	if (size >= 4 && !memcmp(data, "hex:", 4)) {
		for (i = 4; i < size; i++) {
			if ((v = hexval(data[i])) < 0)
				continue;
			if (hi < 0) {
				hi = v;
			} else {
				buf[n++] = (unsigned char) (hi << 4 | v);
				hi = -1;
			}
		}
	} else {
		memcpy(buf, data, size);
		n = size;
	}
	if (n && n < size) { /* exactly n bytes: a read past them is caught */
		unsigned char *exact = realloc(buf, n);

		if (exact)
			buf = exact;
	}
	rc = smc_jobinfo_decode(buf, n, &placement);
	FUZZ_CHECK(rc == -1 || (rc >= 0 && (size_t) rc <= n));
	if (rc == 0)
		FUZZ_CHECK(n < 4 || buf[0] != 0x4d || buf[1] != 0x45 ||
			   buf[2] != 0x53 || buf[3] != 0x48);
	FUZZ_CHECK(!placement || rc > 0);
	if (placement) {
		blob = strlen(placement) + 1;
		FUZZ_CHECK(blob <= (size_t) rc - 10);
		if (blob == (size_t) rc - 10) {
			again = malloc((size_t) rc);
			FUZZ_CHECK(again &&
				   smc_jobinfo_encode(placement, again,
						      (size_t) rc) ==
					   (size_t) rc &&
				   !memcmp(again, buf, (size_t) rc));
			free(again);
		}
	}
	free(placement);
	free(buf);
	return 0;
}
