// The webhook slice's public face. Its registration is ./slice.ts.
export { keyEncryptionKeyOf, webhookSecretsOf, type WebhookSecrets } from './secrets';
