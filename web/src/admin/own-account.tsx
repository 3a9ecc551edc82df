import { useState } from 'preact/hooks';
import { api, call, csrf, type Refusal } from '../api/client';
import { Field } from '../ui/field';
import { Done, RefusalNotice, useOutcome } from '../ui/notice';
import { ScreenHeading } from '../ui/screen';
import { differs } from './repeated-password';

const EMPTY = { current_password: '', new_password: '', confirmation: '' };

/** "Your account", for every administrator: their own password, given the current one. */
export function OwnAccount({ username }: { username: string }) {
  const [form, setForm] = useState(EMPTY);
  const [refusal, setRefusal] = useState<Refusal | null>(null);
  const [outcome, report] = useOutcome();
  const set = (name: keyof typeof form) => (value: string) => setForm((f) => ({ ...f, [name]: value }));

  const submit = async (event: Event) => {
    event.preventDefault();
    const mismatch = differs(form.new_password, form.confirmation, 'confirmation');
    if (mismatch) return setRefusal(mismatch);
    const body = { current_password: form.current_password, new_password: form.new_password };
    const answer = await call(async () => api.POST('/admin/password', { params: { header: await csrf() }, body }));
    if (!answer.ok) return setRefusal(answer.refusal);
    setRefusal(null);
    setForm(EMPTY);
    report(`${answer.message.charAt(0).toUpperCase()}${answer.message.slice(1)}.`);
  };

  return (
    <>
      <ScreenHeading>Your account</ScreenHeading>
      <p>
        Signed in as <strong>{username}</strong>.
      </p>
      <Done focusKey={outcome.serial || undefined}>{outcome.message}</Done>
      <form onSubmit={submit} class="card" aria-labelledby="own-password-title" noValidate>
        <h2 id="own-password-title">Change your password</h2>
        <Field
          name="current_password"
          label="Current password"
          type="password"
          value={form.current_password}
          onInput={set('current_password')}
          required
          autocomplete="current-password"
          refusal={refusal}
        />
        <Field
          name="new_password"
          label="New password"
          type="password"
          value={form.new_password}
          onInput={set('new_password')}
          hint="6 to 128 characters"
          required
          autocomplete="new-password"
          refusal={refusal}
        />
        <Field
          name="confirmation"
          label="New password again"
          type="password"
          value={form.confirmation}
          onInput={set('confirmation')}
          required
          autocomplete="new-password"
          refusal={refusal}
        />
        <RefusalNotice refusal={refusal} takeFocus />
        <button type="submit" class="primary">
          Change password
        </button>
      </form>
    </>
  );
}
