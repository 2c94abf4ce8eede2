#!/usr/bin/env bash
# FreeBSD's own pmc programs (pmccontrol, pmcstat with libpmcstat, pmc,
# pmcannotate, tests/sys/pmc), built unmodified from the FreeBSD source tree
# FREEBSD_SRC names and run on known workloads: tests/freebsd/run.sh (issue
# 23).  FreeBSD's code is not in this repository; without FREEBSD_SRC this
# is one SKIP saying so.
exec bash "$(dirname "$0")/../freebsd/run.sh"
