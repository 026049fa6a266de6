#!/usr/bin/env bash
# podman with the flags the project's machines need, so every command in the docs and tests is the same:
# the runc runtime, the cgroupfs cgroup manager (no systemd session to delegate to), and containers.conf
# without default ulimits. Usage: deploy/container/podman.sh <podman arguments...>
# Host networking is given per command (`--network=host`), where it is needed.
here=$(cd "$(dirname "$0")" && pwd)
export CONTAINERS_CONF="${CONTAINERS_CONF:-$here/containers.conf}"
exec podman --runtime runc --cgroup-manager=cgroupfs "$@"
