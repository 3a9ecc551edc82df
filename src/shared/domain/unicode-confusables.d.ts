// The package ships no declarations (its index.ts.d is misnamed); the one function used here.
declare module 'unicode-confusables' {
  /** Each character replaced by its prototype in UTS #39 confusables.txt; zero-width ones removed. */
  export function rectifyConfusion(text: string): string;
}
