/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/*
 * vfio_fault: the guest half of tests/vm/vfio_e810.sh's loopback, interrupt and IOMMU-fault
 * checks, on one irdma device (the VFIO backend in the VM; the model elsewhere):
 *
 *   vfio_fault [EAL options] -- <devargs>
 *
 *  1. Two RC QPs of the device connected to each other (the packets loop back through the
 *     port); one signaled 4 KiB RDMA WRITE, the target compared byte for byte.
 *  2. The interrupt path: the device's event interrupt (the AEQ's MSI-X vector, an eventfd
 *     that EAL's interrupt thread serves) is live; the MSI-X lines of /proc/interrupts are
 *     printed while the device is open. Then the completion path: a second QP pair whose CQ
 *     belongs to a completion channel; the CQ armed, one signaled WRITE, and with nothing
 *     polling the device the channel's fd becomes readable (CEQ -> MSI-X -> eventfd), the
 *     event names that CQ, the CQ then holds the WRITE's successful completion, the data
 *     matches, and the vfio-msix counts of /proc/interrupts rose.
 *  3. An IOMMU fault: the source buffer is a page of plain process memory (mmap), which
 *     the driver maps for its MR at IOVA = VA; that mapping is then removed behind the
 *     driver's back (rte_vfio_container_dma_unmap, VFIO_IOMMU_UNMAP_DMA), so a WRITE from
 *     it makes the device read an IOVA that is no longer mapped. Expected: no successful
 *     completion, an asynchronous QP error event delivered through the interrupt (the
 *     event fd becomes readable without anyone polling), the target left untouched. The
 *     guest kernel logs the DMAR fault (the script checks the console).
 * Prints one "vfio_fault: ok <what>" or "vfio_fault: FAIL <what>" line per check; exit 0
 * when all passed.
 */

#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_malloc.h>
#include <rte_memory.h>
#include <rte_vfio.h>

#include <rdmadev.h>

#define LEN 4096u		/* bytes of the good WRITE and of the faulting one */
#define TIMEOUT_S 30u		/* longest wait for a completion or an event (TCG) */

static int failures;

static void
result(int ok, const char *what)
{
	printf("vfio_fault: %s %s\n", ok ? "ok" : "FAIL", what);
	if (!ok)
		failures++;
}

#define CHECK(call) do {						\
	int rc_ = (call);						\
	if (rc_ < 0) {							\
		fprintf(stderr, "vfio_fault: %s: %s\n", #call, strerror(-rc_)); \
		failures++;						\
		goto out;						\
	}								\
} while (0)

static int
qp_connect(struct rdmadev_qp *qp, uint32_t dest, const struct rdmadev_ah_attr *av)
{
	struct rdmadev_qp_attr a = { .qp_state = RDMADEV_QPS_INIT, .port_num = 1 };
	int rc;

	a.qp_access_flags = RDMADEV_ACCESS_REMOTE_WRITE;
	rc = rdmadev_qp_modify(qp, &a, RDMADEV_QP_STATE | RDMADEV_QP_PKEY_INDEX |
			       RDMADEV_QP_PORT | RDMADEV_QP_ACCESS_FLAGS);
	if (rc < 0)
		return rc;
	memset(&a, 0, sizeof(a));
	a.qp_state = RDMADEV_QPS_RTR;
	a.ah_attr = *av;
	a.path_mtu = RDMADEV_MTU_1024;
	a.dest_qp_num = dest;
	a.max_dest_rd_atomic = 1;
	a.min_rnr_timer = 12;
	rc = rdmadev_qp_modify(qp, &a, RDMADEV_QP_STATE | RDMADEV_QP_AV | RDMADEV_QP_PATH_MTU |
			       RDMADEV_QP_DEST_QPN | RDMADEV_QP_RQ_PSN |
			       RDMADEV_QP_MAX_DEST_RD_ATOMIC | RDMADEV_QP_MIN_RNR_TIMER);
	if (rc < 0)
		return rc;
	a.qp_state = RDMADEV_QPS_RTS;
	a.timeout = 14;
	a.retry_cnt = 2;
	a.rnr_retry = 2;
	a.max_rd_atomic = 1;
	return rdmadev_qp_modify(qp, &a, RDMADEV_QP_STATE | RDMADEV_QP_SQ_PSN |
				 RDMADEV_QP_TIMEOUT | RDMADEV_QP_RETRY_CNT |
				 RDMADEV_QP_RNR_RETRY | RDMADEV_QP_MAX_QP_RD_ATOMIC);
}

