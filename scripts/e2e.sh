#!/bin/sh
# The console's browser tests, in Debian's Chromium: installed here when missing and this runs as
# root (as CI does); otherwise they are skipped, saying why. Nothing downloads a browser build.
CHROMIUM="${CHROMIUM_PATH:-/usr/bin/chromium}"

if [ ! -x "$CHROMIUM" ] && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "Chromium is missing: installing Debian's package (apt-get install chromium)"
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
fi

if [ ! -x "$CHROMIUM" ]; then
  echo "Browser tests SKIPPED: no Chromium at $CHROMIUM. Install it with 'apt-get install chromium' (as root), or set CHROMIUM_PATH."
  if [ -n "$TEST_COUNTS_FILE" ]; then
    skipped=$(npx playwright test --list --reporter=list 2>/dev/null | sed -n 's/^Total: \([0-9]*\) test.*/\1/p')
    echo "{\"passed\":0,\"failed\":0,\"skipped\":${skipped:-1}}" >> "$TEST_COUNTS_FILE"
  fi
  exit 0
fi

exec npx playwright test "$@"
