import { createHash, randomBytes } from 'node:crypto';
import { z } from 'zod';
import type { MailedLink } from './account-decisions';

/** How long a mailed password-reset or confirmation link is good for. */
export const LINK_LIFETIME_MINUTES = 30;

/** A link's token: the member's id, then 256 random bits. Only its SHA-256 digest is kept. */
export interface NewLink {
  token: string;
  link: MailedLink;
}

const TOKEN = /^([1-9][0-9]{0,14})\.([A-Za-z0-9_-]{43})$/;

export const tokenDigest = (token: string): string => createHash('sha256').update(token).digest('hex');

export function newLink(memberId: number, now: Date): NewLink {
  const token = `${memberId}.${randomBytes(32).toString('base64url')}`;
  const expires_at = new Date(now.getTime() + LINK_LIFETIME_MINUTES * 60_000).toISOString();
  return { token, link: { token_digest: tokenDigest(token), expires_at } };
}

/** The member a token names and its digest; null for anything this service never mailed. */
export function readToken(token: string): { member_id: number; token_digest: string } | null {
  const match = TOKEN.exec(token);
  return match ? { member_id: Number(match[1]), token_digest: tokenDigest(token) } : null;
}

/** A token as a request carries it; one of the wrong shape is refused as unknown, as any other. */
export const tokenSchema = z
  .string({ error: 'token is required: the one in the mailed link' })
  .min(1, 'token is required: the one in the mailed link')
  .max(200, 'token must be at most 200 characters');
