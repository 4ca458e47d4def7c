/* alloc_curve.c - curve-based allocation: free list, first fit, best fit
 * and sum of squares over maximal free intervals of a curve.
 *
 * Implements: Walker, Bunde, Leung, "Faster high-quality processor
 * allocation", Sec. II (after Lo et al. 1997 and Leung et al. 2002).
 *  - freelist: the first k free nodes in curve order.
 *  - ff: the first maximal run of consecutive free ranks with length
 *    >= k; its first k nodes.
 *  - bf: the shortest such run (earliest on ties); its first k nodes.
 *  - sos: the run whose use minimises sum_h N(h)^2 afterwards, N(h) the
 *    number of free runs of length h (Csirik et al. 2006); earliest on
 *    ties; its first k nodes.
 *  - fallback when no run holds k (ff, bf, sos): "the k processors whose
 *    difference in ranks are minimal", i.e. the window of k consecutive
 *    free nodes in curve order with the least last-minus-first rank,
 *    earliest on ties.
 * Decisions the paper leaves open: a job takes the low-rank end of the
 * chosen run; ties go to the lowest rank.
 *
 * HOW IT WORKS (doc/design.md, "Speed"): the free map is
 * gathered into curve-rank order as 64-bit words, by a plan built at
 * create (a table lookup per nibble of the map) or, where the curve
 * scatters nibbles too widely, branch-free in one pass over the
 * rank -> node table; the maximal free runs are read off
 * those words with count-trailing-zeros, a few instructions per run
 * rather than per node.  Every decision works on the run list: ff, bf
 * and sos compare runs; the fallback window needs only run starts (a
 * window starting inside a run never spans less than the one starting a
 * node earlier), and its end is found by a second pointer moving over the
 * runs.  For k < 64 the runs that hold k come straight from the words
 * (a run start where k consecutive free ranks start), so the run list
 * is built only when none does.  For k >= 64 with no run of k, the
 * window comes from the list of free ranks: blocks of 64 window starts
 * are reduced to their least span without a branch, and only the first
 * block that holds the least is searched for its earliest window.  test/reference.c keeps the
 * node-by-node definition, and check_alloc_exact compares the two on
 * random maps.
 */
#include <stdlib.h>
#include <string.h>

#include "alloc_internal.h"
#include "boxsum.h"
#include "curve.h"
#include "error.h"

enum fit { FIT_FREELIST, FIT_FF, FIT_BF, FIT_SOS };

struct curve_priv {
	enum fit fit;
	uint32_t nodes;
	uint32_t *order;     /* rank -> node */
	uint64_t *rank_free; /* scratch: free map in rank order */
	uint64_t *long_from; /* scratch: ranks that start a long run */
	uint32_t *run_start; /* scratch: maximal free runs, ascending */
	uint32_t *run_len;
	uint32_t *run_before;      /* free ranks before each run */
	uint32_t *free_rank;       /* scratch: ranks of free nodes, n + 8 */
	uint32_t *hist;            /* scratch: N(h) for sos, h = 0..nodes */
	uint32_t *rank;            /* node -> rank */
	uint8_t *free_byte;        /* scratch: the free map, a byte per node */
	uint8_t spread[256][8];    /* byte b -> its bits, a byte each */
	uint32_t byte_pos[256][8]; /* byte b -> its set bits' positions */
	uint8_t byte_pop[256];     /* byte b -> its set bits */
	int sparse_now;            /* runs came from the free nodes */
	/* The gather plan (nibble_plan), if nib_plan: rank word w is the OR
	 * of nib_bits[(nib_entry[e] >> 32) + nib[(uint32_t) nib_entry[e]]]
	 * over its entries e in [nib_start[w], nib_start[w + 1]).  Without
	 * it every word is gathered a rank at a time (gather_word). */
	uint32_t *nib_start; /* words + 1 */
	uint64_t *nib_entry; /* its table's offset << 32 | a slot of nib */
	uint64_t *nib_bits;  /* tables of 16: nibble value -> rank bits */
	uint8_t *nib;        /* scratch: the free map, a byte per nibble */
	int nib_plan;
};

