import { useEffect, useState } from 'preact/hooks';
import { api, call } from '../api/client';

/** Where the browser goes to sign in through the identity provider: a navigation, not a fetch (the provider's pages follow). */
export const SSO_LOGIN = '/api/v1/admin/sso/login';

/**
 * "Sign in with <OIDC_DISPLAY_NAME>" under the administrator's sign-in, when the service has single
 * sign-on (GET /admin/sso); nothing otherwise, and nothing while it is not known.
 */
export function SsoSignIn() {
  const [name, setName] = useState<string | null>(null);
  useEffect(() => {
    void call(() => api.GET('/admin/sso')).then((answer) => {
      if (answer.ok && answer.data.enabled) setName(answer.data.display_name);
    });
  }, []);
  if (name === null) return null;
  return (
    <p class="sso">
      <a class="button" href={SSO_LOGIN}>
        Sign in with {name}
      </a>
    </p>
  );
}
