/**
 * Answers a cache hands to every caller (a product, a page of vouchers) are the same object each
 * time. Marking one here freezes it all the way down, so no caller can change what the next one
 * gets, and lets the API keep its JSON text instead of serializing it again on every request
 * (main/api/answer.ts). Nothing else about the object changes.
 */
const shared = new WeakSet<object>();

function deepFreeze(value: unknown): void {
  if (value === null || typeof value !== 'object') return;
  Object.freeze(value);
  for (const inner of Object.values(value)) deepFreeze(inner);
}

export function sharedAnswer<T extends object>(answer: T): T {
  deepFreeze(answer);
  shared.add(answer);
  return answer;
}

export function isSharedAnswer(value: unknown): value is object {
  return value !== null && typeof value === 'object' && shared.has(value);
}
