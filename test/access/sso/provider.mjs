// A real OpenID provider (oidc-provider) on a loopback port of its own, in a child process: it is an
// ES module that jest's CommonJS sandbox would not load. The parent sets a person's groups over IPC.
import { createServer } from 'node:http';
import Provider from 'oidc-provider';

const { CLIENT_ID, CLIENT_SECRET, REDIRECT_URI } = process.env;
/** Groups by subject, as the test sets them ({ sub, groups } messages). */
const groups = new Map();
process.on('message', ({ sub, groups: given }) => {
  groups.set(sub, given);
  process.send({ set: sub });
});

// The issuer names the port, known once the server listens: the server asks for one first.
let handle = (_req, res) => res.end();
const server = createServer((req, res) => handle(req, res));
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const { port } = server.address();

const provider = new Provider(`http://127.0.0.1:${port}`, {
  clients: [
    {
      client_id: CLIENT_ID,
      client_secret: CLIENT_SECRET,
      redirect_uris: [REDIRECT_URI],
      token_endpoint_auth_method: 'client_secret_post',
    },
  ],
  pkce: { required: () => true },
  claims: { openid: ['sub'], profile: ['preferred_username', 'groups'] },
  // The claims in the ID token itself, as most providers configured for SSO send them.
  conformIdTokenClaims: false,
  findAccount: (_ctx, sub) => ({
    accountId: sub,
    claims: () => ({ sub, preferred_username: sub, groups: groups.get(sub) ?? [] }),
  }),
  features: { devInteractions: { enabled: true } },
});
provider.on('server_error', (_ctx, err) => process.stderr.write(`provider server_error: ${err.stack}\n`));
handle = provider.callback();
process.send({ port });
process.on('disconnect', () => server.close(() => process.exit(0)));
