/** One row of `npm run bench`: a subject measured against a baseline in the same run. */
export interface BenchRow {
  name: string;
  unit: string;
  subject: number;
  baseline: number;
  baselineName: string;
  higherIsBetter: boolean;
  /** The cost (× the baseline) this row must stay at or under, when it has one (issue 20's table). */
  goal?: number;
  /** A ceiling on the subject itself, in the row's unit, when the goal is absolute (the scanner's ≤ 50 ms verdict). */
  limit?: number;
}
