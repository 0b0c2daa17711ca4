/**
 * A stored scan answer (checkin_events.answer_json) of an erased customer's booking, as the booking
 * now reads: a replay of the scan's eventId answers it instead of the guest it named. The answer's
 * personal parts take what a fresh answer gives for the blanked rows (the customer's names and phone
 * null, booking and participant fields empty, the guest's comments gone); any of their words left in
 * a sentence (a `message` or `note`) is cut out too. Codes, ids and times are never touched. Pure: the shape is the contract's, read loosely,
 * since answers stored by older builds may lack parts.
 */
export const ERASED_CUSTOMER_ANSWER = { name: null, firstName: null, lastName: null, phone: null } as const;

type Json = unknown;
type Obj = Record<string, Json>;
const isObj = (value: Json): value is Obj => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The answer without the erased guest's data; the same text when there was none to take out. */
export function eraseAnswer(answerJson: string): string {
  let answer: Json;
  try {
    answer = JSON.parse(answerJson);
  } catch {
    // Not JSON (never written so): nothing of it can be kept safely.
    return '{}';
  }
  if (!isObj(answer)) return answerJson;
  const words = new Set<string>();
  const keep = (value: Json, name = false) => {
    if (typeof value !== 'string') return;
    // A name is also cut where only a part of it is written ("Augusta was late").
    for (const word of [value.trim(), ...(name ? value.split(/\s+/) : [])]) if (word.length >= 3) words.add(word);
  };
  const blankParticipant = (p: Json) => {
    if (!isObj(p)) return p;
    keep(p.name, true);
    fieldValues(p.fields, keep);
    return { ...p, ...('name' in p ? { name: null } : {}), ...('fields' in p ? { fields: [] } : {}) };
  };
  const out: Obj = { ...answer };
  if (isObj(answer.booking)) {
    const booking: Obj = { ...answer.booking };
    if (isObj(booking.customer)) {
      for (const [part, value] of Object.entries(booking.customer)) keep(value, part !== 'phone');
      booking.customer = { ...ERASED_CUSTOMER_ANSWER };
    }
    if (isObj(booking.notes)) {
      keep(booking.notes.comments);
      booking.notes = { ...booking.notes, comments: null };
    }
    if (Array.isArray(booking.fields)) {
      fieldValues(booking.fields, keep);
      booking.fields = [];
    }
    out.booking = booking;
  }
  if (Array.isArray(answer.participants)) out.participants = answer.participants.map(blankParticipant);
  const text = JSON.stringify(cutWords(out, [...words].sort((a, b) => b.length - a.length)));
  return text === JSON.stringify(answer) ? answerJson : text;
}

/** Each value of a list of booking fields ({ label, value }). */
function fieldValues(fields: Json, keep: (value: Json) => void): void {
  if (Array.isArray(fields)) for (const field of fields) if (isObj(field)) keep(field.value);
}

const SENTENCES = new Set(['message', 'note']);

/** Every sentence of the answer with the erased words cut out (longest first, so a full name goes before its parts). */
function cutWords(value: Json, words: readonly string[], sentence = false): Json {
  if (words.length === 0) return value;
  if (typeof value === 'string') {
    if (!sentence) return value;
    let text = value;
    for (const word of words) if (text.includes(word)) text = text.split(word).join('…');
    return text;
  }
  if (Array.isArray(value)) return value.map((item) => cutWords(item, words));
  if (isObj(value)) return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, cutWords(item, words, SENTENCES.has(key))]));
  return value;
}