static int curve_alloc(struct curve_priv *p, uint32_t n)
{
	/* n / 2 + 2 runs at most, and room for bits_to_list */
	size_t runs = (size_t) n / 2 + 9;
	unsigned b, i;

	p->order = malloc(n * sizeof(*p->order));
	p->rank_free = calloc((size_t) n / 64 + 1, sizeof(*p->rank_free));
	p->long_from = calloc((size_t) n / 64 + 1, sizeof(*p->long_from));
	p->run_start = malloc(runs * sizeof(*p->run_start));
	p->run_len = malloc(runs * sizeof(*p->run_len));
	p->run_before = malloc(runs * sizeof(*p->run_before));
	p->free_rank = malloc(((size_t) n + 8) * sizeof(*p->free_rank));
	p->hist = calloc((size_t) n + 1, sizeof(*p->hist));
	p->rank = malloc(n * sizeof(*p->rank));
	for (b = 0; b < 256; b++)
		for (i = 0; i < 8; i++) {
			p->spread[b][i] = (uint8_t) (b >> i & 1);
			if (b >> i & 1)
				p->byte_pos[b][p->byte_pop[b]++] = i;
		}
	return p->order && p->rank_free && p->long_from && p->run_start &&
		       p->run_len && p->run_before && p->free_rank && p->hist &&
		       p->rank
		   ? 0
		   : MESH_ENOMEM;
}

static void nib_free(struct curve_priv *p)
{
	free(p->nib_start);
	free(p->nib_entry);
	free(p->nib_bits);
	free(p->nib);
	p->nib_start = NULL;
	p->nib_entry = NULL;
	p->nib_bits = NULL;
	p->nib = NULL;
}

static void curve_destroy(struct mesh_allocator *a)
{
	struct curve_priv *p = a->priv;

	free(p->order);
	free(p->rank_free);
	free(p->long_from);
	free(p->run_start);
	free(p->run_len);
	free(p->run_before);
	free(p->free_rank);
	free(p->hist);
	free(p->rank);
	free(p->free_byte);
	nib_free(p);
	free(p);
}

enum {
	NIB_MAX = 18,     /* nibbles a rank word may draw on */
	NIB_TABLES = 128, /* tables a plan may have (16 KiB) */
	NIB_HASH = 4096,  /* slots of the table index, > 2 * NIB_TABLES */
	NIB_NONE = 127,   /* a nibble's bit whose rank is in another word */
};

/* The nibbles one rank word draws on, first seen first, and for each
 * where its four bits land in the word: 7 bits a node, NIB_NONE for a
 * node of another word. */
struct nib_word {
	uint32_t n;
	uint32_t nib[NIB_MAX];
	uint32_t key[NIB_MAX];
};

/* Where gather_ranks puts nibble q of the free map: a word's even
 * nibbles (its bytes' low halves), then its odd ones. */
static uint32_t nib_slot(uint32_t q)
{
	return 16 * (q / 16) + 8 * (q % 2) + q % 16 / 2;
}

/* Fill nw for the ranks ord[0..len); 0 if they draw on more than
 * NIB_MAX nibbles. */
static int nib_collect(const uint32_t *ord, uint32_t len, struct nib_word *nw)
{
	const uint32_t empty = NIB_NONE * 0x204081u; /* NIB_NONE in all four */
	uint32_t j, i, nib, bit;

	nw->n = 0;
	for (j = 0; j < len; j++) {
		nib = ord[j] / 4;
		bit = 7 * (ord[j] % 4);
		for (i = nw->n; i > 0 && nw->nib[i - 1] != nib; i--)
			;
		if (i == 0) {
			if (nw->n == NIB_MAX)
				return 0;
			nw->nib[nw->n] = nib;
			nw->key[nw->n] = empty;
			i = ++nw->n;
		}
		nw->key[i - 1] =
		    (nw->key[i - 1] & ~((uint32_t) NIB_NONE << bit)) | j << bit;
	}
	return 1;
}

/* The offset in nib_bits of the table for key, added if new; *ntab
 * counts the tables.  UINT32_MAX if the tables are full. */
