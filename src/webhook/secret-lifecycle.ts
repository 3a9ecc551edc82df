import { ReadModels } from '../shared/projections/read-models';
import { AppContext } from '../shared/http/context';
import { decideThenRead, Written } from '../shared/http/read-your-writes';
import { webhooksProjection, WebhookDocument } from './projection';
import { newSecret, view } from './schemas';
import { WebhookSecrets } from './secrets';

/** The two commands an administrator's and a developer's webhooks share, each decided on its owner's stream. */
type SecretCommand =
  | { type: 'RemoveWebhook'; data: { webhook_id: string } }
  | { type: 'RotateWebhookSecret'; data: { webhook_id: string; sealed_secret: string } };

type Decide = (ctx: AppContext, command: SecretCommand) => () => Promise<Written>;

interface SecretDeps {
  webhookSecrets: WebhookSecrets;
  readModels: ReadModels;
}

/** A webhook removed: nothing more is sent to it, and its data key is destroyed, so its secret cannot be recovered. */
export function removeWebhook(deps: SecretDeps, decide: Decide, ctx: AppContext, hook: WebhookDocument) {
  const remove = async () => {
    const removed = await decide(ctx, { type: 'RemoveWebhook', data: { webhook_id: hook.id } })();
    await deps.webhookSecrets.destroy(hook.id);
    return removed;
  };
  return decideThenRead(ctx, remove, async () => ({ data: view(hook), message: 'removed' }));
}

/** A webhook's new secret, sealed before it is recorded, answered this once. */
export async function rotateWebhookSecret(deps: SecretDeps, decide: Decide, ctx: AppContext, id: string) {
  const secret = newSecret();
  const sealed_secret = await deps.webhookSecrets.seal(id, secret);
  const rotate = decide(ctx, { type: 'RotateWebhookSecret', data: { webhook_id: id, sealed_secret } });
  return decideThenRead(ctx, rotate, async ({ position }) => {
    const hook = await deps.readModels.after(webhooksProjection, id, position);
    return {
      data: { ...view(hook!), secret },
      message: 'rotated: keep the new secret, it is not shown again; the old one signs nothing more',
    };
  });
}
