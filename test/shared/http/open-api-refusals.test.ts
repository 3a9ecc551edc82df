import { z } from 'zod';
import { REGISTRY, SLICES } from '../../../src/compose';
import { laneMeter } from '../../../src/observability/http-metrics';
import { createMetrics } from '../../../src/observability/metrics';
import { partnerEndpoint } from '../../../src/shared/http/endpoints';
import { openApiOutcomes, OpenApiRefusal } from '../../../src/shared/http/open-api-refusals';
import { contractOf } from '../../../src/shared/http/openapi';
import { Registry, Slice } from '../../../src/shared/slice';
import { parseExposition, valueOf } from '../../support/metrics';

const quotaSpent: OpenApiRefusal = {
  reason: 'quota_spent',
  status: 403,
  when: (scope) => `this month's calls under ${scope} are spent`,
  outcome: 'quota_spent',
};

/** A slice of a refusal no other slice knows: what it declares is all the kernel can learn of it. */
const quotaSlice: Slice<unknown> = {
  name: 'quota',
  events: {},
  projections: [],
  openApiRefusals: [quotaSpent],
  endpoints: () => [
    partnerEndpoint({
      path: '/open/quota',
      scope: 'quota.read',
      summary: 'What is left of the quota',
      response: z.object({ left: z.int() }),
      answer: () => ({ data: { left: 1 } }),
    }),
  ],
};

const registry = new Registry([...SLICES, quotaSlice] as readonly Slice<never, never>[]);

describe('an open-API refusal a slice declares', () => {
  it('is documented on its partner endpoints, worded for their scope, beside the refusals of the other slices', () => {
    const contract = contractOf(quotaSlice.endpoints(undefined), registry.openApiRefusals);
    const forbidden = contract.paths?.['/open/quota']?.get?.responses?.['403'] as { description: string };
    expect(forbidden.description).toContain("this month's calls under quota.read are spent");
    expect(forbidden.description).toContain('the scope quota.read is not approved for this credential');
  });

  it('is counted under its outcome, bound at 0 before the first call it refuses', async () => {
    const metrics = createMetrics();
    const record = laneMeter(metrics, openApiOutcomes(registry.openApiRefusals)).forRoute(
      '/api/v1/open/quota',
      'quota.read',
    );
    const calls = async () =>
      valueOf(parseExposition(await metrics.registry.metrics()), 'platform_open_api_requests_total', {
        scope: 'quota.read',
        outcome: 'quota_spent',
      });
    expect(await calls()).toBe(0);
    record('quota_spent', 403, 0.001);
    expect(await calls()).toBe(1);
  });

  it("is the credential slice's too: an expired key is documented and counted as expired", () => {
    const contract = JSON.stringify(contractOf(quotaSlice.endpoints(undefined), REGISTRY.openApiRefusals));
    expect(contract).toContain('past its expires_at: credential_expired');
    expect(openApiOutcomes(REGISTRY.openApiRefusals).of('credential_expired', 401)).toBe('expired');
  });

  it('is declared by one slice only', () => {
    expect(
      () => new Registry([quotaSlice, { ...quotaSlice, name: 'quota-again' }] as readonly Slice<never, never>[]),
    ).toThrow('the open-API refusal quota_spent is registered twice');
  });
});
