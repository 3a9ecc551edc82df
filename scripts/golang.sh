#!/bin/sh
# Go and its checksum database's packages (golang.org/x/mod/sumdb/note and sumdb/tlog), which check
# the audit log's checkpoints and proofs independently (test/independent/): Debian's packages,
# installed here when missing and this runs as root (as CI does). Nothing is downloaded by Go itself.
SUMDB=/usr/share/gocode/src/golang.org/x/mod/sumdb/tlog

if { ! command -v go >/dev/null 2>&1 || [ ! -d "$SUMDB" ]; } && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "Go or golang.org/x/mod is missing: installing Debian's packages (apt-get install golang-go golang-golang-x-mod-dev)"
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq golang-go golang-golang-x-mod-dev >/dev/null
fi

if ! command -v go >/dev/null 2>&1 || [ ! -d "$SUMDB" ]; then
  echo "No Go with golang.org/x/mod at $SUMDB: the independent verification tests fail under CI=true. Install golang-go and golang-golang-x-mod-dev (as root)."
fi
exit 0
