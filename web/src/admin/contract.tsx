import { api, raw } from '../api/client';
import { useLoad } from '../ui/load';
import { Loading, LoadFailed } from '../ui/notice';
import { Contents, Operations, type ContractDocument } from '../ui/operations';
import { ScreenHeading } from '../ui/screen';

/** The full contract, as GET /openapi serves it to administrators. */
export function Contract() {
  const [document, reload] = useLoad(() => raw(() => api.GET('/openapi')));
  if (document.state === 'loading') return <Loading what="the contract" />;
  if (document.state === 'failed') return <LoadFailed refusal={document.refusal} onRetry={reload} />;
  return (
    <>
      <ScreenHeading>The full contract</ScreenHeading>
      <p>
        <a href="/api/v1/openapi" download="openapi.json">
          Download the OpenAPI document
        </a>
      </p>
      <Contents document={document.data as unknown as ContractDocument} />
      <Operations document={document.data as unknown as ContractDocument} />
    </>
  );
}
