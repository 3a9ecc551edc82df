import { useState } from 'preact/hooks';
import { api, call, csrf, forgetCsrfToken, type Refusal } from '../api/client';
import { ContactFields, NicknameField, PasswordField, RULES, UsernameField } from '../ui/account-fields';
import { fixing, isAt } from '../ui/field-issues';
import { RefusalNotice } from '../ui/notice';
import { ScreenHeading } from '../ui/screen';

const FIELDS = ['username', 'password', 'nickname', 'email', 'mobile'];
const atAField = (path: string) => FIELDS.some((f) => isAt(path, f));

/**
 * What the box under the fields still says: the refusal's message when it names no field, the
 * issues no field shows, or else only that the marked fields need a change (each says why at it).
 */
function summaryOf(refusal: Refusal | null): Refusal | null {
  if (!refusal || refusal.issues.length === 0) return refusal;
  const elsewhere = refusal.issues.filter((i) => !atAField(i.path));
  const message = elsewhere.length
    ? elsewhere.map((i) => (i.path === '(body)' ? i.message : `${i.path}: ${i.message}`)).join('; ')
    : 'Correct the fields marked above, then register again.';
  return { ...refusal, message };
}

export function Register({ onRegistered }: { onRegistered: () => void }) {
  const [form, setForm] = useState({ username: '', password: '', nickname: '', email: '', mobile: '' });
  const [refusal, setRefusal] = useState<Refusal | null>(null);
  // E-mail and mobile answer one rule: either fixes what was said of the pair.
  const set = (name: keyof typeof form) =>
    fixing(
      (value: string) => setForm((f) => ({ ...f, [name]: value })),
      setRefusal,
      name === 'email' || name === 'mobile' ? ['email', 'mobile'] : [name],
    );

  const submit = async (event: Event) => {
    event.preventDefault();
    const answer = await call(async () =>
      api.POST('/developer/register', { params: { header: await csrf() }, body: form }),
    );
    if (!answer.ok) return setRefusal(answer.refusal);
    forgetCsrfToken();
    onRegistered();
  };

  return (
    <form onSubmit={submit} class="card narrow" aria-labelledby="register-title" noValidate>
      <ScreenHeading id="register-title">Register as a developer</ScreenHeading>
      <UsernameField value={form.username} onInput={set('username')} hint={RULES.username} refusal={refusal} />
      <PasswordField kind="new" value={form.password} onInput={set('password')} refusal={refusal} />
      <NicknameField value={form.nickname} onInput={set('nickname')} refusal={refusal} />
      <ContactFields form={form} set={set} refusal={refusal} rule={RULES.contact} />
      <RefusalNotice refusal={summaryOf(refusal)} />
      <button type="submit" class="primary">
        Register
      </button>
    </form>
  );
}
