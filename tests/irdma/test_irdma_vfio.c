/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/*
 * The VFIO backend's refusal paths (no host here has an IOMMU, so nothing else can run):
 * malformed PCI addresses, a function absent from sysfs, and, through a fake sysfs tree
 * ($RDMADEV_SYSFS_ROOT), a function that is not Intel, not an E810, not bound to vfio-pci or
 * without an IOMMU group, or sharing its group with a device on a host driver, each refused
 * with its errno and a log line naming the cause before EAL's VFIO layer is asked anything;
 * a function that passes every sysfs check is then refused by the VFIO step itself; a BAR0
 * smaller than the register file is refused with both sizes, and so is EAL memory without
 * IOVAs (no hugepages with IOVA as PA); a device whose firmware never reports ready fails
 * bring-up's first wait with a line saying so. The rdmadev registry stays empty throughout.
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <rte_common.h>
#include <rte_eal.h>
#include <rte_log.h>

#include <rdmadev.h>

#include "irdma_ctrl.h"
#include "irdma_vfio.h"
#include "fake_sysfs.h"
#include "test.h"

static char sysroot[128];

/* ---- log capture ---- */

static FILE *log_file;
static char *log_buf;
static size_t log_len;

static void
log_begin(void)
{
	log_buf = NULL;
	log_len = 0;
	log_file = open_memstream(&log_buf, &log_len);
	TEST_CHECK(log_file != NULL);
	rte_openlog_stream(log_file);
}

/* Stop capturing; the caller frees the returned text. */
static char *
log_end(void)
{
	rte_openlog_stream(NULL);
	if (log_file != NULL)
		fclose(log_file);
	log_file = NULL;
	return log_buf;
}

/* Print captured log text as TAP comments. */
static void
print_log(const char *text)
{
	const char *nl;

	while (text != NULL && *text != '\0') {
		nl = strchr(text, '\n');
		printf("#   | %.*s\n", nl != NULL ? (int)(nl - text) : (int)strlen(text), text);
		text = nl != NULL ? nl + 1 : NULL;
	}
}

/* rdmadev_open(@p devargs) fails with @p err and logs @p want (when not NULL). */
static void
expect_refused(const char *devargs, int err, const char *want)
{
	char *text;
	int rc;

	log_begin();
	rc = rdmadev_open(devargs);
	text = log_end();
	if (rc != err)
		printf("#   %s: got %d, want %d\n", devargs, rc, err);
	TEST_CHECK_EQ(rc, err);
	if (want != NULL && (text == NULL || strstr(text, want) == NULL)) {
		printf("#   %s: log lacks \"%s\":\n", devargs, want);
		print_log(text);
		TEST_CHECK(0);
	}
	free(text);
	TEST_CHECK_EQ(rdmadev_count(), 0);
}

/* ---- cases ---- */

static void
test_parse(void)
{
	char out[16];

	TEST_CHECK_EQ(irdma_vfio_parse_pci_addr("0000:3b:00.0", out, sizeof(out)), 0);
	TEST_CHECK(strcmp(out, "0000:3b:00.0") == 0);
	TEST_CHECK_EQ(irdma_vfio_parse_pci_addr("0000:3B:1f.7", out, sizeof(out)), 0);
	TEST_CHECK(strcmp(out, "0000:3b:1f.7") == 0);
	TEST_CHECK_EQ(irdma_vfio_parse_pci_addr("ffff:ff:1f.7", NULL, 0), 0);
	TEST_CHECK_EQ(irdma_vfio_parse_pci_addr(NULL, NULL, 0), -EINVAL);
	TEST_CHECK_EQ(irdma_vfio_parse_pci_addr("", NULL, 0), -EINVAL);
	TEST_CHECK_EQ(irdma_vfio_parse_pci_addr("3b:00.0", NULL, 0), -EINVAL);
	TEST_CHECK_EQ(irdma_vfio_parse_pci_addr("0000:3b:20.0", NULL, 0), -EINVAL);
	TEST_CHECK_EQ(irdma_vfio_parse_pci_addr("0000:3b:00.8", NULL, 0), -EINVAL);
	TEST_CHECK_EQ(irdma_vfio_parse_pci_addr("0000-3b:00.0", NULL, 0), -EINVAL);
	TEST_CHECK_EQ(irdma_vfio_parse_pci_addr("000g:3b:00.0", NULL, 0), -EINVAL);
	TEST_CHECK_EQ(irdma_vfio_parse_pci_addr("0000:3b:00.0 ", NULL, 0), -EINVAL);
	TEST_CHECK_EQ(irdma_vfio_parse_pci_addr("0000:3b:00.0", out, 5), -EINVAL);
}

