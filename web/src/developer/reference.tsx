import partnerContract from '../../generated/partner-contract.json';
import { Operations, type ContractDocument } from '../ui/operations';
import { ScreenHeading } from '../ui/screen';

/** The open endpoints, from the contract embedded at build time, with a curl call using this member's API id. */
export function PartnerReference({ apiid }: { apiid: string | null }) {
  const example = (path: string, method: string) =>
    [
      `curl -X ${method} '${location.origin}/api/v1${path}' \\`,
      `  -H 'X-API-ID: ${apiid ?? '<your API id>'}' \\`,
      `  -H "X-API-Key: $PLATFORM_API_KEY"`,
    ].join('\n');
  return (
    <>
      <ScreenHeading>Partner API reference</ScreenHeading>
      <p>
        Your server calls these endpoints with your API id and key in headers, never in the URL. Keep the key in the
        environment (here <code>PLATFORM_API_KEY</code>); each endpoint needs its scope approved.
      </p>
      <Operations document={partnerContract as unknown as ContractDocument} example={example} />
    </>
  );
}
