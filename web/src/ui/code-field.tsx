import { Field, type FieldProps } from './field';

/**
 * An authenticator app's code, or one of the recovery codes (`recovery`): the field each second-factor
 * form asks for, named as the service reads it and offered to the browser's one-time-code autofill.
 */
export function CodeField(props: Omit<FieldProps, 'name' | 'required' | 'autocomplete'> & { recovery?: boolean }) {
  const { recovery = false, ...field } = props;
  return <Field {...field} name={recovery ? 'recovery_code' : 'code'} required autocomplete="one-time-code" />;
}
