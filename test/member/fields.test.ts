import { registrationSchema } from '../../src/member/fields';

const valid = { username: 'alice', password: 'secret1', email: 'alice@example.com' };

function problems(input: unknown): Record<string, string> {
  const result = registrationSchema.safeParse(input);
  if (result.success) return {};
  return Object.fromEntries(result.error.issues.map((i) => [i.path.join('.') || '(body)', i.message]));
}

describe('registration rules', () => {
  it('accepts a username, a password of 6 characters and an email', () => {
    expect(problems(valid)).toEqual({});
  });

  it('accepts a mobile number instead of an email', () => {
    expect(problems({ username: 'bob', password: 'secret1', mobile: '+8613800138000' })).toEqual({});
  });

  it('requires at least one of email and mobile', () => {
    expect(problems({ username: 'bob', password: 'secret1' })).toEqual({
      email: 'give at least one of email and mobile',
    });
  });

  it('treats empty email and mobile as not given', () => {
    expect(problems({ ...valid, email: '', mobile: ' ' })).toEqual({ email: 'give at least one of email and mobile' });
  });

  it('requires a password of at least 6 characters', () => {
    expect(problems({ ...valid, password: '12345' })).toEqual({ password: 'password must be at least 6 characters' });
  });

  it('requires a username', () => {
    expect(Object.keys(problems({ password: 'secret1', email: 'a@example.com' }))).toEqual(['username']);
  });

  it.each(['ab', '1abc', 'has space', 'ünicode', 'a'.repeat(33)])('refuses the username %p', (username) => {
    expect(Object.keys(problems({ ...valid, username }))).toEqual(['username']);
  });

  it.each(['not-an-email', 'a@', '@example.com'])('refuses the email %p', (email) => {
    expect(problems({ ...valid, email })).toEqual({ email: 'email must be an e-mail address such as dev@example.com' });
  });

  it.each(['12345', 'phone', '+0123456', '1234567890123456'])('refuses the mobile %p', (mobile) => {
    expect(Object.keys(problems({ ...valid, mobile }))).toEqual(['mobile']);
  });

  it('refuses unknown fields so that a typo is not silently dropped', () => {
    expect(Object.keys(problems({ ...valid, emial: 'x' }))).toEqual(['(body)']);
  });

  it('reports every failing field at once', () => {
    expect(Object.keys(problems({ username: 1, password: 'x' })).sort()).toEqual(['email', 'password', 'username']);
  });
});
