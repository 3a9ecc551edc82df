import { Registry, Slice } from '../../src/shared/slice';

const slice = (name: string, permissions?: Record<string, string>): Slice<never, never> => ({ name, events: {}, permissions, projections: [], endpoints: () => [] });

describe('the registry of what the slices register', () => {
  it('lists the permissions of the slices in the order given, then those of the others as listed', () => {
    const registry = new Registry([slice('a', { 'a.one': 'first of a' }), slice('b', { 'b.one': 'only of b' }), slice('c'), slice('d', { 'd.one': 'only of d' })], {
      permissionOrder: ['b'],
    });
    expect(registry.permissions).toEqual(['b.one', 'a.one', 'd.one']);
    expect(registry.permissionDescriptions.get('a.one')).toBe('first of a');
  });

  it('refuses a permission two slices register', () => {
    expect(() => new Registry([slice('a', { 'x.manage': 'a' }), slice('b', { 'x.manage': 'b' })])).toThrow('the permission x.manage is registered twice');
  });
});
