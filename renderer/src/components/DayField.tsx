import { useEffect, useId, useRef, useState } from 'react';
import { useFormats } from '../lib/formats';

/**
 * A day typed in the company's order ('28/11/2026' for en-AU, '11/28/2026' for en-US), with the
 * order shown as its placeholder, and a calendar button for the browser's picker. A native date
 * input would show the browser's order instead of the company's. `day` and `onDay` are yyyy-MM-dd
 * ('' for none); a typed date that is no real day is said so and not passed on.
 */
export function DayField({ label, day, onDay, compact = false }: { label: string; day: string; onDay(day: string): void; compact?: boolean }) {
  const formats = useFormats((s) => s.formats);
  const id = useId();
  const [text, setText] = useState(day ? formats.dayInput(day) : '');
  const picker = useRef<HTMLInputElement>(null);
  // A day set from outside (the URL, the picker, Previous/Next) shows in the field.
  useEffect(() => {
    setText((typed) => (formats.parseDay(typed) === (day || null) ? typed : day ? formats.dayInput(day) : ''));
  }, [day, formats]);
  const problem = text.trim() && !formats.parseDay(text) ? `Type a date as ${formats.datePattern}` : null;
  const type = (value: string) => {
    setText(value);
    const parsed = value.trim() ? formats.parseDay(value) : '';
    if (parsed !== null && parsed !== day) onDay(parsed);
  };
  return (
    <div className={compact ? 'day-field compact' : 'field day-field'}>
      <label htmlFor={id} className={compact ? 'sr-only' : undefined}>
        {label}
      </label>
      <span className="day-field-row">
        <input id={id} inputMode="numeric" value={text} placeholder={formats.datePattern} aria-invalid={problem ? true : undefined} aria-describedby={problem ? `${id}-problem` : undefined} onChange={(e) => type(e.target.value)} autoComplete="off" size={11} />
        <button type="button" className="secondary day-field-pick" title={`${label}: the calendar`} onClick={() => picker.current?.showPicker?.()}>
          Calendar
        </button>
        <input ref={picker} type="date" tabIndex={-1} aria-hidden="true" className="day-field-native" value={day} onChange={(e) => type(e.target.value ? formats.dayInput(e.target.value) : '')} />
      </span>
      {problem && (
        <small id={`${id}-problem`} className="hint error-hint" role="alert">
          {problem}
        </small>
      )}
    </div>
  );
}