static void
test_malformed(void)
{
	struct irdma_hw hw;

	expect_refused("irdma", -EINVAL, "malformed PCI address \"\"");
	expect_refused("irdma:", -EINVAL, "malformed PCI address \"\"");
	expect_refused("irdma:3b:00.0", -EINVAL, "malformed PCI address \"3b:00.0\"");
	expect_refused("irdma:0000:3b:00.8", -EINVAL, "expected DDDD:BB:DD.F");
	expect_refused("irdma:0000:3b:20.0", -EINVAL, "malformed PCI address");
	expect_refused("irdma:zzzz:3b:00.0", -EINVAL, "malformed PCI address");
	expect_refused("irdma:0000:3b:00.0.1", -EINVAL, "malformed PCI address");
	/* The irdma driver takes the resource plan and the port keys, not the model's. */
	expect_refused("irdma:0000:3b:00.0,wire=udp:127.0.0.2", -EINVAL, "has no devargs key");
	expect_refused("irdma:0000:3b:00.0,mode=thread", -EINVAL, "has no devargs key");
	expect_refused("irdma:0000:3b:00.0,mac=01:00:00:00:00:01", -EINVAL, "not a unicast");
	expect_refused("irdma:0000:3b:00.0,qps=8,ip=10.0.0.2,mac=02:00:00:00:00:01", -ENODEV,
		       "no /sys/bus/pci/devices/0000:3b:00.0");
	log_begin();
	TEST_CHECK_EQ(irdma_vfio_open(NULL, &hw), -EINVAL);
	TEST_CHECK_EQ(irdma_vfio_open("0000:3b:00.0", NULL), -EINVAL);
	free(log_end());
}

/* The real /sys: this host has no such function (nor VFIO). */
static void
test_absent(void)
{
	struct stat st;

	unsetenv(RDMADEV_SYSFS_ENV);
	if (stat("/sys/bus/pci/devices/0000:3b:00.0", &st) == 0) {
		printf("# 0000:3b:00.0 exists on this host: only the refusal is checked\n");
		log_begin();
		TEST_CHECK(rdmadev_open("irdma:0000:3b:00.0") < 0);
		free(log_end());
		TEST_CHECK_EQ(rdmadev_count(), 0);
		return;
	}
	expect_refused("irdma:0000:3b:00.0", -ENODEV,
		       "0000:3b:00.0: no /sys/bus/pci/devices/0000:3b:00.0");
}

static void
test_fake_sysfs(void)
{
	char want[256];
	char *text;
	int rc;

	test_sysfs_create(sysroot, sizeof(sysroot), "irdma-vfio-sysfs");
	test_sysfs_add_func(sysroot, "0000:3b:00.0", "0x8086", "0x1592", "ice", "12");
	test_sysfs_add_func(sysroot, "0000:3b:00.1", "0x8086", "0x1592", NULL, "12");
	test_sysfs_add_func(sysroot, "0000:3b:00.2", "0x8086", "0x1593", "vfio-pci", NULL);
	test_sysfs_add_func(sysroot, "0000:3b:00.3", "0x8086", "0x159b", "vfio-pci", "13");
	/* Shares group 12 with 00.0 (on ice); 00.5 shares group 13 with 00.3 on vfio-pci. */
	test_sysfs_add_func(sysroot, "0000:3b:00.4", "0x8086", "0x1593", "vfio-pci", "12");
	test_sysfs_add_func(sysroot, "0000:3b:00.5", "0x8086", "0x1593", "vfio-pci", "13");
	/* ixgbe */
	test_sysfs_add_func(sysroot, "0000:5e:00.0", "0x8086", "0x10fb", "vfio-pci", "21");
	/* mlx5 */
	test_sysfs_add_func(sysroot, "0000:5e:00.1", "0x15b3", "0x1017", "vfio-pci", "22");
	TEST_CHECK_EQ(setenv(RDMADEV_SYSFS_ENV, sysroot, 1), 0);

	snprintf(want, sizeof(want), "no %s/bus/pci/devices/0000:3b:00.7", sysroot);
	expect_refused("irdma:0000:3b:00.7", -ENODEV, want);
	expect_refused("irdma:0000:3b:00.0", -ENODEV, "not bound to vfio-pci (driver: ice)");
	/* Upper-case hex names the same function. */
	expect_refused("irdma:0000:3B:00.0", -ENODEV, "not bound to vfio-pci (driver: ice)");
	expect_refused("irdma:0000:3b:00.1", -ENODEV, "not bound to vfio-pci (no driver bound)");
	expect_refused("irdma:0000:3b:00.2", -ENODEV, "no IOMMU group");
	expect_refused("irdma:0000:3b:00.4", -EBUSY,
		       "IOMMU group 12 also holds 0000:3b:00.0 (driver: ice)");
	expect_refused("irdma:0000:5e:00.0", -ENODEV, "8086:10fb is not an E810");
	expect_refused("irdma:0000:5e:00.1", -ENODEV, "vendor 0x15b3 is not Intel");

	/* Every sysfs check passes: the VFIO step refuses (EAL has no VFIO here, or the fake
	 * IOMMU group has no /dev/vfio node), and nothing is left behind. */
	log_begin();
	rc = rdmadev_open("irdma:0000:3b:00.3");
	text = log_end();
	TEST_CHECK(rc == -ENODEV || rc == -EIO);
	TEST_CHECK(text != NULL && (strstr(text, "VFIO is not enabled in EAL") != NULL ||
				    strstr(text, "rte_vfio_setup_device failed") != NULL));
	TEST_CHECK(text != NULL && strstr(text, "not bound") == NULL &&
		   strstr(text, "no IOMMU group") == NULL && strstr(text, "also holds") == NULL);
	printf("# 0000:3b:00.3 (usable in sysfs): %d\n", rc);
	print_log(text);
	free(text);
	TEST_CHECK_EQ(rdmadev_count(), 0);

	unsetenv(RDMADEV_SYSFS_ENV);
	test_sysfs_remove(sysroot);
}

