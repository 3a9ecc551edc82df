import { DomainError } from '../../../../src/shared/domain/decider';
import { Stores } from '../../../../src/stores/ports';
import { groupsOrAdmins } from './access-steps';
import { addon } from './addon-steps';
import { credential, register } from './credential-steps';
import { draw } from './draw';
import { approvalRule, webhook } from './webhook-and-rule-steps';

/** A random run: what each command needs is drawn from the seeded generator only. */
export function scenario(stores: Stores, seed: number) {
  const d = draw(stores, seed);
  const webhooks: string[] = [];
  const rules: string[] = [];
  /** One command, chosen at random; answers whether the domain accepted it. */
  return async function next(): Promise<boolean> {
    try {
      const roll = d.random();
      if (d.members.length === 0 || roll < 0.06) await register(d);
      else if (roll < 0.12) await groupsOrAdmins(d);
      else if (roll < 0.2) await addon(d);
      else if (roll < 0.23) await webhook(d, webhooks);
      else if (roll < 0.25) await approvalRule(d, rules);
      else await credential(d, d.pick(d.members));
      return true;
    } catch (err) {
      if (err instanceof DomainError) return false;
      throw err;
    }
  };
}
