import pino from 'pino';
import { stopOnSignals } from '../../../src/shutdown';

/** A process whose stop never ends (STOP=hang) or ends at once, under stopOnSignals with LIMIT_MS. */
const log = pino({ level: 'info' }, pino.destination({ sync: true }));
const stop = process.env.STOP === 'hang' ? () => new Promise<void>(() => undefined) : async () => undefined;
stopOnSignals(log, stop, Number(process.env.LIMIT_MS));
// What keeps a real service alive: its listener.
setInterval(() => undefined, 60_000);
log.info('ready');
