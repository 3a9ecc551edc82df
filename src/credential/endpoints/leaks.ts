import { z } from 'zod';
import { credentialReads } from '../reads';
import { judgeFinding, LeakJudge } from '../leaks/judge';
import { LeakAction } from '../leaks/decide';
import { ScanningKeys } from '../leaks/github-keys';
import { githubSignature, KEY_ID_HEADER, SIGNATURE_HEADER } from '../leaks/github-signature';
import { EventStore } from '../../stores/ports';
import { ReadModels } from '../../shared/projections/read-models';
import { AppContext } from '../../shared/http/context';
import { endpoint, Endpoint } from '../../shared/http/endpoints';
import type { SignatureCheck } from '../../shared/http/signed-body';
import { commandContext } from '../../shared/http/command-context';
import { adminOf } from '../../shared/http/guards';

/** What the composition root builds for leak reports (src/credential/leaks/). */
export interface LeakReporting {
  /** LEAKED_KEY_ACTION: a key still accepted is refused at once (quarantine), or its owner only told (notify). */
  leakedKeyAction: LeakAction;
  /** GitHub's secret-scanning public keys (SECRET_SCANNING_KEYS_FILE or SECRET_SCANNING_KEYS_URL). */
  scanningKeys: ScanningKeys;
  /** BODY_LIMIT_KB: the signed body is read up to it before its signature is checked. */
  bodyLimitKb: number;
  /** Counts a post whose signature failed against its address; refuses (429) once over the limit. */
  unsignedPost(ctx: AppContext): Promise<void>;
}

export interface LeakDeps {
  events: EventStore;
  readModels: ReadModels;
  leaks: LeakReporting;
}

const MAX_MATCHES = 1_000;

// GitHub's match: token, type, url (possibly empty) and source; fields GitHub adds later are ignored.
const matchSchema = z.object({
  token: z.string({ error: 'token must be a string' }).min(1, 'token is empty').max(1_000, 'token is too long'),
  type: z.string({ error: 'type must be a string' }).max(200, 'type is at most 200 characters'),
  url: z.string({ error: 'url must be a string' }).max(2_000, 'url is at most 2000 characters'),
  source: z.string().max(100, 'source is at most 100 characters').optional(),
});

const feedbackSchema = z.array(
  z.object({
    token_hash: z.string().meta({ description: 'SHA-256 of the token, hex: never the token itself' }),
    token_type: z.string(),
    label: z.enum(['true_positive', 'false_positive']),
  }),
);

const leakReportSchema = z.strictObject({
  token: z.string({ error: 'token must be the key as found' }).min(1, 'token is empty').max(1_000, 'token is too long'),
  url: z.url({ error: 'url must be an absolute URL' }).max(2_000, 'url is at most 2000 characters').optional(),
  note: z.string().trim().max(500, 'note is at most 500 characters').optional(),
});

const leakAnswerSchema = z.object({
  token_hash: z.string(),
  label: z.enum(['true_positive', 'false_positive']),
  member_id: z.int().nullable().meta({ description: "The key's owner; null for a string this service never issued" }),
  recorded: z
    .boolean()
    .meta({ description: 'Whether this report was recorded: the same key at the same place is recorded once' }),
  quarantined: z.boolean().meta({ description: 'Whether this report made the open API refuse the key' }),
});

/** Secret scanners' reports of keys found in public (docs/credentials.md, "A key found in public"). */
export function leakEndpoints(deps: LeakDeps): Endpoint[] {
  // Built at the first report, once: the contract declares these endpoints without their dependencies.
  let judging: LeakJudge | undefined;
  const judge = (): LeakJudge =>
    (judging ??= {
      events: deps.events,
      action: deps.leaks.leakedKeyAction,
      issuedKey: credentialReads(deps.readModels).issuedKey,
    });
  let checking: SignatureCheck | undefined;
  return [
    endpoint({
      method: 'POST',
      path: '/secret-scanning/github',
      caller: {
        kind: 'signed',
        check: (raw, ctx) => (checking ??= githubSignature(deps.leaks.scanningKeys, deps.leaks.unsignedPost))(raw, ctx),
        get limitKb() {
          return deps.leaks.bodyLimitKb;
        },
        headers: [KEY_ID_HEADER, SIGNATURE_HEADER],
      },
      summary:
        "GitHub's secret scanning reports keys it found in public: each of ours is quarantined and its owner told",
      description: `Signed by GitHub: ${SIGNATURE_HEADER} is an ECDSA P-256 SHA-256 signature (DER, base64) over the raw body by the key ${KEY_ID_HEADER} names. Answers GitHub's feedback format, one entry per match.`,
      body: z.array(matchSchema).max(MAX_MATCHES, `at most ${MAX_MATCHES} matches in one report`),
      response: feedbackSchema,
      raw: 'application/json',
      refusals: [
        {
          status: 401,
          reasons: ['signature_invalid'],
          when: 'the signature is missing, names no known key, or does not match the body (signature_invalid)',
        },
        {
          status: 429,
          reasons: ['too_many_unsigned_posts'],
          when: 'too many unsigned posts from this address (too_many_unsigned_posts)',
        },
        {
          status: 503,
          reasons: ['scanning_keys_unavailable'],
          when: "GitHub's public keys cannot be read (scanning_keys_unavailable)",
        },
      ],
      handler: async (ctx, { body }) => {
        const context = commandContext(ctx, { kind: 'scanner', id: 'github' });
        const feedback = [];
        // One after another: matches of one credential append to one stream.
        for (const match of body) {
          const { token_hash, label } = await judgeFinding(
            judge(),
            { token: match.token, url: match.url, source: match.source ?? 'unknown', note: null },
            context,
          );
          feedback.push({ token_hash, token_type: match.type, label });
        }
        ctx.status = 200;
        ctx.body = feedback;
      },
    }),
    endpoint({
      method: 'POST',
      path: '/credentials/leaks',
      caller: { kind: 'admin', permission: 'credential.review' },
      summary:
        'Report a key found in a log, a ticket or anywhere else: quarantined and its owner told, as a scanner’s report',
      body: leakReportSchema,
      response: leakAnswerSchema,
      handler: async (ctx, { body }) => {
        const context = commandContext(ctx, { kind: 'admin', id: adminOf(ctx).id });
        const judged = await judgeFinding(
          judge(),
          { token: body.token, url: body.url ?? '', source: 'administrator', note: body.note ?? null },
          context,
        );
        const message =
          judged.label === 'false_positive'
            ? 'not a key this service issued: nothing to do'
            : !judged.recorded
              ? 'this key was already reported found there: nothing changed'
              : judged.quarantined
                ? 'the key is refused from now on and its owner told'
                : 'the report is recorded and the owner told';
        return { data: judged, message };
      },
    }),
  ];
}
