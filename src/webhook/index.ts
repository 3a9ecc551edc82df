// The webhook slice's public face. Its registration is ./slice.ts.
export { webhookSecretsOf, type WebhookSecrets } from './secrets';
