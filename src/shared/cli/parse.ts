import { InvalidArgumentError } from 'commander';

// Commander turns what these parsers throw into a one-line usage error with exit code 1.

export function parseId(value: string): number {
  const id = Number(value);
  if (!/^[1-9][0-9]*$/.test(value) || !Number.isSafeInteger(id)) {
    throw new InvalidArgumentError('an id is a whole number of at least 1.');
  }
  return id;
}