static uint32_t nib_intern(struct curve_priv *p, uint32_t *slot_key,
			   uint32_t *slot_tab, uint32_t *ntab, uint32_t key)
{
	uint32_t h = (key * 2654435761u) >> 20, v, b, pos;
	uint64_t *t;

	for (;; h = (h + 1) % NIB_HASH) {
		if (slot_key[h] == key + 1)
			return slot_tab[h];
		if (!slot_key[h])
			break;
	}
	if (*ntab == NIB_TABLES)
		return UINT32_MAX;
	t = p->nib_bits + 16 * *ntab;
	for (v = 0; v < 16; v++)
		for (b = 0, t[v] = 0; b < 4; b++) {
			pos = key >> 7 * b & NIB_NONE;
			if (pos != NIB_NONE && (v >> b & 1))
				t[v] |= (uint64_t) 1 << pos;
		}
	slot_key[h] = key + 1;
	slot_tab[h] = 16 * (*ntab)++;
	return slot_tab[h];
}

/* One rank word's entries from e on; the new end, or e itself if the
 * word cannot have a plan (too many nibbles, or the tables are full). */
static uint32_t nib_word_plan(struct curve_priv *p, uint32_t w, uint32_t e,
			      uint32_t *slot_key, uint32_t *slot_tab,
			      uint32_t *ntab)
{
	uint32_t len = p->nodes - 64 * w < 64 ? p->nodes - 64 * w : 64, i, tab;
	struct nib_word nw;

	if (!nib_collect(p->order + 64 * w, len, &nw))
		return e;
	for (i = 0; i < nw.n; i++) {
		tab = nib_intern(p, slot_key, slot_tab, ntab, nw.key[i]);
		if (tab == UINT32_MAX)
			return e;
		p->nib_entry[e + i] =
		    (uint64_t) tab << 32 | nib_slot(nw.nib[i]);
	}
	return e + nw.n;
}

/* Give back what the plan's entries did not use (a word reserves
 * NIB_MAX); keeps the larger arrays if realloc fails. */
static void nib_shrink(struct curve_priv *p, uint32_t entries)
{
	uint64_t *e = realloc(p->nib_entry,
			      (entries ? entries : 1) * sizeof(*p->nib_entry));

	if (e)
		p->nib_entry = e;
}

/* The gather plan (struct curve_priv): on most meshes a curve keeps
 * each nibble's 4 nodes (4 consecutive nodes of an x-row) within one
 * rank word, so a word is the OR of about 16 table lookups rather than
 * 64 single-rank reads (doc/design.md, "Curves").  All or nothing: if
 * one word cannot have a plan, every word goes by ranks, because a mix
 * of both gathers was slower than either (it needs both scratch maps). */
static int nibble_plan(struct curve_priv *p)
{
	uint32_t nw = (p->nodes + 63) / 64, w, e = 0, ntab = 0;
	uint32_t *slot_key = calloc(NIB_HASH, sizeof(*slot_key));
	uint32_t *slot_tab = malloc(NIB_HASH * sizeof(*slot_tab));
	int rc = MESH_ENOMEM;

	p->nib_start = malloc(((size_t) nw + 1) * sizeof(*p->nib_start));
	p->nib_entry = malloc((size_t) nw * NIB_MAX * sizeof(*p->nib_entry));
	p->nib_bits = malloc(NIB_TABLES * 16 * sizeof(*p->nib_bits));
	p->nib = malloc((size_t) nw * 16);
	if (slot_key && slot_tab && p->nib_start && p->nib_entry &&
	    p->nib_bits && p->nib) {
		for (w = 0; w < nw; w++) {
			p->nib_start[w] = e;
			e = nib_word_plan(p, w, e, slot_key, slot_tab, &ntab);
			if (e == p->nib_start[w])
				break;
		}
		p->nib_start[nw] = e;
		p->nib_plan = w == nw;
		rc = 0;
	}
	free(slot_key);
	free(slot_tab);
	if (p->nib_plan)
		nib_shrink(p, e);
	else
		nib_free(p);
	return rc;
}

static int curve_create(struct mesh_allocator *a, const char *params,
			struct mesh_diag *d)
{
	struct curve_priv *p;
	uint32_t r;
	int rc;

	rc = mesh__param_check(params, NULL, a->name, d);
	if (rc)
		return rc;
	p = calloc(1, sizeof(*p));
	if (!p)
		return MESH_ENOMEM;
	a->priv = p;
	p->fit = (enum fit)(a->entry->variant % 4);
	p->nodes = a->topo->nodes;
	rc = curve_alloc(p, a->topo->nodes);
	if (!rc)
		rc = mesh_curve_order(a->topo,
				      (enum mesh_curve)(a->entry->variant / 4),
				      p->order);
	for (r = 0; !rc && r < p->nodes; r++)
		p->rank[p->order[r]] = r;
	if (!rc)
		rc = nibble_plan(p);
	if (!rc && !p->nib_plan) {
		p->free_byte = malloc((size_t) (p->nodes + 63) / 64 * 64);
		rc = p->free_byte ? 0 : MESH_ENOMEM;
	}
	if (rc) {
		curve_destroy(a);
		a->priv = NULL;
	}
	return rc;
}

