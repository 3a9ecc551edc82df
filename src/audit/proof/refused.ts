/** A line of an export, a proof or a note that does not hold: the verifier's one way to say no. */
export class Refused extends Error {
  constructor(
    /** The line of the file it is about, from 1; 0 when about the file as a whole. */
    readonly line: number,
    readonly problem: string,
  ) {
    super(problem);
  }
}
