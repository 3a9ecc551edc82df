import { useState } from 'preact/hooks';
import { api, call, csrf, type Refusal, type Schemas } from '../api/client';
import { useConfirm } from '../ui/confirm-action';
import { Field } from '../ui/field';
import { RefusalNotice } from '../ui/notice';
import { PasswordOnce } from './password-once';

type Handed = Schemas['MemberPasswordReset'];

const MEMBER_ID = /^#?([1-9][0-9]{0,14})$/;

/** Where an administrator finds a member's id: the screens that show it. */
const WHERE_IDS_ARE = 'The credential queue shows it as #id beside the username; the audit finds it from the username.';

/** A refusal in the console's words: a member that does not exist says where ids are found. */
function inWords(refusal: Refusal, id: string): Refusal {
  if (refusal.error !== 'member_not_found') return refusal;
  return { ...refusal, message: `No member has the id ${id}. ${WHERE_IDS_ARE}` };
}

/**
 * "A member's password", for holders of access.manage: a member who forgot their password where
 * the service sends no mail is given a one-time password here, after the in-page question.
 */
export function MemberPassword() {
  const [memberId, setMemberId] = useState('');
  const [refusal, setRefusal] = useState<Refusal | null>(null);
  const [handed, setHanded] = useState<Handed | null>(null);
  const [ask, dialog] = useConfirm();

  const give = async (event: Event) => {
    event.preventDefault();
    const id = MEMBER_ID.exec(memberId.trim())?.[1];
    if (!id) {
      return setRefusal({
        status: 422,
        error: 'validation_failed',
        message: 'A member id is a positive whole number.',
        issues: [{ path: 'member_id', message: `A member id is a positive whole number. ${WHERE_IDS_ARE}` }],
      });
    }
    const question =
      'Their current password stops working, every session of theirs ends, and any reset link mailed to them is spent.';
    if (
      !(await ask({ title: `Give member ${id} a one-time password?`, question, confirm: 'Give a one-time password' }))
    )
      return;
    const answer = await call(async () =>
      api.POST('/members/{member_id}/password-reset', {
        params: { header: await csrf(), path: { member_id: Number(id) } },
        body: {},
      }),
    );
    if (!answer.ok) return setRefusal(inWords(answer.refusal, id));
    setRefusal(null);
    setMemberId('');
    setHanded(answer.data);
  };

  if (handed) {
    const why = `Every session of member ${handed.username} ended and any reset link mailed to them no longer works; ask them to change the password on their account page.`;
    return (
      <PasswordOnce
        handover={{ username: handed.username, password: handed.password, why }}
        testId="member-one-time-password"
        onStored={() => setHanded(null)}
      >
        <dt>Member</dt>
        <dd>
          <code>{handed.username}</code> (#{handed.member_id})
        </dd>
      </PasswordOnce>
    );
  }
  return (
    <section aria-labelledby="member-password" class="card">
      <h2 id="member-password">A member's password</h2>
      <p>
        A member who forgot their password where the service sends no mail asks you for a one-time password: give it
        here, then hand it over.
      </p>
      <form onSubmit={give} noValidate>
        <Field
          name="member_id"
          label="Member id"
          value={memberId}
          onInput={(value: string) => {
            // The one field: whatever the last refusal said was about the id now being changed.
            setMemberId(value);
            setRefusal(null);
          }}
          required
          hint={WHERE_IDS_ARE}
          refusal={refusal}
          autocomplete="off"
        />
        <RefusalNotice refusal={refusal && !refusal.issues.some((i) => i.path === 'member_id') ? refusal : null} />
        <button type="submit" class="primary">
          Give a one-time password
        </button>
      </form>
      {dialog}
    </section>
  );
}
