import { useState } from 'preact/hooks';
import { api, call, csrf, type Refusal } from '../api/client';
import { differs } from '../admin/repeated-password';
import { Field } from './field';
import { RefusalNotice } from './notice';
import { ScreenHeading } from './screen';
import { signOut } from './sign-in';

const EMPTY = { current_password: '', new_password: '', confirmation: '' };

/** Whether a refusal says this session signed in with a one-time password, to be changed first. */
export const mustChoosePassword = (refusal: Refusal): boolean =>
  refusal.status === 403 && refusal.error === 'password_change_required';

/**
 * The only screen of a session signed in with a one-time password (docs/accounts.md): every other
 * call is refused until the member or administrator chooses their own; signing out stays possible.
 */
export function ChoosePassword({ realm, onChanged }: { realm: 'developer' | 'admin'; onChanged: () => void }) {
  const [form, setForm] = useState(EMPTY);
  const [refusal, setRefusal] = useState<Refusal | null>(null);
  const set = (name: keyof typeof form) => (value: string) => setForm((f) => ({ ...f, [name]: value }));

  const submit = async (event: Event) => {
    event.preventDefault();
    const mismatch = differs(form.new_password, form.confirmation, 'confirmation');
    if (mismatch) return setRefusal(mismatch);
    const body = { current_password: form.current_password, new_password: form.new_password };
    const answer = await call(async () =>
      realm === 'admin'
        ? api.POST('/admin/password', { params: { header: await csrf() }, body })
        : api.POST('/developer/password', { params: { header: await csrf() }, body }),
    );
    if (!answer.ok) return setRefusal(answer.refusal);
    setForm(EMPTY);
    onChanged();
  };

  return (
    <>
      <ScreenHeading>Choose your own password</ScreenHeading>
      <p>
        You signed in with a one-time password an administrator gave you. Choose your own before anything else: until
        then nothing else can be opened.
      </p>
      <form onSubmit={submit} class="card" aria-labelledby="choose-password-title" noValidate>
        <h2 id="choose-password-title">Your new password</h2>
        <Field
          name="current_password"
          label="One-time password"
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
          Set my password
        </button>{' '}
        <button type="button" onClick={() => void signOut(realm)}>
          Sign out
        </button>
      </form>
    </>
  );
}
