/**
 * The service exactly as src/main.ts starts it, plus what only the load test needs and production
 * code must not carry: run with `node --expose-gc` and an IPC channel, it answers the message
 * { type: 'gc-and-measure' } with process.memoryUsage() taken right after a full garbage
 * collection, so that the heap still in use can be compared before and after a load.
 */
import { serve } from '../../../src/serve';

process.on('message', (message: { type?: string }) => {
  if (message.type !== 'gc-and-measure') return;
  global.gc!();
  process.send!(process.memoryUsage());
});

serve(process.env).catch((err: unknown) => {
  process.stderr.write(`platform API failed to start: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
