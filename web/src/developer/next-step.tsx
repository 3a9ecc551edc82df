import type { Schemas } from '../api/client';
import { Link } from '../ui/link';

type Status = Schemas['Credential']['status'];

/** Why a screen has nothing to offer yet, in plain words, and where to go next. */
interface Step {
  why: string;
  to: string;
  label: string;
}

const DASHBOARD = '/developer';
const APPLY_AGAIN = { to: DASHBOARD, label: 'Apply again on your dashboard' };

/** Claiming needs an approved application. */
const CLAIM: Record<Exclude<Status, 'approved'>, Step> = {
  none: {
    why: 'There is no key to claim yet: you have not applied for API credentials.',
    to: DASHBOARD,
    label: 'Apply on your dashboard',
  },
  pending: {
    why: 'Your application is waiting for an administrator to review it. You can claim your key here once it is approved.',
    to: DASHBOARD,
    label: 'See its status on your dashboard',
  },
  rejected: { why: 'Your application was rejected, so there is no key to claim. You may apply again.', ...APPLY_AGAIN },
  revoked: { why: 'Your credential was revoked, so there is no key to claim. You may apply again.', ...APPLY_AGAIN },
  active: {
    why: 'You have claimed your key already. If it was lost or leaked, rotate it to get a new one.',
    to: DASHBOARD,
    label: 'Rotate the key on your dashboard',
  },
};

/** Scopes are requested for an active credential: applied for, approved and claimed. */
const SCOPES: Record<Exclude<Status, 'active'>, Step> = {
  none: {
    why: 'Scopes belong to an API credential, and you do not have one yet. Apply for one first; once it is approved and you have claimed your key, you can request scopes here.',
    to: DASHBOARD,
    label: 'Apply on your dashboard',
  },
  pending: {
    why: 'Your application is waiting for an administrator to review it. Once it is approved and you have claimed your key, you can request scopes here.',
    to: DASHBOARD,
    label: 'See its status on your dashboard',
  },
  approved: {
    why: 'Your application was approved: claim your key first, then request scopes here.',
    to: '/developer/claim',
    label: 'Claim your key',
  },
  rejected: {
    why: 'Your application was rejected, so there is no credential to request scopes for. You may apply again.',
    ...APPLY_AGAIN,
  },
  revoked: {
    why: 'Your credential was revoked, so scopes cannot be requested for it. You may apply again.',
    ...APPLY_AGAIN,
  },
};

export const claimStep = (status: Status): Step | null => (status === 'approved' ? null : CLAIM[status]);
export const scopesStep = (status: Status): Step | null => (status === 'active' ? null : SCOPES[status]);

export function NextStep({ step }: { step: Step }) {
  return (
    <div class="notice next-step">
      <p>{step.why}</p>
      <p>
        <Link to={step.to}>{step.label}</Link>
      </p>
    </div>
  );
}
