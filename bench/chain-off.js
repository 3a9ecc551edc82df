// Loaded with -r before the compiled service: its commands append without the audit chain, so
// that (d) measures what the chain costs (BENCH_CHAIN=both, bench/chain-cost.ts).
require('../dist/shared/commands/context').setChaining(false);
