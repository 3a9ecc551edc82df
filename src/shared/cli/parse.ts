import { InvalidArgumentError } from 'commander';
import { isPermission, Permission, PERMISSIONS } from '../../access/permissions';

// Commander turns what these parsers throw into a one-line usage error with exit code 1.

export function parseId(value: string): number {
  const id = Number(value);
  if (!/^[1-9][0-9]*$/.test(value) || !Number.isSafeInteger(id)) {
    throw new InvalidArgumentError('an id is a whole number of at least 1.');
  }
  return id;
}

export function parsePermissions(list: string): Permission[] {
  const names = list
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
  const unknown = names.filter((name) => !isPermission(name));
  if (unknown.length > 0) {
    throw new InvalidArgumentError(`unknown permission ${unknown.join(', ')}; known: ${PERMISSIONS.join(', ')}.`);
  }
  return names as Permission[];
}
