import type { Refusal } from '../api/client';

/** Refused in the page, before anything is sent: the password typed twice differs. */
export function differs(password: string, confirmation: string, field: string): Refusal | null {
  if (password === confirmation) return null;
  const message = 'The two passwords differ: type the same password twice.';
  return {
    status: 0,
    error: 'passwords_differ',
    message,
    issues: [{ path: field, message: 'not the same as the password above' }],
  };
}
