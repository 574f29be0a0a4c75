/* SPDX-License-Identifier: BSD-3-Clause */
#include "test.h"
int main(void) { return test_done(); }
