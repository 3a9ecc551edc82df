/**
 * The decider pattern: an aggregate is its initial state, a pure `evolve` that folds one event
 * into the state, and a pure `decide` that answers a command with new events or a DomainError.
 * Time, ids and secrets arrive on the command, never from inside the domain.
 */
export interface DomainEvent<Type extends string = string, Data = unknown> {
  type: Type;
  data: Data;
}

export interface Decider<Command, Event extends DomainEvent, State> {
  initialState: State;
  evolve(state: State, event: Event): State;
  decide(command: Command, state: State): Event[];
}

/** One small function per command, as Emmett writes them: each answers its own command type. */
export type Decisions<Command extends { type: string }, Event, State> = {
  [Type in Command['type']]: (command: Extract<Command, { type: Type }>, state: State) => Event[];
};

/**
 * A `decide` that only dispatches: the command's type picks the one function that decides it, so
 * adding a command adds a function and a line, never a branch to a switch everyone reads through.
 */
export function decideByType<Command extends { type: string }, Event, State>(
  decisions: Decisions<Command, Event, State>,
): (command: Command, state: State) => Event[] {
  // The mapped type pairs each type with its function; TypeScript cannot follow that pairing through
  // an index by a union, hence the one widening here.
  return (command, state) =>
    (decisions[command.type as Command['type']] as (command: Command, state: State) => Event[])(command, state);
}

/** A rule of the domain refused the command; nothing is appended. */
export class DomainError extends Error {
  constructor(
    /** Stable snake_case reason, sent to clients as data.error. */
    readonly error: string,
    message: string,
    /** What the caller can do next, in the domain's words; an HTTP endpoint may add where to do it. */
    readonly next?: string,
    /** Each problem of a refused input, with where in it: a client can show it beside the field. */
    readonly problems?: { path: string; message: string }[],
  ) {
    super(message);
    this.name = 'DomainError';
  }
}

export function fold<Event extends DomainEvent, State>(
  decider: Pick<Decider<unknown, Event, State>, 'initialState' | 'evolve'>,
  events: Event[],
): State {
  return events.reduce(decider.evolve, decider.initialState);
}
