# Forward-port of the v8 "per-cgroup tcp memory pressure controls" series:
# apply it to a distro kernel tree, build a small guest kernel, and run
# the tests in QEMU.  Each stage is a script in scripts/; this file only
# wires them together.  'make help' lists targets and variables.

# The default kernel's series is the top-level 'series' with 'patches/';
# another kernel's is patches/KVER/series with its patches beside it.
DEFAULT_KVER := 6.1
KVER      ?= $(DEFAULT_KVER)
series_of   = $(if $(filter $(DEFAULT_KVER),$(1)),series,patches/$(1)/series)
patchdir_of = $(if $(filter $(DEFAULT_KVER),$(1)),patches,patches/$(1))
SERIES    := $(call series_of,$(KVER))
PATCHDIR  := $(call patchdir_of,$(KVER))
KERNEL    ?= patched
TARBALL   ?= /usr/src/linux-source-$(KVER).tar.xz
CACHE_DIR := $(if $(XDG_CACHE_HOME),$(XDG_CACHE_HOME),$(HOME)/.cache)
BUILD_DIR ?= $(CACHE_DIR)/tcp-memcg-v8
JOBS      ?= $(shell nproc)
# configs/series.config enables the series' option; stock lacks the symbol.
# configs/kver-KVER.config, where there is one, is what that kernel needs
# on top (6.12: the v1 memory controller, off by default there).
BASE_FRAGMENTS := configs/guest.config configs/distro-shape.config configs/memcg-net.config \
	configs/cgroup-v2-selftest.config $(wildcard configs/kver-$(KVER).config)
FRAGMENTS ?= $(BASE_FRAGMENTS) $(if $(filter patched,$(KERNEL)),configs/series.config)

# Kernel trees and build output never go under the checkout.
ifneq ($(filter $(CURDIR)/%,$(abspath $(BUILD_DIR))/),)
$(error BUILD_DIR=$(BUILD_DIR) is inside the checkout; choose a directory outside it)
endif
DEBUG     ?= 0
DEB_MODULES ?= cloud
ifeq ($(filter $(DEBUG),0 1 kcsan),)
$(error DEBUG must be 0, 1 or kcsan, not '$(DEBUG)')
endif
ifeq ($(filter $(DEB_MODULES),cloud 0 1),)
$(error DEB_MODULES must be cloud, 0 or 1, not '$(DEB_MODULES)')
endif
ifeq ($(filter $(KERNEL),patched stock),)
$(error KERNEL must be 'patched' or 'stock', not '$(KERNEL)')
endif

# DEBUG=1: the same tests on a kernel with configs/debug.config (KASAN,
# lockdep, kmemleak, full preemption, fault injection, ...) in its own
# object dir, booted with panic_on_warn.  DEBUG=kcsan: the same with
# configs/kcsan.config (the data-race detector, which excludes KASAN),
# without panic_on_warn (KCSAN honours it, and a race is a finding to
# sort, not a crash): its races are sorted by scripts/kcsan-report.sh
# (make check-kcsan).  DEBUG=kcsan boots with loglevel=5 on top of
# run-qemu's quiet, so that the backtraces of its reports (printed at
# the default level) reach the serial log, which kcsan-report.sh reads.
DEBUG_SUFFIX := $(if $(filter 1,$(DEBUG)),-debug)$(if $(filter kcsan,$(DEBUG)),-kcsan)
VARIANT   := $(KVER)-$(KERNEL)$(DEBUG_SUFFIX)
TREE      := $(BUILD_DIR)/linux-$(KVER)-$(KERNEL)
OBJ       := $(BUILD_DIR)/obj-$(VARIANT)
BZIMAGE   := $(OBJ)/arch/x86/boot/bzImage
INITRAMFS := $(BUILD_DIR)/initramfs.cpio.gz
LOG       := $(BUILD_DIR)/logs/qemu-test-$(VARIANT).log
# qemu-test boots once per hierarchy of the memory controller: cgroup v1
# (the kmem.tcp files) and cgroup v2 (the memory.tcp files), each boot
# with its log, LOG with -v1 or -v2 before .log (scripts/run-suite.sh)
HIERARCHIES ?= v1 v2
ifneq ($(filter-out v1 v2,$(HIERARCHIES)),)
$(error HIERARCHIES takes v1 and v2, not '$(HIERARCHIES)')
endif
KCONFIGS  := $(FRAGMENTS) $(if $(filter 1,$(DEBUG)),configs/debug.config) \
	$(if $(filter kcsan,$(DEBUG)),configs/kcsan.config)
