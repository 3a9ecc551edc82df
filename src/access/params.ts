import { z } from 'zod';

const idParam = (name: string, what: string) =>
  z
    .string()
    .regex(/^[1-9][0-9]{0,14}$/, `${name} must be a positive integer`)
    .transform(Number)
    // Read from the path as text, but an integer to a client generated from the contract.
    .meta({
      description: what,
      override: { type: 'integer', minimum: 1, maximum: 999_999_999_999_999, pattern: undefined },
    });

export const roleGroupParams = z.object({ role_id: idParam('role_id', 'The role group') });

export const administratorParams = z.object({ admin_id: idParam('admin_id', 'The administrator') });
