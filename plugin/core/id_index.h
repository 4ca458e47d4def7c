/*
 * id_index.h - a map from a job id to a number >= 0; select/mesh stores
 * the order a job was tracked in, and finds the job from it in O(log n)
 * (a rebuild from the job list and a preemption's victim setup were
 * quadratic with a linear search).
 * Open addressing with linear probing and backward-shift deletion, so
 * no tombstones accumulate; the table doubles at half full.  Slurm-free.
 */
#ifndef SMC_ID_INDEX_H
#define SMC_ID_INDEX_H

#include <stddef.h>
#include <stdint.h>

struct smc_id_index;

/* New empty index; RET NULL when out of memory.  Free with
 * smc_id_index_destroy(). */
struct smc_id_index *smc_id_index_create(void);
void smc_id_index_destroy(struct smc_id_index *x);

/* The number stored for id, or -1. */
long smc_id_index_get(const struct smc_id_index *x, uint32_t id);

/* Store pos (>= 0) for id, replacing any.  RET 0, or -1 when out of
 * memory (the index is then as it was). */
int smc_id_index_set(struct smc_id_index *x, uint32_t id, long pos);

/* Forget id (a no-op if absent). */
void smc_id_index_del(struct smc_id_index *x, uint32_t id);

/* Forget every id, keeping the table's size. */
void smc_id_index_clear(struct smc_id_index *x);

/* How many ids are stored. */
size_t smc_id_index_count(const struct smc_id_index *x);

#endif
