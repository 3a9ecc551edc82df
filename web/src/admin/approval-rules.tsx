import { useState } from 'preact/hooks';
import {
  pathsApprovalRulesPostRequestBodyContentApplicationJsonApplies_toValues as APPLIES_TO,
  pathsApprovalRulesPostRequestBodyContentApplicationJsonWhoValues as WHO,
  pathsScopeRequestsDecisionsPostRequestBodyContentApplicationJsonItemsScopeValues as SCOPES,
} from '../../generated/contract';
import { api, call, csrf, type Refusal, type Schemas } from '../api/client';
import { everyPage, PAGE_LIMIT } from '../api/pages';
import { Field } from '../ui/field';
import { useLoad, when } from '../ui/load';
import { LoadedList } from '../ui/loaded-list';
import { Done, RefusalNotice, useOutcome } from '../ui/notice';
import { ScreenHeading } from '../ui/screen';
import { SelectField } from '../ui/select-field';
import { TableHead } from '../ui/table';

type Rule = Schemas['ApprovalRule'];
type AppliesTo = (typeof APPLIES_TO)[number];
type Who = (typeof WHO)[number];

const APPLIES_WORDS: Record<AppliesTo, string> = { credential: 'credential applications', scope: 'scope requests' };

const WHO_WORDS: Record<Who, string> = {
  everyone: 'every member',
  member_group: 'a member group',
  email_domain: 'an e-mail domain',
};

/** What a rule approves, for whom, in words. */
function ruleWords(rule: Rule): string {
  const what = rule.applies_to === 'scope' ? `requests of ${rule.scope ?? ''}` : 'applications';
  const who =
    rule.who === 'email_domain'
      ? `members at ${rule.email_domain ?? ''}`
      : rule.who === 'member_group'
        ? `member group ${rule.member_group_id ?? ''}`
        : 'every member';
  return `${what} of ${who}`;
}

/** Approval rules: what is approved at once without a reviewer, listed, added and disabled. */
export function ApprovalRules() {
  const [rules, reload] = useLoad(
    () =>
      everyPage((after) => call(() => api.GET('/approval-rules', { params: { query: { limit: PAGE_LIMIT, after } } }))),
    [],
  );
  const [form, setForm] = useState({
    name: '',
    applies_to: 'credential' as AppliesTo,
    scope: SCOPES[0] as string,
    who: 'everyone' as Who,
    group: '',
    domain: '',
    days: '',
  });
  const [refusal, setRefusal] = useState<Refusal | null>(null);
  const [done, report] = useOutcome();
  const set = (change: Partial<typeof form>) => setForm((f) => ({ ...f, ...change }));

  const add = async (event: Event) => {
    event.preventDefault();
    const body = {
      name: form.name,
      applies_to: form.applies_to,
      who: form.who,
      ...(form.applies_to === 'scope' && { scope: form.scope }),
      ...(form.who === 'member_group' && { member_group_id: Number(form.group) }),
      ...(form.who === 'email_domain' && { email_domain: form.domain }),
      ...(form.applies_to === 'credential' && form.days && { expires_in_days: Number(form.days) }),
    };
    const answer = await call(async () => api.POST('/approval-rules', { params: { header: await csrf() }, body }));
    if (!answer.ok) return setRefusal(answer.refusal);
    setRefusal(null);
    report(`Added the rule “${answer.data.name}”: ${ruleWords(answer.data)} are approved at once from now on.`);
    set({ name: '', group: '', domain: '', days: '' });
    reload();
  };
  const disable = async (rule: Rule) => {
    const answer = await call(async () =>
      api.POST('/approval-rules/{id}/disable', { params: { header: await csrf(), path: { id: rule.id } }, body: {} }),
    );
    if (!answer.ok) return setRefusal(answer.refusal);
    setRefusal(null);
    report(`Disabled the rule “${rule.name}”: it approves nothing more. What it approved stays approved.`);
    reload();
  };

  return (
    <>
      <ScreenHeading>Approval rules</ScreenHeading>
      <p>A rule approves a matching application or scope request at once; the audit trail names the rule.</p>
      <Done focusKey={done.serial}>{done.message}</Done>
      <RefusalNotice refusal={refusal} />
      <LoadedList loaded={rules} onRetry={reload} what="approval rules" empty="No approval rule yet.">
        {(list) => (
          <table>
            <TableHead columns={['Name', 'Approves', 'Key lifetime', 'Since', 'State']} />
            <tbody>
              {list.map((rule) => (
                <tr key={rule.id}>
                  <td data-label="Name">{rule.name}</td>
                  <td data-label="Approves">{ruleWords(rule)}</td>
                  <td data-label="Key lifetime">
                    {rule.applies_to === 'scope'
                      ? '—'
                      : rule.expires_in_days
                        ? `${rule.expires_in_days} days`
                        : 'default'}
                  </td>
                  <td data-label="Since">{when(rule.created_at)}</td>
                  <td data-label="State">
                    {rule.enabled ? (
                      <>
                        <span class="status active">Active</span>{' '}
                        <button type="button" onClick={() => void disable(rule)} aria-label={`Disable ${rule.name}`}>
                          Disable
                        </button>
                      </>
                    ) : (
                      <>
                        <span class="status disabled">Disabled</span> {rule.disabled_at && when(rule.disabled_at)}
                      </>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </LoadedList>
      <form class="card" onSubmit={add} aria-labelledby="new-rule">
        <h2 id="new-rule">Add a rule</h2>
        <Field
          name="name"
          label="Name"
          value={form.name}
          onInput={(name) => set({ name })}
          required
          refusal={refusal}
          maxLength={64}
        />
        <SelectField
          id="rule-applies"
          label="Approves"
          value={form.applies_to}
          options={APPLIES_TO}
          words={(applies) => APPLIES_WORDS[applies]}
          onChange={(applies_to) => set({ applies_to })}
        />
        {form.applies_to === 'scope' && (
          <SelectField
            id="rule-scope"
            label="Scope"
            value={form.scope}
            options={SCOPES}
            onChange={(scope) => set({ scope })}
          />
        )}
        <SelectField
          id="rule-who"
          label="For"
          value={form.who}
          options={WHO}
          words={(who) => WHO_WORDS[who]}
          onChange={(who) => set({ who })}
        />
        {form.who === 'member_group' && (
          <Field
            name="member_group_id"
            label="Member group id"
            type="number"
            value={form.group}
            onInput={(group) => set({ group })}
            optional={false}
            refusal={refusal}
          />
        )}
        {form.who === 'email_domain' && (
          <Field
            name="email_domain"
            label="E-mail domain"
            hint="e.g. example.com, without @"
            value={form.domain}
            onInput={(domain) => set({ domain })}
            optional={false}
            refusal={refusal}
          />
        )}
        {form.applies_to === 'credential' && (
          <Field
            name="expires_in_days"
            label="Key lifetime in days"
            hint="Empty: as an approval without expiry"
            type="number"
            value={form.days}
            onInput={(days) => set({ days })}
            refusal={refusal}
          />
        )}
        <div class="actions">
          <button type="submit" class="primary">
            Add rule
          </button>
        </div>
      </form>
    </>
  );
}
