/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/*
 * libirdma-verbs, fork safety: after ibv_fork_init() (or with RDMAV_FORK_SAFE / IBV_FORK_SAFE
 * set when the layer starts) the pages of every MR are madvise(MADV_DONTFORK), so a child
 * gets no copy of them and cannot make the parent's registered pages copy-on-write (which
 * would leave the device with the old ones). A page goes back to MADV_DOFORK when its last
 * MR goes. EAL memory is left alone: its hugepages are shared mappings, which a fork does
 * not make copy-on-write (and hugetlb ranges split only at hugepage boundaries). Slow path
 * only: a lock and a flat list of the registered page ranges.
 */

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <rte_memory.h>

#include "verbs_priv.h"

struct iv_range {
	uintptr_t start, end;	/* page aligned */
};

static pthread_mutex_t iv_fork_lock = PTHREAD_MUTEX_INITIALIZER;
static bool iv_fork_on;
static struct iv_range *iv_ranges;
static size_t iv_nb_ranges, iv_cap_ranges;

int
ibv_fork_init(void)
{
	typedef int (*fn_t)(void);
	static fn_t real;
	int rc = 0;

	pthread_mutex_lock(&iv_fork_lock);
	iv_fork_on = true;
	pthread_mutex_unlock(&iv_fork_lock);
	/* Kernel devices in the same process are the system libibverbs' to protect. */
	if (real == NULL)
		real = (fn_t)iv_real_sym("ibv_fork_init", "IBVERBS_1.1");
	if (real != NULL)
		rc = real();
	if (rc != 0)
		IV_LOG(NOTICE, "the system libibverbs' ibv_fork_init: %s (its devices only)",
		       strerror(rc));
	return 0;
}

enum ibv_fork_status
ibv_is_fork_initialized(void)
{
	bool on;

	pthread_mutex_lock(&iv_fork_lock);
	on = iv_fork_on;
	pthread_mutex_unlock(&iv_fork_lock);
	return on ? IBV_FORK_ENABLED : IBV_FORK_DISABLED;
}

void
iv_fork_env(void)
{
	if (getenv("RDMAV_FORK_SAFE") != NULL || getenv("IBV_FORK_SAFE") != NULL)
		(void)ibv_fork_init();
}

/* The page range of [addr, addr + len). */
static struct iv_range
iv_pages(const void *addr, size_t len)
{
	uintptr_t pg = (uintptr_t)sysconf(_SC_PAGESIZE);
	struct iv_range r;

	r.start = (uintptr_t)addr & ~(pg - 1);
	r.end = ((uintptr_t)addr + len + pg - 1) & ~(pg - 1);
	return r;
}

int
iv_fork_protect(const void *addr, size_t len, bool *protected)
{
	struct iv_range r = iv_pages(addr, len);
	int rc = 0;

	*protected = false;
	if (len == 0)
		return 0;
	pthread_mutex_lock(&iv_fork_lock);
	if (!iv_fork_on || rte_mem_virt2memseg_list(addr) != NULL)
		goto out;
	if (iv_nb_ranges == iv_cap_ranges) {
		size_t cap = iv_cap_ranges == 0 ? 16 : iv_cap_ranges * 2;
		struct iv_range *n = realloc(iv_ranges, cap * sizeof(*n));

		if (n == NULL) {
			rc = ENOMEM;
			goto out;
		}
		iv_ranges = n;
		iv_cap_ranges = cap;
	}
	if (madvise((void *)r.start, r.end - r.start, MADV_DONTFORK) != 0) {
		rc = errno;
		IV_LOG(ERR, "madvise(%p, %zu, MADV_DONTFORK): %s", (void *)r.start,
		       (size_t)(r.end - r.start), strerror(rc));
		goto out;
	}
	iv_ranges[iv_nb_ranges++] = r;
	*protected = true;
out:
	pthread_mutex_unlock(&iv_fork_lock);
	return rc;
}

void
iv_fork_unprotect(const void *addr, size_t len)
{
	struct iv_range r = iv_pages(addr, len);
	uintptr_t cur, next;
	size_t i;

	pthread_mutex_lock(&iv_fork_lock);
	for (i = 0; i < iv_nb_ranges; i++)
		if (iv_ranges[i].start == r.start && iv_ranges[i].end == r.end)
			break;
	if (i < iv_nb_ranges)
		iv_ranges[i] = iv_ranges[--iv_nb_ranges];
	/* MADV_DOFORK the pages no other MR covers. */
	for (cur = r.start; cur < r.end; cur = next) {
		bool covered = false;

		next = r.end;
		for (i = 0; i < iv_nb_ranges; i++) {
			if (iv_ranges[i].start <= cur && cur < iv_ranges[i].end) {
				covered = true;
				next = iv_ranges[i].end;
				break;
			}
			if (iv_ranges[i].start > cur && iv_ranges[i].start < next)
				next = iv_ranges[i].start;
		}
		if (next > r.end)
			next = r.end;
		if (!covered && madvise((void *)cur, next - cur, MADV_DOFORK) != 0)
			IV_LOG(WARNING, "madvise(%p, %zu, MADV_DOFORK): %s", (void *)cur,
			       (size_t)(next - cur), strerror(errno));
	}
	pthread_mutex_unlock(&iv_fork_lock);
}