/* A BAR0 too small for the register file is refused before it is mapped, with both sizes. */
static void
test_bar0_size(void)
{
	char *text;

	log_begin();
	TEST_CHECK_EQ(irdma_vfio_check_bar0("0000:3b:00.0", 128u << 20), 0);
	TEST_CHECK_EQ(irdma_vfio_check_bar0("0000:3b:00.0", IRDMA_VFIO_BAR0_MIN), 0);
	text = log_end();
	TEST_CHECK(text == NULL || text[0] == '\0');
	free(text);
	log_begin();
	/* An E810 VF's BAR0 (128 KiB), one byte short, and none. */
	TEST_CHECK_EQ(irdma_vfio_check_bar0("0000:3b:00.0", 128u << 10), -ENODEV);
	TEST_CHECK_EQ(irdma_vfio_check_bar0("0000:3b:00.0", IRDMA_VFIO_BAR0_MIN - 1), -ENODEV);
	TEST_CHECK_EQ(irdma_vfio_check_bar0(NULL, 0), -ENODEV);
	text = log_end();
	TEST_CHECK(text != NULL && strstr(text, "0000:3b:00.0: BAR0 is 131072 bytes, smaller "
					  "than the 8388608") != NULL);
	TEST_CHECK(text != NULL && strstr(text, "BAR0 is 0 bytes") != NULL);
	print_log(text);
	free(text);
}

/* Without hugepages EAL memory has IOVAs only as VA: IOVA-as-PA is refused by name. */
static void
test_no_hugepages(void)
{
	char *text;

	log_begin();
	TEST_CHECK_EQ(irdma_vfio_check_mem("0000:3b:00.0", RTE_IOVA_PA, true), 0);
	TEST_CHECK_EQ(irdma_vfio_check_mem("0000:3b:00.0", RTE_IOVA_VA, true), 0);
	TEST_CHECK_EQ(irdma_vfio_check_mem("0000:3b:00.0", RTE_IOVA_VA, false), 0);
	text = log_end();
	TEST_CHECK(text == NULL || text[0] == '\0');
	free(text);
	log_begin();
	TEST_CHECK_EQ(irdma_vfio_check_mem("0000:3b:00.0", RTE_IOVA_PA, false), -ENOTSUP);
	text = log_end();
	TEST_CHECK(text != NULL && strstr(text, "0000:3b:00.0: EAL runs without hugepages") != NULL &&
		   strstr(text, "IOVA as PA") != NULL);
	print_log(text);
	free(text);
}

/* A device whose firmware never reports ready (every register reads 0). */
static uint32_t
zero_read(struct irdma_hw *h, uint32_t off)
{
	RTE_SET_USED(h);
	RTE_SET_USED(off);
	return 0;
}

static void
drop_write(struct irdma_hw *h, uint32_t off, uint32_t v)
{
	RTE_SET_USED(h);
	RTE_SET_USED(off);
	RTE_SET_USED(v);
}

/* Bring-up's first wait gives up after its time limit with a line naming the cause. */
static void
test_never_ready(void)
{
	static const struct irdma_hw_backend be = {
		.name = "never-ready", .reg_read = zero_read, .reg_write = drop_write,
	};
	struct irdma_ctrl *c = calloc(1, sizeof(*c));
	struct irdma_hw hw;
	char *text;

	TEST_CHECK(c != NULL);
	if (c == NULL)
		return;
	memset(&hw, 0, sizeof(hw));
	hw.be = &be;
	strcpy(hw.name, "0000:3b:00.0");
	c->hw = &hw;
	log_begin();
	TEST_CHECK_EQ(irdma_ctrl_wait_fw(c), -ETIMEDOUT);
	text = log_end();
	TEST_CHECK(text != NULL && strstr(text, "firmware not ready after") != NULL);
	print_log(text);
	free(text);
	free(c);
}

int
main(int argc, char **argv)
{
	RTE_SET_USED(argc);
	RTE_SET_USED(argv);
	if (test_eal_init("test_irdma_vfio", NULL) < 0)
		return test_eal_bail();
	TEST_RUN(test_parse);
	TEST_RUN(test_malformed);
	TEST_RUN(test_absent);
	TEST_RUN(test_fake_sysfs);
	TEST_RUN(test_bar0_size);
	TEST_RUN(test_no_hugepages);
	TEST_RUN(test_never_ready);
	rte_eal_cleanup();
	return test_done();
}
