import { pathFor } from '../router';

/** A member's history has an address of its own, to reload or to pass on. */
export const MEMBER_HISTORY = '/admin/audit/members/:id';

/** The address of a member's timeline; with `asOf`, replayed to that instant (reload-safe: the instant is in the address). */
export const historyAddress = (memberId: number, asOf?: string): string =>
  `${pathFor(MEMBER_HISTORY, { id: memberId })}${asOf ? `?as_of=${encodeURIComponent(asOf)}` : ''}`;

const pad = (n: number) => String(n).padStart(2, '0');

/** An instant as a datetime-local field shows it: the browser's local time, to the second; '' for none or no instant. */
export function localInput(iso: string | null | undefined): string {
  if (!iso || Number.isNaN(Date.parse(iso))) return '';
  const d = new Date(iso);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}
