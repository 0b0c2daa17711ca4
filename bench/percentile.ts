/** The p-th percentile of the samples (nearest rank): p50 the median, p99 the slowest but one in a hundred. */
export const percentile = (samples: number[], p: number): number => {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
};
