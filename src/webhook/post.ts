import { lookup as dnsLookup, LookupAddress, LookupOptions } from 'node:dns';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, LookupFunction } from 'node:net';
import { isPrivate } from './url-policy';

/** A receiver's address the policy refuses, found when connecting. */
export class RefusedAddress extends Error {
  constructor(readonly address: string) {
    super(`the receiver's host now resolves to ${address}, a loopback, private or reserved address`);
  }
}

/**
 * Resolves as the connection does, and refuses a private address there: the check made when the
 * webhook was registered says nothing of what its host resolves to at each delivery.
 */
const publicOnly: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { ...(options as LookupOptions), all: true }, (err, found: LookupAddress[]) => {
    if (err) return callback(err, '', 0);
    const refused = found.find((a) => isPrivate(a.address));
    if (refused) return callback(new RefusedAddress(refused.address), '', 0);
    if ((options as LookupOptions).all)
      return (callback as unknown as (e: null, all: LookupAddress[]) => void)(null, found);
    const first = found[0]!;
    callback(null, first.address, first.family);
  });
};

/** What a receiver answered: its status and the first bytes of its body. */
export interface ReceiverAnswer {
  status: number;
  /** At most RESPONSE_EXCERPT_BYTES of the body, as text: enough to see why a receiver refused. */
  body: string;
}

/** How much of a receiver's body is read and kept; the rest is never read. */
export const RESPONSE_EXCERPT_BYTES = 1024;

/**
 * POSTs a body and answers the receiver's status with the first bytes of its body; redirects are
 * not followed. Without `allowPrivate`, a host that resolves to a private address, at this
 * connection, is refused with RefusedAddress before anything is sent.
 */
export function postJson(
  url: string,
  headers: Record<string, string>,
  body: string,
  options: { allowPrivate: boolean; timeoutMs: number },
): Promise<ReceiverAnswer> {
  const target = new URL(url);
  const host = target.hostname.replace(/^\[|\]$/g, '');
  if (!options.allowPrivate && isIP(host) && isPrivate(host)) return Promise.reject(new RefusedAddress(host));
  const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = send(
      target,
      {
        method: 'POST',
        headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
        ...(options.allowPrivate ? {} : { lookup: publicOnly }),
      },
      (res) => {
        const chunks: Buffer[] = [];
        let kept = 0;
        const answer = () => {
          clearTimeout(timer);
          resolve({
            status: res.statusCode ?? 0,
            body: Buffer.concat(chunks).subarray(0, RESPONSE_EXCERPT_BYTES).toString('utf8'),
          });
        };
        res.on('data', (chunk: Buffer) => {
          chunks.push(chunk);
          kept += chunk.length;
          // Enough read: a receiver that streams forever holds nothing up.
          if (kept >= RESPONSE_EXCERPT_BYTES) {
            answer();
            res.destroy();
          }
        });
        res.on('end', answer);
        res.on('error', answer);
      },
    );
    // The whole wait for an answer, not the idle time between two packets of a slow receiver.
    const timer = setTimeout(
      () => req.destroy(new Error(`no answer within ${options.timeoutMs} ms`)),
      options.timeoutMs,
    );
    req.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    req.end(body);
  });
}
