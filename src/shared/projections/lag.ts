import { Position } from '../../stores/ports';

/** The read models did not reach a position in time: the caller answers "try again" instead of stale data. */
export class ProjectionLag extends Error {
  constructor(readonly position: Position) {
    super(`read models have not reached position ${position} yet`);
    this.name = 'ProjectionLag';
  }
}
