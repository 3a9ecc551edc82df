import { useState } from 'preact/hooks';
import { api, call, csrf, forgetCsrfToken, type Refusal } from '../api/client';
import { Field } from '../ui/field';
import { RefusalNotice } from '../ui/notice';

// The rules the service applies (specification §2.2), shown before anything is sent.
const RULES = {
  username: '3 to 32 characters: a letter first, then letters, digits, _ . or -',
  password: '6 to 128 characters',
  nickname: 'At most 64 characters',
  contact: 'Give an e-mail address, a mobile number, or both',
  mobile: '6 to 15 digits, optionally after a leading +',
};

export function Register({ onRegistered }: { onRegistered: () => void }) {
  const [form, setForm] = useState({ username: '', password: '', nickname: '', email: '', mobile: '' });
  const [refusal, setRefusal] = useState<Refusal | null>(null);
  const set = (name: keyof typeof form) => (value: string) => setForm((f) => ({ ...f, [name]: value }));

  const submit = async (event: Event) => {
    event.preventDefault();
    const answer = await call(async () => api.POST('/developer/register', { params: { header: await csrf() }, body: form }));
    if (!answer.ok) return setRefusal(answer.refusal);
    forgetCsrfToken();
    onRegistered();
  };

  return (
    <form onSubmit={submit} class="card narrow" aria-labelledby="register-title" noValidate>
      <h1 id="register-title">Register as a developer</h1>
      <Field name="username" label="Username" value={form.username} onInput={set('username')} hint={RULES.username} required autocomplete="username" refusal={refusal} />
      <Field name="password" label="Password" type="password" value={form.password} onInput={set('password')} hint={RULES.password} required autocomplete="new-password" refusal={refusal} />
      <Field name="nickname" label="Nickname" value={form.nickname} onInput={set('nickname')} hint={RULES.nickname} refusal={refusal} />
      <p class="hint" id="contact-rule">
        {RULES.contact}.
      </p>
      <Field name="email" label="E-mail" type="email" value={form.email} onInput={set('email')} autocomplete="email" refusal={refusal} />
      <Field name="mobile" label="Mobile" type="tel" value={form.mobile} onInput={set('mobile')} hint={RULES.mobile} autocomplete="tel" refusal={refusal} />
      <RefusalNotice refusal={refusal} />
      <button type="submit" class="primary">
        Register
      </button>
    </form>
  );
}
