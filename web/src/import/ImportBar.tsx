// "Open a file": a scenario or a lesson from a file picker, a file dropped
// anywhere on the page, an address in the hash (`#src=URL`) or a lesson
// link (`#lessonz=...`). Each goes through importer.ts's checks; a refused
// file is named with its fields and changes nothing on screen.

import { useEffect, useRef, useState, type MutableRefObject } from 'react';
import type { FieldError, ScenarioJson, Settings } from '../state/settings';
import { decodeLessonHash } from '../lessons/share';
import { engineCheck, parseJson, readImport, srcFromHash, type Imported } from './importer';

/**
 * How a lesson or scenario came in: the page keeps `#src=` and lesson
 * links in the address, writes one for files, and leaves it for previews.
 */
export type ImportHow = 'file' | 'src' | 'link' | 'preview';

type Status = { checking: string } | { refused: string; errors: FieldError[] } | { opened: string } | null;

/**
 * The page-wide drop target, the address's file, and what became of each
 * (checking, opened, or refused by field). `onAccept` gets a file that
 * passed every check; `onRefused` is told of one that did not. The file
 * picker lives elsewhere (the toolbar's menu): it hands its file to the
 * function this sets in `opener`.
 */
export function ImportBar({
  current,
  scenarios,
  onAccept,
  onRefused,
  opener,
}: {
  current: Settings;
  scenarios: ScenarioJson[];
  onAccept: (imp: Imported, how: ImportHow) => void;
  onRefused?: () => void;
  opener?: MutableRefObject<((f: File) => void) | null>;
}) {
  const [status, setStatusNow] = useState<Status>(null);
  const setStatus = (st: Status) => {
    setStatusNow(st);
    if (st && 'refused' in st) latest.current.onRefused?.();
  };
  const [dragging, setDragging] = useState(false);
  // The latest props, for the listeners set up once.
  const latest = useRef({ current, scenarios, onAccept, onRefused });
  latest.current = { current, scenarios, onAccept, onRefused };

  const accept = async (data: unknown, source: string, how: ImportHow) => {
    const { current, scenarios, onAccept } = latest.current;
    const read = readImport(data, current, scenarios);
    if ('errors' in read) return setStatus({ refused: source, errors: read.errors });
    setStatus({ checking: source });
    const engineError = await engineCheck(read.ok.settings);
    if (engineError) return setStatus({ refused: source, errors: [{ field: 'engine', message: engineError }] });
    onAccept(read.ok, how);
    setStatus({ opened: `${source}: ${read.ok.kind === 'lesson' ? `lesson "${read.ok.lesson.title}"` : `scenario "${String(read.ok.settings.scenario.name)}"`}` });
  };
  const acceptText = (text: string, source: string, how: ImportHow) => {
    const p = parseJson(text);
    return 'errors' in p ? setStatus({ refused: source, errors: p.errors }) : accept(p.data, source, how);
  };
  const acceptFile = async (f: File) => acceptText(await f.text(), f.name, 'file');
  if (opener) opener.current = (f) => void acceptFile(f);

  // The address: #src=URL (fetched) or a lesson link, on opening and when
  // one is pasted into the address bar (the page's own replaceState fires no hashchange).
  const started = useRef(false);
  useEffect(() => {
    const fromAddress = () => {
      const hash = window.location.hash;
      const src = srcFromHash(hash, window.location.href);
      if (src && typeof src === 'object') setStatus({ refused: '#src', errors: [{ field: '#src', message: src.error }] });
      else if (src) {
        setStatus({ checking: src });
        fetch(src)
          .then((r) => (r.ok ? r.text() : Promise.reject(new Error(`HTTP ${r.status} ${r.statusText}`))))
          .then((text) => acceptText(text, src, 'src'))
          .catch((e) => setStatus({ refused: src, errors: [{ field: '#src', message: `could not fetch it (${e instanceof Error ? e.message : String(e)})` }] }));
      } else
        void decodeLessonHash(hash).then((d) => {
          if (!d) return;
          if ('error' in d) setStatus({ refused: 'lesson link', errors: [{ field: '#lessonz', message: d.error }] });
          else void accept(d.lesson, 'lesson link', 'link');
        });
    };
    if (!started.current) fromAddress();
    started.current = true;
    window.addEventListener('hashchange', fromAddress);
    return () => window.removeEventListener('hashchange', fromAddress);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  // Drag and drop anywhere on the page.
  useEffect(() => {
    const hasFiles = (e: DragEvent) => Array.from(e.dataTransfer?.types ?? []).includes('Files');
    const over = (e: DragEvent) => {
      if (!hasFiles(e)) return;
      e.preventDefault();
      setDragging(true);
    };
    const leave = (e: DragEvent) => {
      if (!e.relatedTarget) setDragging(false);
    };
    const drop = (e: DragEvent) => {
      if (!hasFiles(e)) return;
      e.preventDefault();
      setDragging(false);
      const f = e.dataTransfer?.files[0];
      if (f) void acceptFile(f);
    };
    window.addEventListener('dragover', over);
    window.addEventListener('dragleave', leave);
    window.addEventListener('drop', drop);
    return () => {
      window.removeEventListener('dragover', over);
      window.removeEventListener('dragleave', leave);
      window.removeEventListener('drop', drop);
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  return (
    <div className="import" data-testid="import">
      {status && 'checking' in status && <span data-testid="import-status">checking {status.checking}…</span>}
      {status && 'opened' in status && (
        <span data-testid="import-status" className="import-ok">
          opened {status.opened}
        </span>
      )}
      {status && 'refused' in status && (
        <div className="banner error" data-testid="import-error" role="alert">
          <strong>{status.refused} was not opened</strong> (what was on screen is kept):
          <ul>
            {status.errors.map((e, i) => (
              <li key={i}>
                <code>{e.field}</code>: {e.message}
              </li>
            ))}
          </ul>
          <button aria-label="dismiss the import message" onClick={() => setStatus(null)}>
            Dismiss
          </button>
        </div>
      )}
      {dragging && <div className="drop-overlay">Drop a scenario or lesson file (.json) to open it</div>}
    </div>
  );
}
