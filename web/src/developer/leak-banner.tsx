import type { Schemas } from '../api/client';
import { when } from '../ui/load';

type Leak = NonNullable<Schemas['Credential']['leak']>;

// Who found it: an administrator's report, or a scanner's source (GitHub's `commit`, `gist_content`…).
const foundBy = (source: string): string =>
  source === 'administrator' ? 'an administrator reported it' : `found in ${source.replace(/_/g, ' ')}`;

// A report's URL is whatever the reporter sent: linked only when it is a web address.
const isWebAddress = (url: string): boolean => /^https?:\/\//i.test(url);

/**
 * A key of the member's credential found in public: where, what became of it, and the one thing
 * to do (docs/credentials.md, "A key found in public"). Gone once the member rotates.
 */
export function LeakBanner({ leak }: { leak: Leak | null }) {
  if (!leak) return null;
  const where = leak.url ? (
    isWebAddress(leak.url) ? (
      <a href={leak.url} rel="noopener noreferrer">
        {leak.url}
      </a>
    ) : (
      <code>{leak.url}</code>
    )
  ) : (
    'a place the report does not name'
  );
  return (
    <div class="notice refusal leak" role="alert" data-testid="leak-banner">
      <p>
        <strong>Your API key {leak.key_fingerprint}… was found in public</strong> at {where} ({foundBy(leak.source)}),
        reported {when(leak.reported_at)}.
      </p>
      <p>
        {leak.quarantined
          ? 'Partner calls with it are refused from now on (401 credential_leaked).'
          : 'It still works, and anyone who read it can use it.'}{' '}
        Rotate your key below to get a new one, then remove the old one from where it was found.
      </p>
    </div>
  );
}
