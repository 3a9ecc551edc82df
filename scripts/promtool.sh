#!/bin/sh
# promtool, which the alert rule tests run (test/observability/alert-rules.test.ts): installed here
# from Debian's prometheus package when missing and this runs as root (as CI does). Otherwise those
# tests say why they are skipped, and under CI=true they fail rather than skip.
PROMTOOL="${PROMTOOL_PATH:-promtool}"

if ! command -v "$PROMTOOL" >/dev/null 2>&1 && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "promtool is missing: installing Debian's package (apt-get install prometheus)"
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends prometheus >/dev/null
fi
# Never fails the run itself: the tests decide what a missing promtool means.
exit 0
