import { z } from 'zod';

/** Path parameters that more than one slice takes; one that breaks its rule is 422 invalid_path_parameter. */
export const memberIdParam = z
  .string()
  .regex(/^[1-9][0-9]{0,14}$/, 'member_id must be a positive integer')
  .transform(Number)
  // Read from the path as text, but an integer to a client generated from the contract, as member ids are everywhere else.
  .meta({
    description: 'The member whose credential this is',
    override: { type: 'integer', minimum: 1, maximum: 999_999_999_999_999, pattern: undefined },
  });

export const memberParams = z.object({ member_id: memberIdParam });
