import { useState } from 'preact/hooks';
import { api, call, csrf, type Refusal, type Schemas } from '../api/client';
import { navigate } from '../router';
import { RefusalNotice } from '../ui/notice';
import { ScreenHeading } from '../ui/screen';
import { KeyOnce } from './key-once';
import { claimStep, NextStep } from './next-step';

type IssuedKey = Schemas['IssuedKey'];

/** Claim the approved credential: the key comes back once, and this screen is the only place it shows. */
export function Claim({ status, onClaimed }: { status: Schemas['Credential']['status']; onClaimed: () => void }) {
  const [issued, setIssued] = useState<IssuedKey | null>(null);
  const [refusal, setRefusal] = useState<Refusal | null>(null);
  const [busy, setBusy] = useState(false);

  const claim = async () => {
    if (busy) return;
    setBusy(true);
    const answer = await call(async () => api.POST('/developer/claim', { params: { header: await csrf() }, body: {} }));
    setBusy(false);
    if (answer.ok) setIssued(answer.data);
    else setRefusal(answer.refusal);
  };

  const notYet = claimStep(status);
  return (
    <section aria-labelledby="claim-title">
      <ScreenHeading id="claim-title">Claim your credential</ScreenHeading>
      {issued ? (
        <KeyOnce
          apiid={issued.apiid}
          apikey={issued.apikey}
          onStored={() => {
            setIssued(null);
            onClaimed();
            navigate('/developer');
          }}
        />
      ) : notYet ? (
        <NextStep step={notYet} />
      ) : (
        <>
          <p>Your application was approved. Claiming issues your API id and key; the key is shown once, right here.</p>
          <RefusalNotice refusal={refusal} />
          <button type="button" class="primary" aria-disabled={busy} onClick={claim}>
            Claim the key
          </button>
        </>
      )}
    </section>
  );
}