/* Post one signaled WRITE of LEN bytes from @p src to @p dst. 0 or a negative errno. */
static int
post_write(struct rdmadev_qp *qp, void *src, uint32_t lkey, void *dst, uint32_t rkey,
	   uint64_t wr_id)
{
	struct rdmadev_sge sge = { .addr = (uint64_t)(uintptr_t)src, .length = LEN,
				   .lkey = lkey };
	struct rdmadev_send_wr wr = {
		.wr_id = wr_id, .sg_list = &sge, .num_sge = 1, .opcode = RDMADEV_WR_RDMA_WRITE,
		.flags = RDMADEV_SEND_SIGNALED,
		.rdma = { .remote_addr = (uint64_t)(uintptr_t)dst, .rkey = rkey },
	};
	int err = 0;

	if (rdmadev_post_send(qp, &wr, 1, &err) != 1)
		return err != 0 ? err : -EIO;
	return 0;
}

/* One signaled WRITE of LEN bytes from @p src to @p dst; its completion (or -ETIMEDOUT). */
static int
write_once(struct rdmadev_qp *qp, struct rdmadev_cq *cq, void *src, uint32_t lkey, void *dst,
	   uint32_t rkey, uint64_t wr_id, struct rdmadev_wc *wc)
{
	uint64_t deadline;
	int rc = post_write(qp, src, lkey, dst, rkey, wr_id);

	if (rc != 0)
		return rc;
	deadline = rte_get_timer_cycles() + TIMEOUT_S * rte_get_timer_hz();
	while (rdmadev_poll_cq(cq, wc, 1) == 0)
		if (rte_get_timer_cycles() > deadline)
			return -ETIMEDOUT;
	return 0;
}

/*
 * The MSI-X lines of /proc/interrupts (vfio-msix), printed; how many there are, and in
 * *@p total the interrupts they counted (every CPU column).
 */
static int
print_msix(unsigned long *total)
{
	char line[512], *p, *end;
	FILE *f = fopen("/proc/interrupts", "r");
	unsigned long v;
	int n = 0;

	*total = 0;
	if (f == NULL)
		return 0;
	while (fgets(line, sizeof(line), f) != NULL) {
		if (strstr(line, "vfio-msix") == NULL)
			continue;
		printf("vfio_fault: interrupts: %s", line);
		n++;
		p = strchr(line, ':');
		while (p != NULL) {
			v = strtoul(p + 1, &end, 10);
			if (end == p + 1)
				break;
			*total += v;
			p = end;
		}
	}
	fclose(f);
	return n;
}

/*
 * Check 2b: QPs on a CQ of a completion channel; arm, WRITE buf[0] -> buf[1], wait on the
 * channel's fd (nobody polls the device meanwhile), take and acknowledge the event, poll the
 * completion, compare. Five results.
 */
