import request from 'supertest';
import type { Response as AgentResponse } from 'superagent';

/** A body read as text, whatever its content type: the audit export streams NDJSON, which supertest leaves unread. */
export function textOf(res: AgentResponse, done: (err: Error | null, body: unknown) => void): void {
  let text = '';
  res.on('data', (chunk: Buffer) => (text += chunk.toString()));
  res.on('end', () => done(null, text));
}

/** One event of the audit export as an administrator reads it: its type, its summary in words, its actor. */
export interface ExportedEvent {
  type: string;
  summary: string;
  actor: { kind: string; id?: unknown; username?: string } | null;
  data?: Record<string, unknown>;
}

/** GET /audit/events on an administrator's browser (one that prefixes /api/v1), each line parsed. */
export async function auditExport(admin: { get(path: string): request.Test }): Promise<ExportedEvent[]> {
  const text = (await admin.get('/audit/events').buffer(true).parse(textOf).expect(200)).body as string;
  return text
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as ExportedEvent);
}
