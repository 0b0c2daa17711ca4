/**
 * Answers a cache hands to every caller (a product, a page of vouchers) are the same object each
 * time. Marking one here freezes it all the way down, so no caller can change what the next one
 * gets, and lets the API keep its JSON text instead of serializing it again on every request
 * (main/api/answer.ts). Nothing else about the object changes.
 */
const shared = new WeakSet<object>();
/**
 * Each shared answer's JSON text, made once: by the API the first time it sends it, or given by the
 * domain that made it already (answerWithText: a scan's answer, stored for replays).
 */
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

/** A shared answer's JSON text: the one kept for it, else made now and kept. */
export function jsonOfSharedAnswer(value: object): string {
  let text = texts.get(value);
  if (text === undefined) texts.set(value, (text = JSON.stringify(value)));
  return text;
}