/* Free list: the first k free ranks, stopping there. */
static uint32_t collect_first(const struct curve_priv *p,
			      const struct mesh_view *v, uint32_t k)
{
	uint32_t r, m = 0, n = v->topo->nodes;

	for (r = 0; r < n && m < k; r++)
		if (mesh_bitmap_test(v->free, p->order[r]))
			p->free_rank[m++] = r;
	return m;
}

/* 64 ranks' free bits from the node-order words, without branches.
 * Eight ranks are combined before they meet the word, so the ORs form
 * short trees rather than one chain through every rank. */
static uint64_t gather_word(const uint8_t *fb, const uint32_t *ord,
			    uint32_t len)
{
	uint64_t acc = 0, b;
	uint32_t j = 0;

	for (; j + 8 <= len; j += 8) {
		b = (uint64_t) (fb[ord[j]] | fb[ord[j + 1]] << 1 |
				fb[ord[j + 2]] << 2 | fb[ord[j + 3]] << 3) |
		    (uint64_t) (fb[ord[j + 4]] << 4 | fb[ord[j + 5]] << 5 |
				fb[ord[j + 6]] << 6 | fb[ord[j + 7]] << 7);
		acc |= b << j;
	}
	for (; j < len; j++)
		acc |= (uint64_t) fb[ord[j]] << j;
	return acc;
}

/* Rank word w by its gather plan: one table lookup per nibble. */
static uint64_t gather_nibbles(const struct curve_priv *p, uint32_t w)
{
	uint32_t e, end = p->nib_start[w + 1];
	uint64_t acc = 0;

	for (e = p->nib_start[w]; e < end; e++)
		acc |= p->nib_bits[(p->nib_entry[e] >> 32) +
				   p->nib[(uint32_t) p->nib_entry[e]]];
	return acc;
}

/* The free map in rank order, 64 ranks a word.  With the plan, the map
 * is split into a byte per nibble for its lookups.  Without, it is
 * spread to a byte per node (a table lookup per byte), so that each rank
 * costs one byte load instead of a word load, a shift and a mask. */
static void gather_ranks(struct curve_priv *p, const struct mesh_view *v)
{
	uint32_t n = v->topo->nodes, nw = (n + 63) / 64, w, j;
	const uint64_t *fw = v->free->words;
	uint64_t x, lo, hi;
	uint8_t *nib = p->nib;

	if (p->nib_plan) {
		for (w = 0; w < nw; w++) {
			lo = fw[w] & 0x0f0f0f0f0f0f0f0full;
			hi = fw[w] >> 4 & 0x0f0f0f0f0f0f0f0full;
			for (j = 0; j < 8; j++) {
				nib[16 * w + j] = (uint8_t) (lo >> 8 * j);
				nib[16 * w + 8 + j] = (uint8_t) (hi >> 8 * j);
			}
		}
		for (w = 0; w < nw; w++)
			p->rank_free[w] = gather_nibbles(p, w);
		return;
	}
	for (w = 0; w < nw; w++)
		for (j = 0, x = fw[w]; j < 8; j++, x >>= 8)
			memcpy(p->free_byte + 64 * w + 8 * j,
			       p->spread[x & 0xff], 8);
	for (w = 0; w < n / 64; w++)
		p->rank_free[w] =
		    gather_word(p->free_byte, p->order + 64 * w, 64);
	if (n % 64)
		p->rank_free[w] =
		    gather_word(p->free_byte, p->order + 64 * w, n % 64);
}

/* Append the positions of the set bits of x (word w) to list, a byte at
 * a time: each byte writes its 8 table positions (GCC vectorizes the
 * add) and advances by its count, so there is no branch per bit and no
 * chain through x &= x - 1.  list needs 7 entries of room past the
 * last.  (doc/design.md, "Curves".) */
