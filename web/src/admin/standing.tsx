import { ConfirmAction } from '../ui/confirm-action';

/** Whether a role group or an administrator is enabled, as its badge says it. */
export function Standing({ enabled }: { enabled: boolean }) {
  return <span class={`status ${enabled ? 'active' : 'revoked'}`}>{enabled ? 'enabled' : 'disabled'}</span>;
}

/** Disable (asked first: it takes access away at once) or enable again; `name` names the row's thing. */
export function StandingAction({ enabled, name, question, onTurn }: { enabled: boolean; name: string; question: string; onTurn: (enable: boolean) => void }) {
  if (enabled) return <ConfirmAction label="Disable" name={`Disable ${name}`} question={question} onConfirm={() => onTurn(false)} />;
  return (
    <button type="button" onClick={() => onTurn(true)} aria-label={`Enable ${name}`}>
      Enable
    </button>
  );
}
