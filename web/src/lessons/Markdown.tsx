// Renders a narration (markdown.ts's subset) as React elements: text goes
// into the page as text nodes only (never as HTML), and links open in a new
// tab without giving it a handle on this page.

import { createElement, Fragment, useMemo, type ReactNode } from 'react';
import { parseMarkdown, type Block, type Inline } from './markdown';

function inline(xs: Inline[]): ReactNode[] {
  return xs.map((x, i) => {
    switch (x.t) {
      case 'text':
        return <Fragment key={i}>{x.v}</Fragment>;
      case 'code':
        return <code key={i}>{x.v}</code>;
      case 'strong':
        return <strong key={i}>{inline(x.c)}</strong>;
      case 'em':
        return <em key={i}>{inline(x.c)}</em>;
      case 'link':
        return (
          <a key={i} href={x.href} target="_blank" rel="noopener noreferrer">
            {inline(x.c)}
          </a>
        );
    }
  });
}

/** The React elements of parsed blocks. */
export function renderBlocks(blocks: Block[]): ReactNode[] {
  return blocks.map((b, i) =>
    b.t === 'p'
      ? <p key={i}>{inline(b.c)}</p>
      : createElement(b.t, { key: i }, b.items.map((it, k) => <li key={k}>{inline(it)}</li>)),
  );
}

/** A narration in the Markdown subset, rendered safely. */
export function Markdown({ text, className, testid }: { text: string; className?: string; testid?: string }) {
  const nodes = useMemo(() => renderBlocks(parseMarkdown(text)), [text]);
  return (
    <div className={className} data-testid={testid}>
      {nodes}
    </div>
  );
}