static uint32_t bits_to_list(const struct curve_priv *p, uint64_t x, uint32_t w,
			     uint32_t *list, uint32_t n)
{
	uint32_t j, i, b, base, v[8];
	const uint32_t *pos;

	for (j = 0; j < 8; j++, x >>= 8) {
		b = (uint32_t) (x & 0xff);
		base = 64 * w + 8 * j;
		pos = p->byte_pos[b];
		for (i = 0; i < 8; i++)
			v[i] = pos[i] + base;
		memcpy(list + n, v, sizeof(v));
		n += p->byte_pop[b];
	}
	return n;
}

/* Ranks of word w that start a run (a free rank after a busy one). */
static uint64_t run_starts(const uint64_t *rf, uint32_t w)
{
	return rf[w] & ~(rf[w] << 1 | (w ? rf[w - 1] >> 63 : 0));
}

/* Fill the run list from the rank-order words: a run starts at a free
 * rank after a busy one and ends at a busy rank after a free one; the
 * i-th start and the i-th end bound run i.  Returns the number of free
 * ranks.  Bits past n are clear, so a run ends by n at the latest. */
static uint32_t find_runs(struct curve_priv *p, uint32_t n, uint32_t *nruns)
{
	uint32_t w, nw = (n + 63) / 64, ns = 0, ne = 0, i, m = 0;
	uint64_t x, prev = 0;

	for (w = 0; w < nw; w++) {
		x = p->rank_free[w];
		ns = bits_to_list(p, run_starts(p->rank_free, w), w,
				  p->run_start, ns);
		ne = bits_to_list(p, ~x & (x << 1 | prev >> 63), w, p->run_len,
				  ne);
		prev = x;
	}
	if (ne < ns)
		p->run_len[ne++] = nw * 64;
	for (i = 0; i < ns; i++) {
		p->run_len[i] -= p->run_start[i];
		p->run_before[i] = m;
		m += p->run_len[i];
	}
	*nruns = ns;
	return m;
}

/* Ranks of the free nodes, ascending, into free_rank. */
static uint32_t list_free_ranks(struct curve_priv *p, uint32_t n)
{
	uint32_t w, m = 0;

	for (w = 0; w < (n + 63) / 64; w++)
		m = bits_to_list(p, p->rank_free[w], w, p->free_rank, m);
	return m;
}

/* Sparse meshes (doc/design.md, "Sparse meshes"): with few free nodes,
 * gathering the whole mesh into rank order costs far more than the
 * decision.  Instead the free nodes' ranks are looked up and sorted
 * (mesh__free_sorted), and the same run list (and free_rank) is read off
 * them. */
static uint32_t sparse_runs(const struct mesh_allocator *a,
			    struct curve_priv *p, const struct mesh_view *v,
			    uint32_t *nruns)
{
	uint32_t m = mesh__free_sorted(a, v->free, p->rank, p->free_rank), i,
		 ns = 0;

	for (i = 0; i < m; i++) {
		if (!i || p->free_rank[i] != p->free_rank[i - 1] + 1) {
			p->run_start[ns] = p->free_rank[i];
			p->run_len[ns] = 0;
			p->run_before[ns++] = i;
		}
		p->run_len[ns - 1]++;
	}
	*nruns = ns;
	return m;
}

/* Some run of free ranks holds k >= 64: such a run fills a word or
 * crosses a word boundary, so only the ones at each word's ends count. */
static int long_run_exists(const struct curve_priv *p, uint32_t k)
{
	uint32_t w, run = 0;
	uint64_t x;

	for (w = 0; w < (p->nodes + 63) / 64; w++) {
		x = p->rank_free[w];
		if (x == ~(uint64_t) 0) {
			run += 64;
		} else {
			run += (uint32_t) __builtin_ctzll(~x);
			if (run >= k)
				return 1;
			run = (uint32_t) __builtin_clzll(~x);
		}
	}
	return run >= k;
}

/* Ranks of word w at which k < 64 consecutive free ranks start: the
 * AND of the free bits over [r, r + k), by doubling the span covered on
 * the word and the next (bits past the last word count as busy). */
static uint64_t k_free_from(const uint64_t *rf, uint32_t w, uint32_t nw,
			    uint32_t k)
{
	uint64_t lo = rf[w], hi = w + 1 < nw ? rf[w + 1] : 0;
	uint32_t have = 1, step;

	while (have < k) {
		step = have < k - have ? have : k - have; /* 1..31 */
		lo &= lo >> step | hi << (64 - step);
		hi &= hi >> step;
		have += step;
	}
	return lo;
}

