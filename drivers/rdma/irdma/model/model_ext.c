/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/*
 * The model behind an emulator's bus (irdma_model_ext.h): an INLINE model device whose map
 * table stays empty, so that every DMA goes to the emulator's callback, and whose
 * interrupts go to the emulator's MSI-X instead of eventfds.
 */

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_log.h>

#include "irdma_model_ext.h"
#include "model_priv.h"

#define EXT_LOG(level, fmt, ...) \
	rte_log(RTE_LOG_ ## level, RTE_LOGTYPE_PMD, "irdma_model_ext: " fmt "\n", ##__VA_ARGS__)

struct irdma_model_ext {
	struct irdma_hw hw;			/* the model keeps a pointer to it */
	struct irdma_model_config cfg;
	struct irdma_model_ext_ops ops;
};

int
irdma_model_ext_runtime_init(void)
{
	char lcores[32];
	char *argv[] = { "irdma_model_ext", "--no-huge", "-m", "32", "--no-pci", "--no-shconf",
			 "--no-telemetry", "--log-level=lib.eal:error", "-l", lcores, NULL };
	cpu_set_t set;
	int cpu, ret;

	/* EAL pins the calling thread to its main lcore: put the CPUs back after. */
	if (pthread_getaffinity_np(pthread_self(), sizeof(set), &set) != 0)
		return -EINVAL;
	for (cpu = 0; cpu < CPU_SETSIZE && !CPU_ISSET(cpu, &set); cpu++)
		;
	if (cpu == CPU_SETSIZE)
		return -EINVAL;
	snprintf(lcores, sizeof(lcores), "%d", cpu);
	ret = rte_eal_init((int)(sizeof(argv) / sizeof(argv[0])) - 1, argv);
	pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
	if (ret < 0) {
		EXT_LOG(ERR, "EAL init failed: %s", rte_strerror(rte_errno));
		return -rte_errno;
	}
	return 0;
}

/* Parse "xx:xx:xx:xx:xx:xx". */
static int
ext_mac(const char *s, uint8_t mac[6])
{
	unsigned int b[6];
	char end;
	int i;

	if (sscanf(s, "%2x:%2x:%2x:%2x:%2x:%2x%c", &b[0], &b[1], &b[2], &b[3], &b[4], &b[5],
		   &end) != 6)
		return -EINVAL;
	for (i = 0; i < 6; i++)
		mac[i] = (uint8_t)b[i];
	return 0;
}

/* Apply comma-separated key=value devargs to @p cfg. */
static int
ext_devargs(struct irdma_model_config *cfg, const char *devargs)
{
	char *copy, *tok, *save = NULL;
	int ret = 0;

	if (devargs == NULL || devargs[0] == '\0')
		return 0;
	copy = strdup(devargs);
	if (copy == NULL)
		return -ENOMEM;
	for (tok = strtok_r(copy, ",", &save); tok != NULL && ret == 0;
	     tok = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(tok, '=');

		if (eq == NULL) {
			EXT_LOG(ERR, "devargs: '%s' is not key=value", tok);
			ret = -EINVAL;
			break;
		}
		*eq = '\0';
		if (strcmp(tok, "mac") == 0) {
			ret = ext_mac(eq + 1, cfg->mac);
			if (ret != 0)
				EXT_LOG(ERR, "devargs: bad mac '%s'", eq + 1);
			continue;
		}
		ret = irdma_model_config_kv(cfg, tok, eq + 1);
		if (ret == -ENOENT) {
			EXT_LOG(ERR, "devargs: unknown key '%s'", tok);
			ret = -EINVAL;
		}
	}
	free(copy);
	return ret < 0 ? ret : 0;
}

/* Create the model of @p m from its configuration and hand it the callbacks. */
static int
ext_start(struct irdma_model_ext *m)
{
	struct model_dev *d;
	int ret;

	ret = irdma_model_create(&m->cfg, &m->hw);
	if (ret != 0)
		return ret;
	d = m->hw.be_priv;
	model_lock(&d->lock);
	d->ext = m->ops;
	model_unlock(&d->lock);
	return 0;
}

int
irdma_model_ext_create(const char *devargs, const struct irdma_model_ext_ops *ops,
		       struct irdma_model_ext **out)
{
	struct irdma_model_ext *m;
	int ret;

	if (ops == NULL || ops->dma == NULL || ops->irq == NULL || out == NULL) {
		EXT_LOG(ERR, "create: the DMA and interrupt callbacks are mandatory");
		return -EINVAL;
	}
	m = calloc(1, sizeof(*m));
	if (m == NULL)
		return -ENOMEM;
	irdma_model_config_default(&m->cfg);
	m->cfg.mode = IRDMA_MODEL_MODE_INLINE;
	m->cfg.map_eal = false;
	m->ops = *ops;
	ret = ext_devargs(&m->cfg, devargs);
	if (ret == 0)
		ret = ext_start(m);
	if (ret != 0) {
		free(m);
		return ret;
	}
	*out = m;
	return 0;
}

void
irdma_model_ext_destroy(struct irdma_model_ext *m)
{
	if (m == NULL)
		return;
	irdma_model_destroy(&m->hw);
	free(m);
}

int
irdma_model_ext_reset(struct irdma_model_ext *m)
{
	if (m == NULL)
		return -EINVAL;
	/* Power-on state: a new model with the same configuration (the port reattaches). */
	irdma_model_destroy(&m->hw);
	return ext_start(m);
}

uint64_t
irdma_model_ext_bar0_len(void)
{
	return IRDMA_MODEL_BAR0_LEN;
}

uint32_t
irdma_model_ext_read32(struct irdma_model_ext *m, uint32_t offset)
{
	if (m == NULL || m->hw.be == NULL)
		return UINT32_MAX;
	return m->hw.be->reg_read(&m->hw, offset);
}

void
irdma_model_ext_write32(struct irdma_model_ext *m, uint32_t offset, uint32_t value)
{
	if (m != NULL && m->hw.be != NULL)
		m->hw.be->reg_write(&m->hw, offset, value);
}

void
irdma_model_ext_service(struct irdma_model_ext *m)
{
	if (m != NULL && m->hw.be != NULL && m->hw.be->service != NULL)
		m->hw.be->service(&m->hw);
}
