#!/bin/sh
# `npm test` after the type check and lint: every runner runs even when one before it failed, so that
# a failing unit test does not hide what the console's browser tests would have said, and CI's closing
# line counts every test. Exits non-zero when any runner failed.
status=0
sh scripts/promtool.sh
# Go for the independent verification of the audit proofs (test/independent/), as e2e.sh gets Chromium.
sh scripts/golang.sh
jest || status=1
npm run test:web || status=1
npm run test:reliability || status=1
npm run test:e2e || status=1
exit $status