static void
completion_by_interrupt(int16_t dev, struct rdmadev_ctx *ctx, struct rdmadev_pd *pd,
			const struct rdmadev_ah_attr *av,
			uint8_t *buf[], struct rdmadev_mr *mr[])
{
	struct rdmadev_comp_channel *ch = NULL;
	struct rdmadev_cq_attr cqa = { .cqe = 64 };
	struct rdmadev_qp_init_attr qa = { 0 };
	struct rdmadev_qp *qp[2] = { NULL, NULL };
	struct rdmadev_cq *cq = NULL, *evcq = NULL;
	struct rdmadev_wc wc = { 0 };
	unsigned long before = 0, after = 0;
	struct pollfd pfd;
	uint64_t deadline;
	int fd, got = 0;
	bool readable = false, event = false, done = false;
	unsigned int i;

	if (rdmadev_comp_channel_create(dev, &ch) != 0) {
		result(0, "a completion channel on the device");
		return;
	}
	cqa.channel = ch;
	if (rdmadev_cq_create(ctx, &cqa, &cq) != 0)
		goto out;
	qa.pd = pd;
	qa.send_cq = cq;
	qa.recv_cq = cq;
	qa.qp_type = RDMADEV_QPT_RC;
	qa.cap = (struct rdmadev_qp_cap){ .max_send_wr = 16, .max_recv_wr = 16,
					  .max_send_sge = 1, .max_recv_sge = 1 };
	for (i = 0; i < 2; i++)
		if (rdmadev_qp_create(&qa, &qp[i]) != 0)
			goto out;
	for (i = 0; i < 2; i++)
		if (qp_connect(qp[i], rdmadev_qp_num(qp[1 - i]), av) != 0)
			goto out;
	memset(buf[1], 0, LEN);
	print_msix(&before);
	if (rdmadev_cq_arm(cq, 0) != 0)
		goto out;
	if (post_write(qp[0], buf[0], rdmadev_mr_lkey(mr[0]), buf[1], rdmadev_mr_rkey(mr[1]),
		       7) != 0)
		goto out;
	fd = rdmadev_comp_channel_fd(ch);
	pfd.fd = fd;
	pfd.events = POLLIN;
	readable = fd >= 0 && poll(&pfd, 1, (int)TIMEOUT_S * 1000) == 1;
	if (readable && rdmadev_cq_get_event(ch, &evcq, NULL) == 0) {
		got = 1;
		event = evcq == cq;
	}
	deadline = rte_get_timer_cycles() + TIMEOUT_S * rte_get_timer_hz();
	while (rdmadev_poll_cq(cq, &wc, 1) == 0 && rte_get_timer_cycles() < deadline)
		;
	done = wc.wr_id == 7 && wc.status == RDMADEV_WC_SUCCESS;
	print_msix(&after);
out:
	result(readable, "completion channel: its fd became readable after the armed CQ's "
	       "completion, with nothing polling");
	result(event, "completion channel: the event names the armed CQ");
	result(done, "completion channel: the CQ then held the WRITE's successful completion");
	result(done && memcmp(buf[0], buf[1], LEN) == 0,
	       "completion channel: the 4096 B written match");
	result(after > before, "completion channel: the vfio-msix interrupt counts rose");
	if (got)
		(void)rdmadev_cq_ack_events(cq, (unsigned int)got);
	for (i = 0; i < 2; i++)
		if (qp[i] != NULL && rdmadev_qp_destroy(qp[i]) < 0)
			failures++;
	if (cq != NULL && rdmadev_cq_destroy(cq) < 0)
		failures++;
	if (rdmadev_comp_channel_destroy(ch) < 0)
		failures++;
	memset(buf[1], 0, LEN);
}

