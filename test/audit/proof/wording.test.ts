import { REGISTRY } from '../../support/registry';

// How the audit trail, the search and the console tell the proof's own events.
describe('the wording of the audit proof events', () => {
  it('tells a signed checkpoint by the tree size it covers, and a legacy one as before', () => {
    expect(REGISTRY.describe('AuditCheckpointSigned', { note: '…', size: 42, position: '1', frontier: [] })).toBe(
      'signed checkpoint over the first 42 events of the log',
    );
    expect(REGISTRY.describe('AuditCheckpoint', { number: 3, count: 40 })).toBe(
      'signed checkpoint 3 over the first 40 events of the log',
    );
  });

  it('tells a rotation by the keys as signature lines name them', () => {
    const rotation = { previous: 'log.example/audit+0a1b2c3d+AXk+/w==', next: 'log.example/audit+4e5f6a7b+AZz+/w==' };
    expect(REGISTRY.describe('AuditSigningKeyRotated', rotation)).toBe(
      'rotated the audit signing key from log.example/audit+0a1b2c3d to log.example/audit+4e5f6a7b',
    );
  });
});