/* Length of the run of free ranks that starts at rank r. */
static uint32_t run_from(const uint64_t *rf, uint32_t nw, uint32_t r)
{
	uint32_t w = r / 64, len = 0, b = r % 64;
	uint64_t rest;

	for (; w < nw; w++, b = 0) {
		rest = ~rf[w] >> b; /* busy ranks from r on */
		if (rest) {
			len += (uint32_t) __builtin_ctzll(rest);
			break;
		}
		len += 64 - b;
	}
	return len;
}

static int64_t sos_delta(const uint32_t *hist, uint32_t len, uint32_t k)
{
	int64_t delta = -2 * (int64_t) hist[len] + 1;

	if (len > k)
		delta += 2 * (int64_t) hist[len - k] + 1;
	return delta;
}

/* What best fit (the length) and sum of squares (sos_delta) minimise
 * over the runs that hold k. */
static int64_t run_key(const struct curve_priv *p, uint32_t len, uint32_t k)
{
	return p->fit == FIT_BF ? (int64_t) len : sos_delta(p->hist, len, k);
}

/* Runs that hold k < 64, straight from the rank-order words: they start
 * where k consecutive free ranks start just after a busy rank.  Their
 * first ranks and lengths go to run_start and run_len, ascending; first
 * fit stops at the first.  Returns their number. */
static uint32_t short_runs(struct curve_priv *p, uint32_t k)
{
	const uint64_t *rf = p->rank_free;
	uint32_t nw = (p->nodes + 63) / 64, w, r, n = 0;
	uint64_t starts;

	for (w = 0; w < nw; w++)
		for (starts = run_starts(rf, w) & k_free_from(rf, w, nw, k);
		     starts; starts &= starts - 1) {
			r = w * 64 + (uint32_t) __builtin_ctzll(starts);
			p->run_start[n] = r;
			p->run_len[n++] = run_from(rf, nw, r);
			if (p->fit == FIT_FF)
				return n;
		}
	return n;
}

/* hist[h] for h = 1..k - 1: runs of exactly h free ranks.  long_from
 * holds the run starts whose run is longer than h, h = 0, 1, ...:
 * hist[h] is the drop in its count from one h to the next. */
static void short_hist(struct curve_priv *p, uint32_t k)
{
	const uint64_t *rf = p->rank_free;
	uint32_t nw = (p->nodes + 63) / 64, w, h, longer, prev = 0;
	uint64_t *from = p->long_from;

	for (w = 0; w < nw; w++) {
		from[w] = run_starts(rf, w);
		prev += mesh__popcount64(from[w]);
	}
	for (h = 1; h < k; h++) {
		for (w = 0, longer = 0; w < nw; w++) {
			from[w] &= rf[w] >> h |
				   (w + 1 < nw ? rf[w + 1] << (64 - h) : 0);
			longer += mesh__popcount64(from[w]);
		}
		p->hist[h] = prev - longer;
		prev = longer;
	}
}

/* First fit, best fit and sum of squares for k < 64 without the run
 * list, choosing among short_runs() as pick_run() does (the earliest on
 * ties).  Sum of squares needs N(h), the runs of each length h: those of
 * h >= k are the candidates themselves, the shorter come from
 * short_hist().  Sets *at to the chosen run's first rank; 0 if no run
 * holds k. */
static int short_fit(struct curve_priv *p, uint32_t k, uint32_t *at)
{
	uint32_t n = short_runs(p, k), i, h;
	int64_t key, best = INT64_MAX;

	if (!n || p->fit == FIT_FF) {
		*at = n ? p->run_start[0] : 0;
		return n > 0;
	}
	if (p->fit == FIT_SOS) {
		short_hist(p, k);
		for (i = 0; i < n; i++)
			p->hist[p->run_len[i]]++;
	}
	for (i = 0; i < n; i++) {
		key = run_key(p, p->run_len[i], k);
		if (key < best) {
			best = key;
			*at = p->run_start[i];
		}
	}
	if (p->fit == FIT_SOS) { /* hist is all 0 between decisions */
		for (h = 1; h < k; h++)
			p->hist[h] = 0;
		for (i = 0; i < n; i++)
			p->hist[p->run_len[i]] = 0;
	}
	return 1;
}

/* The least end[i] - fr[i] over i < len: no branch, so the compiler
 * vectorises it when len is a constant. */
