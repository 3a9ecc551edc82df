import type { Refusal } from '../api/client';
import { Field } from '../ui/field';

export interface Applicant {
  purpose: string;
  company: string;
  website: string;
}

export const NO_APPLICANT: Applicant = { purpose: '', company: '', website: '' };

/** What the application says of who asks, the fields left empty left out (the empty body still applies). */
export const applicantBody = (a: Applicant) => ({
  ...(a.purpose.trim() && { purpose: a.purpose }),
  ...(a.company.trim() && { company: a.company }),
  ...(a.website.trim() && { website: a.website.trim() }),
});

/** The notice after applying: sent for review, or approved at once by an approval rule. */
export const appliedWords = (rule: { name: string } | null) =>
  rule
    ? `Application approved at once by the rule “${rule.name}”: claim your key.`
    : 'Application sent; an administrator will review it.';

/** Who asks and why, for the reviewers: all optional. */
export function ApplicantFields({
  shown,
  value,
  onChange,
  refusal,
}: {
  /** Only while the member may apply. */
  shown: boolean;
  value: Applicant;
  onChange: (a: Applicant) => void;
  refusal: Refusal | null;
}) {
  if (!shown) return null;
  return (
    <fieldset class="group">
      <legend>Tell the reviewers who asks</legend>
      <Field
        name="company"
        label="Company"
        value={value.company}
        onInput={(company) => onChange({ ...value, company })}
        maxLength={100}
        refusal={refusal}
      />
      <Field
        name="website"
        label="Website"
        type="url"
        hint="http or https, e.g. https://example.com"
        value={value.website}
        onInput={(website) => onChange({ ...value, website })}
        refusal={refusal}
      />
      <Field
        name="purpose"
        label="What you will use the API for"
        hint="At most 500 characters"
        value={value.purpose}
        onInput={(purpose) => onChange({ ...value, purpose })}
        maxLength={500}
        refusal={refusal}
      />
    </fieldset>
  );
}
