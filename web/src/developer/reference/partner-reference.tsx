import { useEffect, useState } from 'preact/hooks';
import partnerContract from '../../../generated/partner-contract.json';
import { ScreenHeading } from '../../ui/screen';
import { Contents, type ContractDocument } from '../../ui/operations';
import { Endpoint, type PartnerContract } from './endpoint';
import './reference.css';

const contract = partnerContract as unknown as PartnerContract;
const endpoints = Object.entries(contract.paths).flatMap(([path, operations]) =>
  Object.entries(operations).map(([method, operation]) => ({ path, method: method.toUpperCase(), operation })),
);

/**
 * The open endpoints, from the contract embedded at build time. The key typed for "try it" lives in
 * this screen's state only: never stored, never in an address, gone when the member leaves the
 * screen or the page.
 */
export function PartnerReference({ apiid }: { apiid: string | null }) {
  const [trial, setTrial] = useState({ apiid: apiid ?? '', apikey: '' });
  useEffect(() => {
    // A page kept in the back-forward cache comes back without the key.
    const forget = () => setTrial((t) => ({ ...t, apikey: '' }));
    addEventListener('pagehide', forget);
    return () => removeEventListener('pagehide', forget);
  }, []);
  return (
    <>
      <ScreenHeading>Partner API reference</ScreenHeading>
      <p>
        Your server calls these endpoints with your API id and key in headers, never in the URL. Keep the key in the
        environment (here <code>PLATFORM_API_KEY</code>); each endpoint needs its scope approved.
      </p>
      <Contents document={contract as unknown as ContractDocument} />
      <section class="card try-key" aria-labelledby="try-key-title">
        <h2 id="try-key-title">Your key for "Try it"</h2>
        <p>
          "Try it" calls the open API from this page with the key you type here. The key stays in this page's memory: it
          goes only with the calls you send here, is never stored, and is forgotten when you leave this screen.
        </p>
        <label for="try-apiid">API id (X-API-ID)</label>
        <input
          id="try-apiid"
          value={trial.apiid}
          autoComplete="off"
          spellcheck={false}
          onInput={(e) => setTrial({ ...trial, apiid: e.currentTarget.value })}
        />
        <label for="try-apikey">API key (X-API-Key)</label>
        <input
          id="try-apikey"
          type="password"
          value={trial.apikey}
          autoComplete="off"
          spellcheck={false}
          onInput={(e) => setTrial({ ...trial, apikey: e.currentTarget.value })}
        />
      </section>
      {endpoints.map(({ path, method, operation }) => (
        <Endpoint
          key={`${method} ${path}`}
          method={method}
          path={path}
          operation={operation}
          contract={contract}
          apiid={apiid}
          trial={trial}
        />
      ))}
    </>
  );
}
