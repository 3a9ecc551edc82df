import { createHash, randomBytes } from 'node:crypto';
import { z } from 'zod';

/** A mailed link: until when it is good, and whether it was used (or a later change spent it). */
export interface Outstanding {
  expires_at: string;
  spent: boolean;
}

/** A link to mail: the digest of its token and until when it is good. */
export interface MailedLink {
  token_digest: string;
  expires_at: string;
}

/** A link's token: the id of whom it is for, then 256 random bits. Only its SHA-256 digest is kept. */
export interface NewLink {
  token: string;
  link: MailedLink;
}

const TOKEN = /^([1-9][0-9]{0,14})\.([A-Za-z0-9_-]{43})$/;

export const tokenDigest = (token: string): string => createHash('sha256').update(token).digest('hex');

export function newLink(ownerId: number, now: Date, lifetimeMinutes: number): NewLink {
  const token = `${ownerId}.${randomBytes(32).toString('base64url')}`;
  const expires_at = new Date(now.getTime() + lifetimeMinutes * 60_000).toISOString();
  return { token, link: { token_digest: tokenDigest(token), expires_at } };
}

/** Whom a token names and its digest; null for anything this service never mailed. */
export function readToken(token: string): { owner_id: number; token_digest: string } | null {
  const match = TOKEN.exec(token);
  return match ? { owner_id: Number(match[1]), token_digest: tokenDigest(token) } : null;
}

/** A token as a request carries it; one of the wrong shape is refused as unknown, as any other. */
export const tokenSchema = z
  .string({ error: 'token is required: the one in the mailed link' })
  .min(1, 'token is required: the one in the mailed link')
  .max(200, 'token must be at most 200 characters');

export const expired = (link: Outstanding, now: string): boolean => Date.parse(link.expires_at) <= Date.parse(now);

/** Every outstanding link is spent once the password changes, however it changed. */
export const spendAll = <Link extends Outstanding>(links: Record<string, Link>): Record<string, Link> =>
  Object.fromEntries(Object.entries(links).map(([digest, link]) => [digest, { ...link, spent: true }]));
