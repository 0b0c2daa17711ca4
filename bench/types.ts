/** One row of `npm run bench`: a subject measured against a baseline in the same run. */
export interface BenchRow {
  name: string;
  unit: string;
  subject: number;
  baseline: number;
  baselineName: string;
  higherIsBetter: boolean;
}
