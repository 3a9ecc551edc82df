import type { ComponentChildren } from 'preact';
import type { Refusal } from '../api/client';
import { Field } from './field';

// The rules the service applies (docs/rules.md, "Members"), shown before anything is sent.
export const RULES = {
  username: '3 to 32 characters: a letter first, then letters, digits, _ . or -',
  password: '6 to 128 characters',
  nickname: 'At most 64 characters',
  contact: 'Give an e-mail address or a mobile number, or both',
  mobile: '6 to 15 digits, optionally after a leading +',
};

/** A field's value, what typing in it does, and the refusal that may speak of it. */
interface Bound {
  value: string;
  onInput: (value: string) => void;
  refusal: Refusal | null;
}

/** The username, as signed in with; with `hint`, as chosen at registration. */
export const UsernameField = (props: Bound & { hint?: string }) => (
  <Field name="username" label="Username" required autocomplete="username" {...props} />
);

interface PasswordProps extends Bound {
  /** Given now ("current"), chosen ("new", under its rule), or the chosen one typed again ("again"). */
  kind: 'current' | 'new' | 'again';
  name?: string;
  label?: string;
  id?: string;
  hint?: string;
}

/** A password field, filled in by the browser's password manager as its kind says. */
export function PasswordField({ kind, name = 'password', label = 'Password', hint, ...props }: PasswordProps) {
  return (
    <Field
      name={name}
      label={label}
      type="password"
      hint={hint ?? (kind === 'new' ? RULES.password : undefined)}
      required
      autocomplete={kind === 'current' ? 'current-password' : 'new-password'}
      {...props}
    />
  );
}

export const NicknameField = (props: Bound) => (
  <Field name="nickname" label="Nickname" hint={RULES.nickname} {...props} />
);

interface ContactProps {
  form: { email: string; mobile: string };
  /** The setter of a field of the form. */
  set: (name: 'email' | 'mobile') => (value: string) => void;
  refusal: Refusal | null;
  /** The pair's rule, said once above both and read out with each. */
  rule?: string;
  emailHint?: string;
  /** Said between the two: the address waiting for confirmation. */
  children?: ComponentChildren;
}

/** E-mail and mobile: one rule for the pair, at least one of them. */
export function ContactFields({ form, set, refusal, rule, emailHint, children }: ContactProps) {
  // The pair's fields differ by name, words and kind of input only (type and autofill alike: email, tel).
  const contact = (name: 'email' | 'mobile', label: string, kind: 'email' | 'tel', hint?: string) => (
    <Field
      name={name}
      label={label}
      type={kind}
      value={form[name]}
      onInput={set(name)}
      optional={false}
      describedBy={rule ? 'contact-rule' : undefined}
      refusal={refusal}
      hint={hint}
      autocomplete={kind}
    />
  );
  return (
    <fieldset class="group">
      <legend>E-mail or mobile (at least one)</legend>
      {rule && (
        <p class="hint" id="contact-rule">
          {rule}.
        </p>
      )}
      {contact('email', 'E-mail', 'email', emailHint)}
      {children}
      {contact('mobile', 'Mobile', 'tel', RULES.mobile)}
    </fieldset>
  );
}
