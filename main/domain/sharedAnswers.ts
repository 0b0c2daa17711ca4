/**
 * Answers a cache hands to every caller (a product, a page of vouchers) are the same object each
 * time. Marking one here freezes it all the way down, so no caller can change what the next one
 * gets, and lets the API keep its JSON text instead of serializing it again on every request
 * (main/api/answer.ts). Nothing else about the object changes.
 */
const shared = new WeakSet<object>();
/** JSON text the domain made of a shared answer already (a scan's answer, stored for replays). */
const texts = new WeakMap<object, string>();

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

/**
 * A shared answer whose JSON text the domain has made already (`text` is JSON.stringify(answer)): a
 * scan stores its answer for replays, and the API sends that text instead of serializing the answer
 * again. Frozen like any shared answer, so the text stays the answer's.
 */
export function answerWithText<T extends object>(answer: T, text: string): T {
  texts.set(sharedAnswer(answer), text);
  return answer;
}

/** The JSON text given with answerWithText, if any. */
export function textOfAnswer(value: object): string | undefined {
  return texts.get(value);
}
