import { REGISTRY } from '../../src/compose';
import { describeRegisteredEvent, EVENTS } from '../../src/event-registry';
import { eventsOf, Registry, Slice } from '../../src/shared/slice';

const slice = (name: string, permissions?: Record<string, string>): Slice<never, never> => ({
  name,
  events: {},
  permissions,
  projections: [],
  endpoints: () => [],
});

describe('the registry of what the slices register', () => {
  it('lists the permissions of the slices in the order given, then those of the others as listed', () => {
    const registry = new Registry(
      [
        slice('a', { 'a.one': 'first of a' }),
        slice('b', { 'b.one': 'only of b' }),
        slice('c'),
        slice('d', { 'd.one': 'only of d' }),
      ],
      {
        permissionOrder: ['b'],
      },
    );
    expect(registry.permissions).toEqual(['b.one', 'a.one', 'd.one']);
    expect(registry.permissionDescriptions.get('a.one')).toBe('first of a');
  });

  it('refuses a permission two slices register', () => {
    expect(() => new Registry([slice('a', { 'x.manage': 'a' }), slice('b', { 'x.manage': 'b' })])).toThrow(
      'the permission x.manage is registered twice',
    );
  });
});

describe("the streams of a member's history", () => {
  it('are the streams each slice declares for the member, in the order of the slices; a slice that declares none adds none', () => {
    const holding = (
      name: string,
      streams: (m: { id: number; username: string }) => string[],
    ): Slice<never, never> => ({ ...slice(name), memberStreams: streams });
    const registry = new Registry([
      holding('account', (m) => [`account-${m.username}`]),
      slice('other'),
      holding('key', (m) => [`key-${m.id}`]),
    ]);
    expect(registry.memberStreams({ id: 7, username: 'alice' })).toEqual(['account-alice', 'key-7']);
  });
});

describe("the slices' events alone (src/event-registry.ts, what `platform audit verify` loads)", () => {
  it('holds exactly the events the composition registers, each the same definition, in the same order', () => {
    expect([...EVENTS.keys()]).toEqual([...REGISTRY.events.keys()]);
    for (const [type, definition] of REGISTRY.events) expect(EVENTS.get(type)).toBe(definition);
  });

  it('words an event as the composition does, and one no slice words by its type', () => {
    const data = { admin_id: 3, username: 'ops', is_super: false, role_id: 1, password_hash: 'x', email: null };
    expect(describeRegisteredEvent('AdminCreated', data)).toBe(REGISTRY.describe('AdminCreated', data));
    expect(describeRegisteredEvent('AdminCreated', data)).toBe('created the administrator ops (id 3), in role group 1');
    expect(describeRegisteredEvent('SomethingNew', {})).toBe('something new');
  });

  it('refuses an event type two slices register', () => {
    const schema = { safeParse: () => ({ success: true }) } as never;
    expect(() =>
      eventsOf([
        { name: 'a', events: { Twice: { schema } } },
        { name: 'b', events: { Twice: { schema } } },
      ]),
    ).toThrow('the event type Twice of the b slice is registered twice');
  });
});