static inline uint32_t least_span(const uint32_t *fr, const uint32_t *end,
				  uint32_t len)
{
	uint32_t i, least = UINT32_MAX, span;

	for (i = 0; i < len; i++) {
		span = end[i] - fr[i];
		least = span < least ? span : least;
	}
	return least;
}

/* The first i < starts of least fr[i + k - 1] - fr[i].  Blocks of 64
 * starts are reduced without a branch; only the first block that holds
 * the least is searched. */
static uint32_t least_span_at(const uint32_t *fr, uint32_t starts, uint32_t k)
{
	const uint32_t *end = fr + k - 1;
	uint32_t b, i, len, best = UINT32_MAX, block = 0, least;

	for (b = 0; b < starts; b += 64) {
		len = starts - b;
		least = len >= 64 ? least_span(fr + b, end + b, 64)
				  : least_span(fr + b, end + b, len);
		if (least < best) {
			best = least;
			block = b;
		}
	}
	for (i = block; end[i] - fr[i] != best; i++)
		;
	return i;
}

/* Fallback for k >= 64 with no run of k: the window of k free nodes of
 * least rank span over the free-rank list, earliest on ties. */
static int place_window(struct curve_priv *p, uint32_t k, uint32_t *out)
{
	const uint32_t *fr = p->free_rank;
	uint32_t m = list_free_ranks(p, p->nodes), i, at;

	if (m < k)
		return MESH_ENOSPC;
	at = least_span_at(fr, m - k + 1, k);
	for (i = 0; i < k; i++)
		out[i] = p->order[fr[at + i]];
	return 0;
}

static void sos_hist(struct curve_priv *p, uint32_t nr, uint32_t add)
{
	uint32_t i;

	for (i = 0; i < nr; i++)
		p->hist[p->run_len[i]] = add ? p->hist[p->run_len[i]] + 1 : 0;
}

/* The chosen run's index (ff, bf, sos), or -1 if none holds k; *key is
 * its length (bf) or delta (sos), for candidates. */
static int64_t pick_run(struct curve_priv *p, uint32_t nr, uint32_t k,
			int64_t *key)
{
	int64_t best = -1, best_key = 0, cur;
	uint32_t i;

	*key = 0;
	for (i = 0; i < nr && p->run_len[i] < k; i++)
		;
	if (i == nr)
		return -1; /* no run fits: sos needs no histogram */
	if (p->fit == FIT_SOS)
		sos_hist(p, nr, 1);
	for (i = 0; i < nr; i++) {
		if (p->run_len[i] < k)
			continue;
		if (p->fit == FIT_FF) {
			best = i;
			break;
		}
		cur = run_key(p, p->run_len[i], k);
		if (best < 0 || cur < best_key) {
			best = i;
			best_key = cur;
		}
	}
	if (p->fit == FIT_SOS)
		sos_hist(p, nr, 0);
	*key = best_key;
	return best;
}

/* Least rank span of k consecutive free nodes (m >= k); *at is the run
 * whose start begins the earliest such window.  Needs free_rank. */
static uint32_t pick_window(const struct curve_priv *p, uint32_t nr, uint32_t m,
			    uint32_t k, uint32_t *at)
{
	uint32_t i, span, best = UINT32_MAX;

	*at = 0;
	for (i = 0; i < nr && p->run_before[i] + k <= m; i++) {
		span = p->free_rank[p->run_before[i] + k - 1] - p->run_start[i];
		if (span < best) {
			best = span;
			*at = i;
		}
	}
	return best;
}

/* The first k free nodes from the start of run i on, in curve order. */
static void emit_from(const struct curve_priv *p, uint32_t i, uint32_t k,
		      uint32_t *out)
{
	uint32_t m = 0, r;

	for (; m < k; i++)
		for (r = p->run_start[i];
		     r < p->run_start[i] + p->run_len[i] && m < k; r++)
			out[m++] = p->order[r];
}

