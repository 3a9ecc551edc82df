import type { Refusal } from '../api/client';
import { asSentence, isAt } from './field-issues';

export interface FieldProps {
  name: string;
  /** The input's id where one screen has two fields of one name (field-<name> otherwise). */
  id?: string;
  label: string;
  value: string;
  onInput: (value: string) => void;
  /** The field's rule, shown in place before anything is sent. */
  hint?: string;
  type?: string;
  required?: boolean;
  /** Whether the label says "(optional)": by default when not required; not for one of a pair of which one is needed. */
  optional?: boolean;
  /** A hint shared with other fields (a group's rule), read out with this one. */
  describedBy?: string;
  autocomplete?: string;
  refusal?: Refusal | null;
  maxLength?: number;
}

/** A labelled input whose rule and whose refusal (the envelope's issue for it) sit under it. */
export function Field(props: FieldProps) {
  const id = props.id ?? `field-${props.name}`;
  const issue = props.refusal?.issues.find((i) => isAt(i.path, props.name));
  const described = describedBy(id, props, issue !== undefined);
  const optional = props.optional ?? !props.required;
  return (
    <div class="field">
      <label for={id}>
        {props.label}
        {optional ? ' (optional)' : ''}
      </label>
      <input
        id={id}
        name={props.name}
        type={props.type ?? 'text'}
        value={props.value}
        required={props.required}
        autocomplete={props.autocomplete}
        maxLength={props.maxLength}
        aria-invalid={issue ? 'true' : undefined}
        aria-describedby={described}
        onInput={(e) => props.onInput((e.currentTarget as HTMLInputElement).value)}
      />
      {props.hint && (
        <small id={`${id}-hint`} class="hint">
          {props.hint}
        </small>
      )}
      {issue && (
        <small id={`${id}-issue`} class="issue">
          {asSentence(issue.message, props.name, props.label)}
        </small>
      )}
    </div>
  );
}

/** What a screen reader reads out with the input: the group's rule, the field's own, and its issue. */
function describedBy(id: string, props: FieldProps, hasIssue: boolean): string | undefined {
  const ids = [props.describedBy ?? '', props.hint ? `${id}-hint` : '', hasIssue ? `${id}-issue` : ''];
  return ids.filter(Boolean).join(' ') || undefined;
}
