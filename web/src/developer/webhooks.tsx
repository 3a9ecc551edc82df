import { developerWebhookEventsValues } from '../../generated/contract';
import { api, call, csrf, type Schemas } from '../api/client';
import { WebhookCards, type WebhookOwner } from '../admin/webhook-cards';
import type { RowWording, WebhookCalls } from '../admin/webhook-row';
import { ScreenHeading } from '../ui/screen';
import type { SecretWording } from '../ui/secret-once';

type Hook = Schemas['DeveloperWebhook'];

const LIMIT = 5;

const SECRET_WORDING: SecretWording = {
  title: 'Signing secret',
  warning:
    'This is the only time the secret is shown. Store it where your receiver verifies the webhook-signature header.',
  label: 'Secret',
  testId: 'developer-webhook-secret',
  copy: 'Copy the secret',
  stored: 'I have stored the secret somewhere safe',
  done: 'Done: hide the secret',
  leave: "The webhook's signing secret is shown only this once. Leave without storing it?",
};

const ROW_WORDING: RowWording = {
  receiver: 'your receiver',
  rotateQuestion: () =>
    'The current secret stops signing at once: your receiver must verify with the new one, shown once.',
  removeQuestion: (url) => `Remove the webhook ${url}? Nothing more is sent to it.`,
  rotated: SECRET_WORDING,
};

const header = async () => ({ header: await csrf() });

/** The developer's own webhooks' endpoints: no edit, no retry. */
const CALLS: WebhookCalls = {
  test: (id) =>
    call(async () =>
      api.POST('/developer/webhooks/{id}/test', { params: { ...(await header()), path: { id } }, body: {} }),
    ),
  rotate: (id) =>
    call(async () =>
      api.POST('/developer/webhooks/{id}/rotate-secret', { params: { ...(await header()), path: { id } }, body: {} }),
    ),
  deliveries: (id) => call(() => api.GET('/developer/webhooks/{id}/deliveries', { params: { path: { id } } })),
  remove: (id) =>
    call(async () => api.DELETE('/developer/webhooks/{id}', { params: { ...(await header()), path: { id } } })),
};

const DEVELOPER: WebhookOwner = {
  list: () => call(() => api.GET('/developer/webhooks')),
  register: ({ url, events }) =>
    call(async () =>
      api.POST('/developer/webhooks', { params: await header(), body: { url, events: events as Hook['events'] } }),
    ),
  calls: CALLS,
  ids: { register: 'new-developer-webhook', list: 'developer-webhooks-title' },
  title: 'Yours',
  what: 'your webhooks',
  secret: SECRET_WORDING,
  row: ROW_WORDING,
  types: developerWebhookEventsValues,
  limit: LIMIT,
  noValidate: true,
};

/** The developer's own webhooks: register one (at most 5), test, rotate its secret, see its deliveries, remove it. */
export function DeveloperWebhooks() {
  return (
    <>
      <ScreenHeading>Webhooks</ScreenHeading>
      <p>
        Your server is told of your own credential's events as they happen: signed POSTs (Standard Webhooks) to a URL of
        yours. At most {LIMIT}.
      </p>
      <WebhookCards owner={DEVELOPER} />
    </>
  );
}
