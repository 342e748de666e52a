// The lesson editor's list of what a step shows (shows.ts): each statement
// picked from the vocabulary (what, in which run, where, which message,
// which flows, how many), with the verdict of the last check against the
// runs beside it.

import { CONTROL_NAMES } from '../engine/api';
import { HOPS, SIZES } from '../engine/facts';
import { HOP_TEXT, SHOWN, SHOWN_KINDS, type Shows, type ShownKind } from './shows';

/** The verdict of one statement: undefined before a check, null when it holds, else why not. */
export type Verdict = string | null | undefined;

/** Keeps only the fields `what` takes (changing `what` drops the others). */
function narrowed(s: Shows, what: ShownKind): Shows {
  const filters: readonly string[] = SHOWN[what].filters;
  const out: Shows = { what };
  if (s.protocol !== undefined) out.protocol = s.protocol;
  if (s.at_least !== undefined && what !== 'queue_occupied') out.at_least = s.at_least;
  for (const k of ['where', 'message', 'size', 'bytes_at_least'] as const) if (filters.includes(k) && s[k] !== undefined) (out as unknown as Record<string, unknown>)[k] = s[k];
  return out;
}

/** A value for an optional field: undefined for the empty choice. */
const opt = <T,>(v: string): T | undefined => (v === '' ? undefined : (v as T));

/**
 * The statements of one step: `id` prefixes the test ids, `runs` are the
 * lesson's run names, `onChange` gets the new list (undefined when empty).
 */
export function ShowsEditor({ id, shows, runs, verdicts, onChange }: { id: string; shows: Shows[]; runs: string[]; verdicts: Verdict[]; onChange: (next: Shows[] | undefined) => void }) {
  const set = (k: number, s: Shows) => onChange(shows.map((x, i) => (i === k ? s : x)));
  return (
    <fieldset className="editor-shows" data-testid={`${id}-shows`}>
      <legend>What the class sees at this time (checked against the runs)</legend>
      {shows.length === 0 && <p className="note">Nothing stated yet: say what the narration points at, and the check makes sure the runs show it by then.</p>}
      <ul>
        {shows.map((s, k) => {
          const f: readonly string[] = SHOWN[s.what].filters;
          const sid = `${id}-shows-${k}`;
          const v = verdicts[k];
          return (
            <li key={k} data-testid={sid}>
              <select aria-label="what the step shows" data-testid={`${sid}-what`} value={s.what} onChange={(e) => set(k, narrowed(s, e.target.value as ShownKind))}>
                {SHOWN_KINDS.map((w) => (
                  <option key={w} value={w}>
                    {SHOWN[w].text}
                    {SHOWN[w].now ? ' (at this time)' : ' (by this time)'}
                  </option>
                ))}
              </select>
              <label>
                in{' '}
                <select data-testid={`${sid}-protocol`} value={s.protocol ?? ''} onChange={(e) => set(k, { ...s, protocol: opt(e.target.value) })}>
                  <option value="">any run</option>
                  {runs.map((r) => (
                    <option key={r}>{r}</option>
                  ))}
                </select>
              </label>
              {f.includes('where') && (
                <label>
                  at{' '}
                  <select data-testid={`${sid}-where`} value={s.where ?? ''} onChange={(e) => set(k, { ...s, where: opt(e.target.value) })}>
                    <option value="">any port</option>
                    {HOPS.map((h) => (
                      <option key={h} value={h}>
                        {HOP_TEXT[h]}
                      </option>
                    ))}
                  </select>
                </label>
              )}
              {f.includes('message') && (
                <label>
                  message{' '}
                  <select data-testid={`${sid}-message`} value={s.message ?? ''} onChange={(e) => set(k, { ...s, message: opt(e.target.value) })}>
                    <option value="">any</option>
                    {CONTROL_NAMES.map((m) => (
                      <option key={m}>{m}</option>
                    ))}
                  </select>
                </label>
              )}
              {f.includes('size') && (
                <label>
                  flows{' '}
                  <select data-testid={`${sid}-size`} value={s.size ?? ''} onChange={(e) => set(k, { ...s, size: opt(e.target.value) })}>
                    <option value="">of any size</option>
                    {SIZES.map((z) => (
                      <option key={z}>{z}</option>
                    ))}
                  </select>
                </label>
              )}
              {s.what === 'queue_occupied' ? (
                <label>
                  at least (bytes){' '}
                  <input type="number" min={1} size={7} data-testid={`${sid}-bytes`} value={s.bytes_at_least ?? ''} onChange={(e) => set(k, { ...s, bytes_at_least: e.target.value === '' ? undefined : Number(e.target.value) })} />
                </label>
              ) : (
                <label>
                  at least{' '}
                  <input type="number" min={1} step={1} size={4} data-testid={`${sid}-at-least`} value={s.at_least ?? ''} placeholder="1" onChange={(e) => set(k, { ...s, at_least: e.target.value === '' ? undefined : Number(e.target.value) })} />
                </label>
              )}
              <button aria-label={`remove statement ${k + 1}`} data-testid={`${sid}-remove`} onClick={() => onChange(shows.length > 1 ? shows.filter((_, i) => i !== k) : undefined)}>
                remove
              </button>
              <span className={v ? 'error' : 'note'} data-testid={`${sid}-verdict`} data-holds={v === undefined ? '' : String(v === null)}>
                {v === undefined ? 'not checked yet' : v === null ? '✓ the runs show it then' : `✗ ${v}`}
              </span>
            </li>
          );
        })}
      </ul>
      <button data-testid={`${id}-shows-add`} onClick={() => onChange([...shows, { what: 'drop' }])}>
        + a statement
      </button>
    </fieldset>
  );
}
