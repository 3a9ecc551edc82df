import { useState } from 'preact/hooks';
import { api, call, csrf, forgetCsrfToken, type Refusal } from '../api/client';
import { Field } from '../ui/field';
import { fixing, isAt } from '../ui/field-issues';
import { RefusalNotice } from '../ui/notice';
import { ScreenHeading } from '../ui/screen';

// The rules the service applies (docs/rules.md, "Members"), shown before anything is sent.
const RULES = {
  username: '3 to 32 characters: a letter first, then letters, digits, _ . or -',
  password: '6 to 128 characters',
  nickname: 'At most 64 characters',
  contact: 'Give an e-mail address or a mobile number, or both',
  mobile: '6 to 15 digits, optionally after a leading +',
};

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
      <Field
        name="username"
        label="Username"
        value={form.username}
        onInput={set('username')}
        hint={RULES.username}
        required
        autocomplete="username"
        refusal={refusal}
      />
      <Field
        name="password"
        label="Password"
        type="password"
        value={form.password}
        onInput={set('password')}
        hint={RULES.password}
        required
        autocomplete="new-password"
        refusal={refusal}
      />
      <Field
        name="nickname"
        label="Nickname"
        value={form.nickname}
        onInput={set('nickname')}
        hint={RULES.nickname}
        refusal={refusal}
      />
      <fieldset class="group">
        <legend>E-mail or mobile (at least one)</legend>
        <p class="hint" id="contact-rule">
          {RULES.contact}.
        </p>
        <Field
          name="email"
          label="E-mail"
          type="email"
          value={form.email}
          onInput={set('email')}
          optional={false}
          describedBy="contact-rule"
          autocomplete="email"
          refusal={refusal}
        />
        <Field
          name="mobile"
          label="Mobile"
          type="tel"
          value={form.mobile}
          onInput={set('mobile')}
          hint={RULES.mobile}
          optional={false}
          describedBy="contact-rule"
          autocomplete="tel"
          refusal={refusal}
        />
      </fieldset>
      <RefusalNotice refusal={summaryOf(refusal)} />
      <button type="submit" class="primary">
        Register
      </button>
    </form>
  );
}
