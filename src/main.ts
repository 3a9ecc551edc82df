import { serve } from './serve';

/** `npm start`: the API on the embedded stores, unless EVENTSTORE_URL and MONGODB_URL say otherwise. */
serve(process.env).catch((err: unknown) => {
  process.stderr.write(`platform API failed to start: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
