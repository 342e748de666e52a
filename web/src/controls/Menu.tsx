// A small drop-down menu for the toolbar: a <details> element (keyboard and
// screen-reader friendly without scripts) that closes when one of its
// items is used, on Escape, and on a click elsewhere.

import { useEffect, useRef, type ReactNode } from 'react';

/** The toolbar's menu: `label` on its button, `children` the items (buttons, links, a file picker). */
export function Menu({ label, testid, children }: { label: string; testid?: string; children: ReactNode }) {
  const ref = useRef<HTMLDetailsElement>(null);
  useEffect(() => {
    const close = () => ref.current?.removeAttribute('open');
    const onDown = (e: PointerEvent) => {
      if (ref.current && !ref.current.contains(e.target as Node)) close();
    };
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape' || !ref.current?.open) return;
      close();
      ref.current.querySelector('summary')?.focus();
    };
    document.addEventListener('pointerdown', onDown);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('pointerdown', onDown);
      document.removeEventListener('keydown', onKey);
    };
  }, []);
  return (
    <details className="menu" ref={ref} data-testid={testid}>
      <summary className="btn">{label}</summary>
      <div
        className="menu-items"
        onClick={(e) => {
          // A button or link used closes the menu (the file picker closes it once a file is chosen).
          if ((e.target as HTMLElement).closest('button, a')) ref.current?.removeAttribute('open');
        }}
      >
        {children}
      </div>
    </details>
  );
}
