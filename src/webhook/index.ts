// The webhook slice's public face. Its registration is ./slice.ts.
export { parseSchedule } from './deliveries';
export { webhookSecretsOf, type WebhookSecrets } from './secrets';
