# Forward-port of the v8 "per-cgroup tcp memory pressure controls" series:
# apply it to a distro kernel tree, build a small guest kernel, and run
# the tests in QEMU.  Each stage is a script in scripts/; this file only
# wires them together.  'make help' lists targets and variables.

KVER      ?= 6.1
KERNEL    ?= patched
TARBALL   ?= /usr/src/linux-source-$(KVER).tar.xz
CACHE_DIR := $(if $(XDG_CACHE_HOME),$(XDG_CACHE_HOME),$(HOME)/.cache)
BUILD_DIR ?= $(CACHE_DIR)/tcp-memcg-v8
JOBS      ?= $(shell nproc)
# configs/series.config enables the series' option; stock lacks the symbol.
FRAGMENTS ?= configs/guest.config configs/memcg-net.config \
	$(if $(filter patched,$(KERNEL)),configs/series.config)

# Kernel trees and build output never go under the checkout.
ifneq ($(filter $(CURDIR)/%,$(abspath $(BUILD_DIR))/),)
$(error BUILD_DIR=$(BUILD_DIR) is inside the checkout; choose a directory outside it)
endif
DEBUG     ?= 0
ifeq ($(filter $(DEBUG),0 1),)
$(error DEBUG must be 0 or 1, not '$(DEBUG)')
endif
ifeq ($(filter $(KERNEL),patched stock),)
$(error KERNEL must be 'patched' or 'stock', not '$(KERNEL)')
endif

# DEBUG=1: the same tests on a kernel with configs/debug.config (KASAN,
# lockdep, kmemleak, ...) in its own object dir, booted with panic_on_warn.
VARIANT   := $(KVER)-$(KERNEL)$(if $(filter 1,$(DEBUG)),-debug)
TREE      := $(BUILD_DIR)/linux-$(KVER)-$(KERNEL)
OBJ       := $(BUILD_DIR)/obj-$(VARIANT)
BZIMAGE   := $(OBJ)/arch/x86/boot/bzImage
INITRAMFS := $(BUILD_DIR)/initramfs.cpio.gz
LOG       := $(BUILD_DIR)/logs/qemu-test-$(VARIANT).log
KCONFIGS  := $(FRAGMENTS) $(if $(filter 1,$(DEBUG)),configs/debug.config)
GUEST_ENV := $(if $(filter 1,$(DEBUG)),QEMU_APPEND="panic_on_warn=1 tcpmemcg.stress_seconds=180 $(QEMU_APPEND)" \
	QEMU_TIMEOUT=$(or $(QEMU_TIMEOUT),2400) QEMU_MEM=$(or $(QEMU_MEM),2G))
# The stock kernel is the same tree with no series applied.
SERIES_ARGS := $(if $(filter stock,$(KERNEL)),none,series patches)

INITRAMFS_INPUTS := initramfs/init initramfs/run-tests $(wildcard initramfs/*.c) \
	$(wildcard tests/*.sh tests/lib/* tests/helpers/*.c) scripts/make-initramfs.sh

.NOTPARALLEL:
.PHONY: help deps check-deps apply unapply kernel initramfs qemu-test check-series \
	clean distclean

help:
	@echo "Targets:"
	@echo "  deps        install the Debian packages (as root; else prints the command)"
	@echo "  apply       extract $(TARBALL) to TREE and apply 'series' with quilt"
	@echo "  unapply     pop every patch: TREE back to pristine"
	@echo "  kernel      allnoconfig + FRAGMENTS, build bzImage in OBJ"
	@echo "  initramfs   busybox, /init, tests and static helpers -> INITRAMFS"
	@echo "  qemu-test   all of the above as needed, then run the tests in QEMU"
	@echo "  check-series  build and boot after each patch in turn, checkpatch --strict each"
	@echo "  clean       remove build output (OBJ dirs, initramfs, logs), keep trees"
	@echo "  distclean   remove BUILD_DIR entirely"
	@echo "Variables (in effect):"
	@echo "  KVER=$(KVER)  KERNEL=$(KERNEL) (patched|stock)  DEBUG=$(DEBUG) (0|1)  JOBS=$(JOBS)"
	@echo "  TARBALL=$(TARBALL)"
	@echo "  BUILD_DIR=$(BUILD_DIR)"
	@echo "  TREE=$(TREE)"
	@echo "  OBJ=$(OBJ)"
	@echo "  FRAGMENTS=$(FRAGMENTS)"
	@echo "  KCONFIGS=$(KCONFIGS) (FRAGMENTS, plus configs/debug.config with DEBUG=1)"
	@echo "  LOG=$(LOG)"
	@echo "  ACCEL=auto|kvm|tcg  QEMU_TIMEOUT=900  QEMU_MEM=1G  QEMU_SMP=1 (run-qemu.sh)"

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
	@$(GUEST_ENV) scripts/run-qemu.sh $(BZIMAGE) $(INITRAMFS) $(LOG); \
	 scripts/ktap-report.sh $(LOG) $$? || \
	 { echo "serial log: $(LOG)"; exit 1; }

# Its own tree and object dir, so the tree 'make apply' keeps is untouched.
check-series: check-deps initramfs
	@scripts/check-series.sh $(TARBALL) $(BUILD_DIR)/linux-$(KVER)-bisect \
		$(BUILD_DIR)/obj-$(KVER)-bisect series patches $(INITRAMFS) \
		configs/guest.config configs/memcg-net.config configs/series.config

clean:
	rm -rf $(BUILD_DIR)/obj-* $(INITRAMFS) $(BUILD_DIR)/logs

distclean:
	rm -rf $(BUILD_DIR)