GUEST_ENV := $(if $(filter-out 0,$(DEBUG)),QEMU_APPEND="$(if $(filter 1,$(DEBUG)),panic_on_warn=1,loglevel=5) tcpmemcg.stress_seconds=180 $(QEMU_APPEND)" \
	QEMU_TIMEOUT=$(or $(QEMU_TIMEOUT),4800) QEMU_MEM=$(or $(QEMU_MEM),2G))
# The stock kernel is the same tree with no series applied.
SERIES_ARGS := $(if $(filter stock,$(KERNEL)),none,$(SERIES) $(PATCHDIR))

INITRAMFS_INPUTS := initramfs/init initramfs/run-tests initramfs/run-selftest initramfs/run-bench \
	initramfs/kernel-log-splats \
	$(wildcard initramfs/*.c) \
	$(wildcard tests/*.sh tests/lib/* tests/helpers/*.c tests/helpers/*.h) scripts/make-initramfs.sh

.NOTPARALLEL:
.PHONY: help deps check-deps apply unapply kernel initramfs qemu-test qemu-test-repeat check-series \
	check-kcsan check-distro-config check-configs selftest-memcontrol compare-memcontrol bench \
	deb check-deb check-host rebase-report clean distclean

help:
	@echo "Targets:"
	@echo "  deps        install the Debian packages (as root; else prints the command)"
	@echo "  apply       extract $(TARBALL) to TREE and apply 'series' with quilt"
	@echo "  unapply     pop every patch: TREE back to pristine"
	@echo "  kernel      allnoconfig + FRAGMENTS, build bzImage in OBJ"
	@echo "  initramfs   busybox, /init, tests and static helpers -> INITRAMFS"
	@echo "  qemu-test   all of the above as needed, then run the tests in QEMU"
	@echo "  qemu-test-repeat  qemu-test N times while the host builds a kernel (LOAD=build|none)"
	@echo "  check-series  build and boot after each patch in turn, checkpatch --strict each"
	@echo "  check-kcsan   qemu-test DEBUG=kcsan on stock and patched: races the series adds"
	@echo "  check-distro-config  Debian's own config (built-in part) + the series, boot, suite"
	@echo "  check-configs build the patched tree in each configs/variants/*.config (VARIANTS=... for some), W=1 on its files"
	@echo "  selftest-memcontrol  upstream's cgroup v2 test_memcontrol in the guest (KERNEL=...)"
	@echo "  compare-memcontrol   the same on stock and patched, per-test results side by side"
	@echo "  bench       cost of the series: stock vs patched under instruction-counting TCG"
	@echo "  check-host  Debian booted by systemd on the package (KERNEL=stock: Debian's kernel), container caps"
	@echo "  deb         linux-image .deb (make bindeb-pkg) of the patched tree, Debian's config -> DEB_DIR"
	@echo "  check-deb   dpkg-deb --info/--contents of it, boot its vmlinuz, suite, uname -r marker"
	@echo "  rebase-report  FROM's series onto a fresh TO tree: what applies, what needs work"
	@echo "  clean       remove build output (OBJ dirs, initramfs, logs), keep trees"
	@echo "  distclean   remove BUILD_DIR entirely"
	@echo "Variables (in effect):"
	@echo "  KVER=$(KVER)  KERNEL=$(KERNEL) (patched|stock)  DEBUG=$(DEBUG) (0|1|kcsan)  JOBS=$(JOBS)"
	@echo "  TARBALL=$(TARBALL)"
	@echo "  SERIES=$(SERIES)  PATCHDIR=$(PATCHDIR)  (rebase-report: FROM=$(FROM) TO=$(TO))"
	@echo "  BUILD_DIR=$(BUILD_DIR)"
	@echo "  TREE=$(TREE)"
	@echo "  OBJ=$(OBJ)"
	@echo "  FRAGMENTS=$(FRAGMENTS)"
	@echo "  KCONFIGS=$(KCONFIGS) (FRAGMENTS, plus configs/debug.config with DEBUG=1, configs/kcsan.config with DEBUG=kcsan)"
	@echo "  LOG=$(LOG) (-v1, -v2 before .log: one boot per hierarchy)"
	@echo "  HIERARCHIES=$(HIERARCHIES) (qemu-test: the memory controller's cgroup hierarchies booted)"
	@echo "  N=$(N) LOAD=$(LOAD) REPEAT_DIR=$(REPEAT_DIR) (qemu-test-repeat)"
	@echo "  DEB_MODULES=$(DEB_MODULES) (deb: cloud = cloud-amd64 with its modules, 0 built-in only, 1 all of amd64)  DEB_LOCALVERSION=$(DEB_LOCALVERSION)"
	@echo "  DEB_DIR=$(DEB_DIR)"
	@echo "  ACCEL=auto|kvm|tcg  QEMU_TIMEOUT=900  QEMU_MEM=1G  QEMU_SMP=2  QEMU_TCG_THREAD=single|multi (run-qemu.sh)"

deps:
	@scripts/install-deps.sh $(KVER)

check-deps:
	@scripts/check-deps.sh $(KVER)

apply: check-deps
	@scripts/apply-series.sh $(TARBALL) $(TREE) $(SERIES_ARGS)

unapply:
	@scripts/unapply-series.sh $(TREE)

kernel: apply
	@JOBS=$(JOBS) scripts/build-kernel.sh $(TREE) $(OBJ) $(KCONFIGS)

initramfs: $(INITRAMFS)

$(INITRAMFS): $(INITRAMFS_INPUTS)
	@scripts/make-initramfs.sh . $@

qemu-test: kernel initramfs
	@$(GUEST_ENV) scripts/run-suite.sh $(BZIMAGE) $(INITRAMFS) $(LOG) $(HIERARCHIES)
	@$(if $(filter kcsan-patched,$(DEBUG)-$(KERNEL)),scripts/kcsan-report.sh $(SERIES) $(PATCHDIR) $(LOG:.log=-v1.log))

# The suite N times over with the same kernel and initramfs, while the
# host builds a kernel from clean again and again (LOAD=build, the
# default; LOAD=none for a quiet host): which tests failed in how many of
# the N runs (scripts/repeat-suite.sh, scripts/load-host.sh).  Every
# run's logs are kept in REPEAT_DIR.  Not in CI: N runs take N times a
# qemu-test.
N         ?= 10
LOAD      ?= build
REPEAT_DIR := $(BUILD_DIR)/repeat-$(VARIANT)
ifeq ($(filter $(LOAD),build none),)
$(error LOAD must be 'build' or 'none', not '$(LOAD)')
endif
REPEAT_LOAD := $(if $(filter build,$(LOAD)),scripts/load-host.sh $(TREE) $(BUILD_DIR)/obj-$(KVER)-load \
	$(OBJ)/.config $(JOBS))
qemu-test-repeat: kernel initramfs
	@$(GUEST_ENV) REPEAT_LOAD="$(REPEAT_LOAD)" scripts/repeat-suite.sh $(N) $(BZIMAGE) $(INITRAMFS) \
		$(REPEAT_DIR) $(HIERARCHIES)

# The churn (every kind of operation at once, 180 s on 2 vCPUs) under
# KCSAN on the stock and the patched kernel; fails only
# on a race the patched kernel shows in a function the series adds or
# changes and the stock kernel does not show (scripts/kcsan-report.sh).
# KCSAN watches one access in 4000 by default: too few for a TCG guest's
# 180 s, which then saw no race in stock's churn; one in 400 here.
KCSAN_LOG = $(BUILD_DIR)/logs/qemu-test-$(KVER)-$(1)-kcsan-v1.log
KCSAN_RUN = QEMU_TCG_THREAD=multi $(MAKE) --no-print-directory qemu-test KERNEL=$(1) DEBUG=kcsan HIERARCHIES=v1 \
	QEMU_APPEND="tcpmemcg.tests=stress-churn kcsan.skip_watch=400 $(QEMU_APPEND)"
check-kcsan:
	-+@$(call KCSAN_RUN,stock)
	-+@$(call KCSAN_RUN,patched)
	@scripts/kcsan-report.sh $(SERIES) $(PATCHDIR) $(call KCSAN_LOG,patched) $(call KCSAN_LOG,stock)

# Upstream's cgroup v2 memory controller selftest, built from the patched
# tree (with the series' own cases, test_memcg_tcp_*) for both kernels, in
# a guest that mounts cgroup v2 only: the series must not change
# upstream's results, and its own cases fail on stock (compare-memcontrol).
SELFTEST_TREE      := $(BUILD_DIR)/linux-$(KVER)-patched
SELFTEST           := $(BUILD_DIR)/selftests-$(KVER)/test_memcontrol
SELFTEST_INITRAMFS := $(BUILD_DIR)/initramfs-memcontrol.cpio.gz
SELFTEST_LOG        = $(BUILD_DIR)/logs/memcontrol-$(KVER)-$(1).log

selftest-memcontrol: kernel
	@scripts/apply-series.sh $(TARBALL) $(SELFTEST_TREE) $(call series_of,$(KVER)) $(call patchdir_of,$(KVER))
	@scripts/build-selftest.sh $(SELFTEST_TREE) $(SELFTEST)
	@scripts/make-initramfs.sh . $(SELFTEST_INITRAMFS) $(SELFTEST)
	@QEMU_APPEND="tcpmemcg.suite=memcontrol $(QEMU_APPEND)" QEMU_TIMEOUT=$(or $(QEMU_TIMEOUT),1500) \
	 scripts/run-qemu.sh $(BZIMAGE) $(SELFTEST_INITRAMFS) $(call SELFTEST_LOG,$(KERNEL)); \
	 scripts/ktap-report.sh $(call SELFTEST_LOG,$(KERNEL)) $$? || \
	 { echo "serial log: $(call SELFTEST_LOG,$(KERNEL))"; exit 1; }

# A test failing on both kernels is upstream's or the guest's business;
# only a difference between them fails this target.
compare-memcontrol:
	-@$(MAKE) --no-print-directory selftest-memcontrol KERNEL=stock
	-@$(MAKE) --no-print-directory selftest-memcontrol KERNEL=patched
	@scripts/compare-ktap.sh stock $(call SELFTEST_LOG,stock) \
		patched $(call SELFTEST_LOG,patched) '^test_memcg_tcp_'

# The stock and the patched test kernels (same fragments), booted under
# instruction-counting TCG, three times each; not part of qemu-test or CI
# (about 12 min once both kernels are built).  One report per kernel.
bench: initramfs
	@$(MAKE) --no-print-directory kernel KERNEL=stock DEBUG=0
	@$(MAKE) --no-print-directory kernel KERNEL=patched DEBUG=0
	@scripts/bench.sh $(BUILD_DIR)/obj-$(KVER)-stock/arch/x86/boot/bzImage \
		$(BUILD_DIR)/obj-$(KVER)-patched/arch/x86/boot/bzImage $(INITRAMFS) \
		$(BUILD_DIR)/bench-$(KVER)

# Its own tree and object dir, so the tree 'make apply' keeps is untouched.
check-series: check-deps initramfs
	@HIERARCHIES="$(HIERARCHIES)" scripts/check-series.sh $(TARBALL) $(BUILD_DIR)/linux-$(KVER)-bisect \
		$(BUILD_DIR)/obj-$(KVER)-bisect $(SERIES) $(PATCHDIR) $(INITRAMFS) \
		$(BASE_FRAGMENTS) configs/series.config

# Debian's own kernel configuration: its built-in part (modules off) with
# the series, booted with the whole suite; and with its modules, every
# file that uses the accounting the series changes compiled.  Not in CI
# (about 30 minutes on 2 cores).
DEBIAN_CONFIG ?= /usr/src/linux-config-$(KVER)/config.amd64_none_amd64.xz
check-distro-config: check-deps initramfs
	@scripts/apply-series.sh $(TARBALL) $(BUILD_DIR)/linux-$(KVER)-patched $(SERIES) $(PATCHDIR)
	@JOBS=$(JOBS) scripts/check-distro-config.sh $(BUILD_DIR)/linux-$(KVER)-patched \
		$(DEBIAN_CONFIG) $(BUILD_DIR)/obj-$(KVER)-distro $(INITRAMFS) $(BUILD_DIR)/logs \
		configs/distro-check.config configs/series.config

# Installable packages of the patched tree (scripts/build-deb.sh): Debian's
# own kernel configuration with the series' option, through the kernel's
# 'make bindeb-pkg', the kernel release ending in DEB_LOCALVERSION (uname
# -r: 6.12.118+tcpmemcg).  DEB_MODULES=cloud (default): Debian's
# cloud-amd64 flavour with its modules and configs/deb-host.config, the
# package a container host installs ('make check-host' boots it);
# DEB_MODULES=0: Debian's amd64 kernel built in only, with
# configs/distro-check.config, the one check-deb boots with the test
# initramfs; DEB_MODULES=1: Debian's amd64 flavour whole, what a
# maintainer ships (hours).  On 6.12 the v1 memory controller stays off
# as Debian ships it: configs/variants/6.12/memcg-v1-off.config says so,
# and build-deb.sh checks it.  Not in CI; times in tests/README.md.
DEB_LOCALVERSION ?= +tcpmemcg
DEB_DIR := $(BUILD_DIR)/deb-$(KVER)-$(if $(filter 1,$(DEB_MODULES)),full,$(if $(filter 0,$(DEB_MODULES)),builtin,cloud))
DEB_CONFIG := /usr/src/linux-config-$(KVER)/config.amd64_none_$(if $(filter cloud,$(DEB_MODULES)),cloud-amd64,amd64).xz
DEB_FRAGMENTS := $(if $(filter 0,$(DEB_MODULES)),configs/distro-check.config) \
	$(if $(filter cloud,$(DEB_MODULES)),configs/deb-host.config) configs/series.config \
	$(wildcard configs/variants/$(KVER)/memcg-v1-off.config)
deb: check-deps
	@scripts/apply-series.sh $(TARBALL) $(BUILD_DIR)/linux-$(KVER)-patched $(SERIES) $(PATCHDIR)
	@JOBS=$(JOBS) DEB_MODULES=$(DEB_MODULES) DEB_LOCALVERSION=$(DEB_LOCALVERSION) scripts/build-deb.sh \
		$(BUILD_DIR)/linux-$(KVER)-patched $(DEB_CONFIG) $(DEB_DIR) $(DEB_FRAGMENTS)

# The package 'make deb DEB_MODULES=0' left in DEB_DIR (not rebuilt
# here): its metadata to BUILD_DIR/logs, its vmlinuz booted with the
# suite, the guest's uname -r checked for the marker
# (scripts/check-deb.sh).  The test initramfs has no modules: a package
# with modules is booted by check-host, from its own initramfs.
check-deb: initramfs
	@$(if $(filter 0,$(DEB_MODULES)),:,echo "check-deb boots the built-in package: make deb check-deb DEB_MODULES=0 (with modules: make check-host)" >&2; exit 2)
	@DEB_LOCALVERSION=$(DEB_LOCALVERSION) scripts/check-deb.sh $(DEB_DIR) $(INITRAMFS) $(BUILD_DIR)/logs

# Debian itself on the package: a root made by mmdebstrap (Debian 12 for
# 6.1, 13 for 6.12) with systemd and the container tools, the packages
# 'make deb' left installed into it with dpkg, booted from a virtio disk
# under systemd; a unit runs tests/host/host-checks.sh (the cap set by
# podman, runc, LXC, a systemd service and a pod-shaped slice).
# KERNEL=stock: Debian's own cloud-amd64 kernel from the archive instead.
# Not in CI (tests/README.md has its times).
HOST_DIR := $(BUILD_DIR)/host-$(KVER)-$(KERNEL)
check-host:
	@DEB_LOCALVERSION=$(DEB_LOCALVERSION) scripts/make-host-image.sh $(KVER) $(KERNEL) $(DEB_DIR) $(HOST_DIR)
	@scripts/check-host.sh $(HOST_DIR)

# The patched tree in other configurations; the stock tree only for the
# W=1 and object comparisons.  configs/variants/KVER/ holds those that
# exist only in one kernel (6.12: the v1 memory controller off).
# VARIANTS=... picks some of them.
VARIANTS ?= $(sort $(wildcard configs/variants/*.config configs/variants/$(KVER)/*.config))
check-configs: check-deps initramfs
	@scripts/apply-series.sh $(TARBALL) $(BUILD_DIR)/linux-$(KVER)-patched $(SERIES) $(PATCHDIR)
	@scripts/apply-series.sh $(TARBALL) $(BUILD_DIR)/linux-$(KVER)-stock none
	@JOBS=$(JOBS) INITRAMFS=$(INITRAMFS) scripts/check-configs.sh $(BUILD_DIR)/linux-$(KVER)-patched \
		$(BUILD_DIR)/linux-$(KVER)-stock $(BUILD_DIR)/obj-$(KVER)-check \
		$(BASE_FRAGMENTS) configs/series.config \
		-- $(VARIANTS)

# Where the work is when the series moves to another kernel: FROM's
# series pushed onto a fresh tree of TO, one line per patch and per hunk
# that needs work (scripts/rebase-report.sh); the report is also kept in
# BUILD_DIR/logs.
FROM ?= $(DEFAULT_KVER)
TO   ?= 6.12
rebase-report:
	@scripts/check-deps.sh $(TO) >/dev/null
	@mkdir -p $(BUILD_DIR)/logs
	@scripts/rebase-report.sh $(call series_of,$(FROM)) $(call patchdir_of,$(FROM)) \
		/usr/src/linux-source-$(TO).tar.xz $(BUILD_DIR)/rebase-$(FROM)-to-$(TO) \
		$(BUILD_DIR)/logs/rebase-$(FROM)-to-$(TO).txt

clean:
	rm -rf $(BUILD_DIR)/obj-* $(INITRAMFS) $(BUILD_DIR)/logs

distclean:
	rm -rf $(BUILD_DIR)