static int curve_place(struct mesh_allocator *a, const struct mesh_view *v,
		       const struct mesh_request *req, uint32_t *out)
{
	struct curve_priv *p = a->priv;
	uint32_t k = req->nodes, m, i, nr, at;
	int64_t run, key = 0;
	int short_none = 0; /* short_fit() found no run that holds k */

	p->sparse_now = mesh__sparse_wanted(a, v);
	if (p->sparse_now) {
		m = sparse_runs(a, p, v, &nr);
		if (m < k)
			return MESH_ENOSPC;
		if (p->fit == FIT_FREELIST) {
			for (i = 0; i < k; i++)
				out[i] = p->order[p->free_rank[i]];
			return 0;
		}
	} else {
		if (p->fit == FIT_FREELIST) {
			if (collect_first(p, v, k) < k)
				return MESH_ENOSPC;
			for (i = 0; i < k; i++)
				out[i] = p->order[p->free_rank[i]];
			return 0;
		}
		gather_ranks(p, v);
		if (k >= 64 && !long_run_exists(p, k))
			return place_window(p, k, out);
		if (k < 64) {
			if (short_fit(p, k, &at)) {
				for (i = 0; i < k; i++)
					out[i] = p->order[at + i];
				return 0;
			}
			short_none = 1;
		}
		m = find_runs(p, v->topo->nodes, &nr);
		if (m < k)
			return MESH_ENOSPC;
	}
	run = short_none ? -1 : pick_run(p, nr, k, &key);
	if (run >= 0)
		at = (uint32_t) run;
	else {
		if (!p->sparse_now)
			list_free_ranks(p, p->nodes);
		pick_window(p, nr, m, k, &at);
	}
	emit_from(p, at, k, out);
	return 0;
}

/* Offer every window of k free nodes with the least span (none holds a
 * run of k); each is k consecutive free nodes in curve order. */
static void window_candidates(struct curve_priv *p, uint32_t nr, uint32_t m,
			      uint32_t k, uint32_t *buf,
			      int (*cb)(void *ctx, const uint32_t *nodes),
			      void *ctx)
{
	const uint32_t *fr = p->free_rank;
	uint32_t i, j, at, best;

	if (!p->sparse_now)
		list_free_ranks(p, p->nodes);
	best = pick_window(p, nr, m, k, &at);
	for (i = p->run_before[at]; i + k <= m; i++) {
		if (fr[i + k - 1] - fr[i] != best)
			continue;
		for (j = 0; j < k; j++)
			buf[j] = p->order[fr[i + j]];
		if (cb(ctx, buf))
			break;
	}
}

/* Candidates for sl: (decision, see doc/allocators.md): freelist has
 * one; ff offers every run that holds k (FF does not rank them); bf the
 * runs of the least fitting length; sos the runs of the least delta;
 * without a fitting run, every window of the least span.  Each candidate
 * is the first k nodes of its run or window, in curve order. */
static int curve_candidates(struct mesh_allocator *a, const struct mesh_view *v,
			    const struct mesh_request *req, uint32_t *buf,
			    int (*cb)(void *ctx, const uint32_t *nodes),
			    void *ctx)
{
	struct curve_priv *p = a->priv;
	uint32_t k = req->nodes, m, i, nr;
	int64_t run, key, cur;

	if (p->fit == FIT_FREELIST)
		return curve_place(a, v, req, buf) ? MESH_ENOSPC
						   : (cb(ctx, buf), 0);
	p->sparse_now = mesh__sparse_wanted(a, v);
	if (p->sparse_now) {
		m = sparse_runs(a, p, v, &nr);
	} else {
		gather_ranks(p, v);
		m = find_runs(p, v->topo->nodes, &nr);
	}
	if (m < k)
		return MESH_ENOSPC;
	run = pick_run(p, nr, k, &key);
	if (run < 0) {
		window_candidates(p, nr, m, k, buf, cb, ctx);
		return 0;
	}
	if (p->fit == FIT_SOS)
		sos_hist(p, nr, 1);
	for (i = (uint32_t) run; i < nr; i++) {
		if (p->run_len[i] < k)
			continue;
		cur = p->fit == FIT_BF    ? (int64_t) p->run_len[i]
		      : p->fit == FIT_SOS ? sos_delta(p->hist, p->run_len[i], k)
					  : key;
		if (cur != key)
			continue;
		emit_from(p, i, k, buf);
		if (cb(ctx, buf))
			break;
	}
	if (p->fit == FIT_SOS)
		sos_hist(p, nr, 0);
	return 0;
}

const struct mesh_alloc_ops mesh__curve_ops = {
	.create = curve_create,
	.destroy = curve_destroy,
	.place = curve_place,
	.candidates = curve_candidates,
};
