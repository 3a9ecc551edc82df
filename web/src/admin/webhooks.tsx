import { api, call, csrf } from '../api/client';
import { ScreenHeading } from '../ui/screen';
import type { SecretWording } from '../ui/secret-once';
import { WebhookCards, type WebhookOwner } from './webhook-cards';
import type { RowWording, WebhookCalls } from './webhook-row';

const SECRET_WORDING: SecretWording = {
  title: 'Signing secret',
  warning:
    'This is the only time the secret is shown. Store it where your receiver verifies the webhook-signature header.',
  label: 'Secret',
  testId: 'webhook-secret',
  copy: 'Copy the secret',
  stored: 'I have stored the secret somewhere safe',
  done: 'Done: hide the secret',
  leave: "The webhook's signing secret is shown only this once. Leave without storing it?",
};

const ROW_WORDING: RowWording = {
  receiver: 'the receiver',
  rotateQuestion: (url) =>
    `The current secret of ${url} stops signing at once: its receiver must verify with the new one, shown once.`,
  removeQuestion: (url) =>
    `Remove the webhook ${url}? Nothing more is sent to it, and its deliveries are no longer listed.`,
  rotated: {
    ...SECRET_WORDING,
    title: 'New signing secret',
    warning:
      'This is the only time the new secret is shown, and the old one signs nothing more. Store it where the receiver verifies the webhook-signature header.',
    testId: 'rotated-webhook-secret',
    leave: "The webhook's new signing secret is shown only this once. Leave without storing it?",
  },
};

const header = async () => ({ header: await csrf() });

/** The administrators' webhooks' endpoints. */
const CALLS: WebhookCalls = {
  test: (id) =>
    call(async () => api.POST('/webhooks/{id}/test', { params: { ...(await header()), path: { id } }, body: {} })),
  rotate: (id) =>
    call(async () =>
      api.POST('/webhooks/{id}/rotate-secret', { params: { ...(await header()), path: { id } }, body: {} }),
    ),
  update: (id, body) =>
    call(async () => api.PUT('/webhooks/{id}', { params: { ...(await header()), path: { id } }, body })),
  deliveries: (id) => call(() => api.GET('/webhooks/{id}/deliveries', { params: { path: { id } } })),
  remove: (id) => call(async () => api.DELETE('/webhooks/{id}', { params: { ...(await header()), path: { id } } })),
  retry: (id, delivery_id) =>
    call(async () =>
      api.POST('/webhooks/{id}/deliveries/{delivery_id}/retry', {
        params: { ...(await header()), path: { id, delivery_id } },
        body: {},
      }),
    ),
};

const ADMINISTRATORS: WebhookOwner = {
  list: () => call(() => api.GET('/webhooks')),
  register: (body) => call(async () => api.POST('/webhooks', { params: await header(), body })),
  calls: CALLS,
  ids: { register: 'new-webhook', list: 'webhooks-title' },
  title: 'Registered',
  what: 'the webhooks',
  secret: SECRET_WORDING,
  row: ROW_WORDING,
};

/** Webhooks: register one (its secret shown once), list them, each one's deliveries, test send, edit and removal. */
export function Webhooks() {
  return (
    <>
      <ScreenHeading>Webhooks</ScreenHeading>
      <WebhookCards owner={ADMINISTRATORS} />
    </>
  );
}
