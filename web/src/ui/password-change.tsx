import { useState } from 'preact/hooks';
import { api, call, csrf, type Refusal } from '../api/client';
import { differs } from '../admin/repeated-password';
import { PasswordField } from './account-fields';
import { fixing } from './field-issues';
import { RefusalNotice } from './notice';

const EMPTY = { current_password: '', new_password: '', confirmation: '' };

type Form = typeof EMPTY;

/**
 * Changing one's own password, given the current one (or the one-time one an administrator gave):
 * with `repeat`, the new one typed twice and compared before anything is sent. `onChanged` hears
 * the service's message once the password is changed. A field typed in drops what was said of it.
 */
export function usePasswordChange(realm: 'developer' | 'admin', onChanged: (message: string) => void, repeat = true) {
  const [form, setForm] = useState(EMPTY);
  const [refusal, setRefusal] = useState<Refusal | null>(null);
  const set = (name: keyof Form) =>
    fixing((value: string) => setForm((f) => ({ ...f, [name]: value })), setRefusal, [name]);

  const submit = async (event: Event) => {
    event.preventDefault();
    const mismatch = repeat && differs(form.new_password, form.confirmation, 'confirmation');
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
  return { form, set, refusal, submit, repeat };
}

interface FieldsProps {
  /** What the password given now is called: "Current password", "One-time password". */
  current: string;
  form: Form;
  set: (name: keyof Form) => (value: string) => void;
  refusal: Refusal | null;
  /** The new password asked for twice. */
  repeat: boolean;
}

/** The fields of a password change (the new password twice with `repeat`) and its refusal. */
export function PasswordChangeFields({ current, form, set, refusal, repeat }: FieldsProps) {
  const field = (kind: 'current' | 'new' | 'again', name: keyof Form, label: string) => (
    <PasswordField kind={kind} name={name} label={label} value={form[name]} onInput={set(name)} refusal={refusal} />
  );
  return (
    <>
      {field('current', 'current_password', current)}
      {field('new', 'new_password', 'New password')}
      {repeat && field('again', 'confirmation', 'New password again')}
      <RefusalNotice refusal={refusal} takeFocus />
    </>
  );
}
