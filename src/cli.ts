#!/usr/bin/env node
import { setFlagsFromString } from 'node:v8';
import { platformProgram } from './cli-program';
import { describeFailure } from './shared/cli/failure';

// A reader that stops early (`platform openapi | head`) closes the pipe: the output is no longer
// wanted, which is no failure.
process.stdout.on('error', (err: NodeJS.ErrnoException) => {
  if (err.code !== 'EPIPE') throw err;
  process.exit(0);
});

if (process.argv[2] === 'audit' && process.argv[3] === 'verify') {
  // Each line of the export leaves garbage and nothing more: V8 would let it grow the heap to twice
  // the service's own size before collecting it, and its young generation to 16 MB of garbage;
  // kept small, both hold what the verification keeps (docs/performance.md, "platform audit
  // verify"). Set before the first line, they take effect as the heap is next sized; set here, they
  // last for this process alone, not for a test runner that runs the command in its own.
  setFlagsFromString('--optimize-for-size');
  setFlagsFromString('--semi-space-growth-factor=1');
}

platformProgram(process.argv[2])
  .parseAsync(process.argv)
  .catch((err: unknown) => {
    process.stderr.write(`platform: ${describeFailure(err)}\n`);
    process.exit(1);
  });