int
main(int argc, char **argv)
{
	struct rdmadev_conf conf = { .nb_comp_vectors = 1 };
	struct rdmadev_cq_attr cq_attr = { .cqe = 64 };
	struct rdmadev_qp_init_attr qa = { 0 };
	struct rdmadev_mr_attr ma = { 0 };
	struct rdmadev_port_info port;
	struct rdmadev_ah_attr av = { 0 };
	struct rdmadev_event ev;
	struct rdmadev_wc wc;
	struct rdmadev_ctx *ctx = NULL;
	struct rdmadev_pd *pd = NULL;
	struct rdmadev_cq *cq = NULL;
	struct rdmadev_qp *qp[2] = { NULL, NULL };
	struct rdmadev_mr *mr[3] = { NULL, NULL, NULL };
	uint8_t *buf[3] = { NULL, NULL, NULL };
	uint64_t iova = 0;
	unsigned long irqs0 = 0, irqs1 = 0;
	struct pollfd pfd;
	uint64_t deadline;
	int16_t dev = -1;
	bool unmapped = false, got_event = false, intr = false;
	int n, rc, efd;
	unsigned int i;

	n = rte_eal_init(argc, argv);
	if (n < 0 || argc - n < 2) {
		fprintf(stderr, "usage: vfio_fault [EAL options] -- <devargs>\n");
		return 2;
	}
	CHECK(dev = (int16_t)rdmadev_open(argv[n + 1]));
	CHECK(rdmadev_configure(dev, &conf));
	CHECK(rdmadev_start(dev));
	CHECK(rdmadev_ctx_alloc(dev, &ctx));
	CHECK(rdmadev_pd_alloc(ctx, &pd));
	CHECK(rdmadev_cq_create(ctx, &cq_attr, &cq));
	qa.pd = pd;
	qa.send_cq = cq;
	qa.recv_cq = cq;
	qa.qp_type = RDMADEV_QPT_RC;
	qa.cap.max_send_wr = 16;
	qa.cap.max_recv_wr = 16;
	qa.cap.max_send_sge = 1;
	qa.cap.max_recv_sge = 1;
	for (i = 0; i < 2; i++)
		CHECK(rdmadev_qp_create(&qa, &qp[i]));
	/* [0] good source, [1] target (EAL memory), [2] the faulting source: one page of
	 * plain memory, which the driver maps for the MR by itself. */
	for (i = 0; i < 3; i++) {
		if (i < 2) {
			buf[i] = rte_zmalloc("vfio_fault", LEN, 4096);
		} else {
			buf[i] = mmap(NULL, LEN, PROT_READ | PROT_WRITE,
				      MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
			if (buf[i] == MAP_FAILED)
				buf[i] = NULL;
		}
		if (buf[i] == NULL) {
			result(0, "memory for the buffers");
			goto out;
		}
		ma.addr = buf[i];
		ma.length = LEN;
		ma.iova = (uint64_t)(uintptr_t)buf[i];
		ma.access = RDMADEV_ACCESS_LOCAL_WRITE | (i == 1 ? RDMADEV_ACCESS_REMOTE_WRITE : 0);
		CHECK(rdmadev_mr_reg(pd, &ma, &mr[i]));
	}
	for (i = 0; i < LEN; i++) {
		buf[0][i] = (uint8_t)(i * 7 + 1);
		buf[2][i] = (uint8_t)(i * 3 + 5);
	}
	CHECK(rdmadev_port_info_get(dev, &port));
	CHECK(rdmadev_gid_get(dev, 0, av.dgid));
	memcpy(av.dmac, port.mac, sizeof(av.dmac));
	av.hop_limit = 64;
	av.vlan_id = 0xffff;
	av.port_num = 1;
	for (i = 0; i < 2; i++)
		CHECK(qp_connect(qp[i], rdmadev_qp_num(qp[1 - i]), &av));

	/* 1. A good WRITE, checked. */
	rc = write_once(qp[0], cq, buf[0], rdmadev_mr_lkey(mr[0]), buf[1],
			rdmadev_mr_rkey(mr[1]), 1, &wc);
	result(rc == 0 && wc.status == RDMADEV_WC_SUCCESS && memcmp(buf[0], buf[1], LEN) == 0,
	       "loopback RDMA WRITE of 4096 B completed and the target matches");
	memset(buf[1], 0, LEN);

	/* 2. The event interrupt is set up (MSI-X vectors enabled through VFIO). */
	result(print_msix(&irqs0) > 0, "MSI-X vectors of the device in /proc/interrupts");
	efd = rdmadev_event_fd(dev);
	result(efd >= 0, "the device's event fd");

	/* 2b. A completion delivered by interrupt through a completion channel. */
	completion_by_interrupt(dev, ctx, pd, &av, buf, mr);

	/* 3. The fault: drop the IOMMU mapping of buf[2] (IOVA = VA), WRITE from it. */
	iova = (uint64_t)(uintptr_t)buf[2];
	if (rte_vfio_container_dma_unmap(RTE_VFIO_DEFAULT_CONTAINER_FD, iova, iova, LEN) != 0) {
		result(0, "VFIO_IOMMU_UNMAP_DMA of the source page");
		goto out;
	}
	unmapped = true;
	printf("vfio_fault: iova 0x%" PRIx64 " +%u unmapped from the IOMMU\n", iova, LEN);
	rc = write_once(qp[0], cq, buf[2], rdmadev_mr_lkey(mr[2]), buf[1],
			rdmadev_mr_rkey(mr[1]), 2, &wc);
	printf("vfio_fault: faulting WRITE: %s\n", rc == 0 ? rdmadev_wc_status_str(wc.status) :
	       strerror(-rc));
	result(rc != 0 || wc.status != RDMADEV_WC_SUCCESS,
	       "the WRITE from an unmapped IOVA did not complete successfully");
	/* The event must arrive by interrupt: wait on the fd, do not poll the device. */
	pfd.fd = efd;
	pfd.events = POLLIN;
	intr = efd >= 0 && poll(&pfd, 1, (int)TIMEOUT_S * 1000) == 1;
	result(intr, "the asynchronous event arrived through the interrupt (event fd readable)");
	deadline = rte_get_timer_cycles() + TIMEOUT_S * rte_get_timer_hz();
	while (!got_event && rte_get_timer_cycles() < deadline) {
		if (rdmadev_event_poll(dev, &ev, 1) != 1)
			continue;
		printf("vfio_fault: event %s obj %u vendor code 0x%x\n",
		       rdmadev_event_type_name(ev.type), ev.obj_id, ev.vendor_code);
		got_event = ev.qp == qp[0] &&
			(ev.type == RDMADEV_EVENT_QP_FATAL || ev.type == RDMADEV_EVENT_QP_REQ_ERR ||
			 ev.type == RDMADEV_EVENT_QP_ACCESS_ERR);
	}
	result(got_event, "an asynchronous error event for the sending QP");
	for (i = 0; i < LEN && buf[1][i] == 0; i++)
		;
	result(i == LEN, "nothing was written to the target");
	print_msix(&irqs1);
	result(irqs1 > irqs0, "the device's MSI-X vector fired (its /proc/interrupts count rose)");
out:
	if (unmapped && rte_vfio_container_dma_map(RTE_VFIO_DEFAULT_CONTAINER_FD, iova, iova,
						   LEN) != 0)
		fprintf(stderr, "vfio_fault: re-mapping the segment failed\n");
	for (i = 0; i < 2; i++)
		if (qp[i] != NULL && rdmadev_qp_destroy(qp[i]) < 0)
			failures++;
	for (i = 0; i < 3; i++) {
		if (mr[i] != NULL && rdmadev_mr_dereg(mr[i]) < 0)
			failures++;
		if (i < 2)
			rte_free(buf[i]);
		else if (buf[i] != NULL)
			munmap(buf[i], LEN);
	}
	if (cq != NULL && rdmadev_cq_destroy(cq) < 0)
		failures++;
	if (pd != NULL && rdmadev_pd_free(pd) < 0)
		failures++;
	if (ctx != NULL && rdmadev_ctx_free(ctx) < 0)
		failures++;
	if (dev >= 0) {
		rdmadev_stop(dev);
		if (rdmadev_close(dev) < 0)
			failures++;
	}
	rte_eal_cleanup();
	printf("vfio_fault: %d failed\n", failures);
	return failures != 0;
}
