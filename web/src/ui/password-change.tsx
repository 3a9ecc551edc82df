import { useState } from 'preact/hooks';
import { api, call, csrf, type Refusal } from '../api/client';
import { differs } from '../admin/repeated-password';
import { Field } from './field';
import { RefusalNotice } from './notice';

const EMPTY = { current_password: '', new_password: '', confirmation: '' };

type Form = typeof EMPTY;

/**
 * Changing one's own password, given the current one (or the one-time one an administrator gave):
 * the new one typed twice and compared before anything is sent. `onChanged` hears the service's
 * message once the password is changed.
 */
export function usePasswordChange(realm: 'developer' | 'admin', onChanged: (message: string) => void) {
  const [form, setForm] = useState(EMPTY);
  const [refusal, setRefusal] = useState<Refusal | null>(null);
  const set = (name: keyof Form) => (value: string) => setForm((f) => ({ ...f, [name]: value }));

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
    setRefusal(null);
    setForm(EMPTY);
    onChanged(answer.message);
  };
  return { form, set, refusal, submit };
}

/** The three fields of a password change and its refusal; `current` names the password given now. */
export function PasswordChangeFields({
  current,
  form,
  set,
  refusal,
}: {
  current: string;
  form: Form;
  set: (name: keyof Form) => (value: string) => void;
  refusal: Refusal | null;
}) {
  return (
    <>
      <Field
        name="current_password"
        label={current}
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
    </>
  );
}
