import {
  approvedOne,
  expectIssue,
  expectRefusal,
  fixtures,
  granted,
  send,
  useCredentialStates,
} from './credential-states';

/** Claiming and rotating a key when the credential does not allow it. */

useCredentialStates();

describe('POST /developer/claim', () => {
  it('refuses a second claim with 422 credential_already_claimed', async () => {
    const developer = await approvedOne();
    await send(developer, '/developer/claim').expect(200);
    await expectRefusal(() => send(developer, '/developer/claim'), 422, 'credential_already_claimed');
  });

  it.each(['fresh', 'pending'] as const)(
    'refuses a claim before approval (%s) with 422 credential_not_approved',
    async (state) => {
      await expectRefusal(() => send(fixtures[state], '/developer/claim'), 422, 'credential_not_approved');
    },
  );

  it('tells a member who never applied what to do next, and the route that does it', async () => {
    const refused = await expectRefusal(() => send(fixtures.fresh, '/developer/claim'), 422, 'credential_not_approved');
    expect(refused.body.message).toBe(
      'cannot claim a credential whose status is none: apply first (apply with POST /developer/credential)',
    );
  });
});

describe('POST /developer/rotate', () => {
  it.each(['fresh', 'pending', 'approved'] as const)(
    'refuses a rotation before the claim (%s) with 422 credential_not_active',
    async (state) => {
      await expectRefusal(() => send(fixtures[state], '/developer/rotate'), 422, 'credential_not_active');
    },
  );

  it.each([[-1], [86_401], [1.5], ['10'], [null]])(
    'refuses grace_seconds %p with 422 naming grace_seconds',
    async (grace_seconds) => {
      const res = await expectRefusal(
        () => send(granted, '/developer/rotate', { grace_seconds }),
        422,
        'validation_failed',
      );
      expectIssue(res, 'grace_seconds');
    },
  );
});
